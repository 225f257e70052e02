import { Pencil } from 'lucide-react';
import { useRef, useState, type SubmitEvent } from 'react';
import { toast } from '#web/lib/toast.ts';
import { specializationMessages, specializationProblem } from '#shared/rules/specializations.ts';
import type { Subject } from '#shared/schemas/profiles.ts';
import { SubjectPicker } from '#web/components/subject-picker.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { ApiError, errorMessage } from '#web/lib/api.ts';
import { useSubjects } from '#web/lib/subjects.ts';
import { useUpdateSpecializations } from '../api.ts';

type SpecializationsEditorProps = {
  specializations: Subject[];
  headingId: string;
};

/** A teacher's subjects: shown as badges, edited with the registration's picker. */
export function SpecializationsEditor({ specializations, headingId }: SpecializationsEditorProps) {
  const [draft, setDraft] = useState<string[] | null>(null);
  const [error, setError] = useState<string | undefined>();
  const editButtonRef = useRef<HTMLButtonElement>(null);
  const pickerRef = useRef<HTMLSelectElement>(null);
  const { data: subjects } = useSubjects();
  const update = useUpdateSpecializations();

  const startEditing = () => {
    setDraft(specializations.map((subject) => subject.id));
    setError(undefined);
    requestAnimationFrame(() => pickerRef.current?.focus());
  };

  const stopEditing = () => {
    setDraft(null);
    setError(undefined);
    requestAnimationFrame(() => editButtonRef.current?.focus());
  };

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!draft) return;
    const categories = draft.map((id) => subjects?.find((subject) => subject.id === id)?.category);
    const problem = categories.some((category) => category === undefined)
      ? specializationMessages.unknown
      : specializationProblem(categories as string[]);
    if (problem) {
      setError(problem);
      pickerRef.current?.focus();
      return;
    }
    update.mutate(draft, {
      onSuccess: () => {
        toast.success('Specializations updated');
        stopEditing();
      },
      onError: (updateError) => {
        const fieldMessage =
          updateError instanceof ApiError && updateError.status === 400
            ? Object.entries(updateError.fields ?? {}).find(([path]) => path.startsWith('subjectIds'))?.[1]
            : undefined;
        if (fieldMessage) {
          setError(fieldMessage);
          pickerRef.current?.focus();
          return;
        }
        toast.error('Error', { description: errorMessage(updateError) });
      },
    });
  };

  if (draft === null) {
    return (
      <div className="flex flex-col gap-4">
        {specializations.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            You have not chosen any subjects yet. Students&apos; requests in your subjects appear in Find Jobs.
          </p>
        ) : (
          <ul aria-labelledby={headingId} className="flex flex-wrap gap-2">
            {specializations.map((subject) => (
              <li key={subject.id}>
                <Badge variant="secondary" className="px-3 py-1 text-sm">
                  {subject.name}
                </Badge>
              </li>
            ))}
          </ul>
        )}
        <Button ref={editButtonRef} variant="outline" size="sm" className="w-fit" onClick={startEditing}>
          <Pencil aria-hidden="true" />
          Edit specializations
        </Button>
      </div>
    );
  }

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
      <SubjectPicker
        ref={pickerRef}
        legend="Your subjects"
        value={draft}
        onChange={(next) => {
          setDraft(next);
          setError(undefined);
        }}
        error={error}
        disabled={update.isPending}
      />
      <div className="flex flex-col-reverse gap-2 sm:flex-row">
        <Button variant="outline" onClick={stopEditing} disabled={update.isPending}>
          Cancel
        </Button>
        <Button type="submit" loading={update.isPending}>
          {update.isPending ? 'Saving...' : 'Save specializations'}
        </Button>
      </div>
    </form>
  );
}
