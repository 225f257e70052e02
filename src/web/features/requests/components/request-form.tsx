import { useEffect, useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { toast } from '#web/lib/toast.ts';
import { EDUCATION_LEVELS, type RequestType } from '#shared/constants.ts';
import { defaultBudget } from '#shared/rules/budget.ts';
import { formatDollars, parseCents } from '#shared/rules/money.ts';
import type { RequestDraft } from '#shared/schemas/guru.ts';
import { createRequestFieldsSchema, withBudgetRules } from '#shared/schemas/requests.ts';
import { Button } from '#web/components/ui/button.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { NativeSelect } from '#web/components/ui/native-select.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import { errorMessage } from '#web/lib/api.ts';
import { fetchFile } from '#web/lib/download.ts';
import { useSubjects } from '#web/lib/subjects.ts';
import { useCreateRequest } from '../api.ts';
import { AttachmentPicker } from './attachment-picker.tsx';
import { levelLabels } from './request-display.tsx';
import { SubjectSelect } from './subject-select.tsx';
import { applyFieldErrors } from '#web/lib/form-errors.ts';

const fields = createRequestFieldsSchema.shape;
const emptyToUndefined = (value: string) => (value === '' ? undefined : value);
// datetime-local gives local wall time without an offset: send it as an instant.
const localToIso = (value: string) =>
  value !== '' && !Number.isNaN(new Date(value).getTime()) ? new Date(value).toISOString() : emptyToUndefined(value);
// The budget fields hold the dollars as typed; the shared parser reads them as cents ("12.505" is no amount).
const typedCents = z.string().transform((typed) => parseCents(typed) ?? Number.NaN);

/** The API's schema, fed from the form's controls (empty selects and dates are "no answer"). */
const requestFormSchema = withBudgetRules(
  createRequestFieldsSchema
    .pick({
      type: true,
      subjectId: true,
      description: true,
      requirements: true,
      schedule: true,
    })
    .extend({
      budgetMinCents: typedCents.pipe(fields.budgetMinCents),
      budgetMaxCents: typedCents.pipe(fields.budgetMaxCents.unwrap()),
      deadline: z.string().transform(localToIso).pipe(fields.deadline),
      level: z.string().transform(emptyToUndefined).pipe(fields.level),
    }),
);

type FormValues = z.input<typeof requestFormSchema>;
type FormOutput = z.output<typeof requestFormSchema>;

const fieldNames = [
  'type',
  'subjectId',
  'description',
  'budgetMinCents',
  'budgetMaxCents',
  'deadline',
  'level',
  'requirements',
  'schedule',
] as const;

type RequestFormProps = {
  onDone: () => void;
  onCancel: () => void;
  /** Filled in from Guru AI's "Ask a tutor": subject, description and the question's photo. */
  draft?: RequestDraft | null;
  /** Sent to this tutor only, in one of their subjects (`subjectId` chosen first when given). */
  directTutor?: { id: string; username: string; subjectIds: string[]; subjectId?: string | undefined } | null;
};

/** The standard form (SPEC.md §2 "Standard form"), with optional attachments. */
export function RequestForm({ onDone, onCancel, draft = null, directTutor = null }: RequestFormProps) {
  const initial = defaultBudget('tutoring');
  const form = useForm<FormValues, unknown, FormOutput>({
    resolver: zodResolver(requestFormSchema),
    defaultValues: {
      type: 'tutoring',
      subjectId: '',
      description: draft?.description ?? '',
      budgetMinCents: formatDollars(initial.minCents),
      budgetMaxCents: formatDollars(initial.maxCents),
      deadline: '',
      level: '',
      requirements: '',
      schedule: '',
    },
  });
  const { errors } = form.formState;
  const createRequest = useCreateRequest();
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const [files, setFiles] = useState<File[]>([]);

  // The draft's subject is chosen once the catalogue has loaded (by name: ids differ between databases).
  const { data: subjects } = useSubjects();
  const draftSubjectName = draft?.subjectName;
  // "Ask {name} again" names the subject of the job before, if the tutor still teaches it.
  const directSubjectId = directTutor?.subjectIds.includes(directTutor.subjectId ?? '') ? directTutor.subjectId : null;
  useEffect(() => {
    const subject = subjects?.find((candidate) =>
      directSubjectId ? candidate.id === directSubjectId : candidate.name === draftSubjectName,
    );
    if (subject && !form.getValues('subjectId')) form.setValue('subjectId', subject.id);
  }, [subjects, draftSubjectName, directSubjectId, form]);

  const draftPhoto = draft?.photo;
  useEffect(() => {
    if (!draftPhoto) return;
    let isCurrent = true;
    // Fetched from the chat, so that it is attached to the request like a picked file.
    fetchFile(draftPhoto.url, draftPhoto.originalFilename)
      .then((file) => isCurrent && setFiles((current) => (current.length === 0 ? [file] : current)))
      .catch(() => toast.error('Failed to download file'));
    return () => {
      isCurrent = false;
    };
  }, [draftPhoto]);

  const onSubmit = form.handleSubmit((values) => {
    const fields = directTutor ? { ...values, directTutorId: directTutor.id } : values;
    createRequest.mutate(
      { fields, files, idempotencyKey },
      {
        onSuccess: () => {
          toast.success(
            directTutor ? 'Request Sent' : 'Request Created',
            directTutor
              ? { description: `Your request has been sent to ${directTutor.username}.` }
              : { description: 'Your tutoring request has been posted successfully.' },
          );
          onDone();
        },
        onError: (error) => {
          applyFieldErrors(form.setError, error, fieldNames);
          toast.error('Failed to Create Request', {
            description: errorMessage(error) || 'An unexpected error occurred',
          });
        },
      },
    );
  });

  const typeField = form.register('type', {
    onChange: (event: { target: { value: RequestType } }) => {
      const budget = defaultBudget(event.target.value);
      form.setValue('budgetMinCents', formatDollars(budget.minCents));
      form.setValue('budgetMaxCents', formatDollars(budget.maxCents));
      form.clearErrors(['budgetMinCents', 'budgetMaxCents']);
    },
  });

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
      <FormField label="Request Type" error={errors.type?.message}>
        <NativeSelect {...typeField}>
          <option value="tutoring">Tutoring</option>
          <option value="assignment">Assignment Help</option>
        </NativeSelect>
      </FormField>
      <FormField label="Subject" error={errors.subjectId?.message}>
        <SubjectSelect onlyIds={directTutor?.subjectIds} {...form.register('subjectId')} />
      </FormField>
      <FormField label="Description" error={errors.description?.message}>
        <Textarea rows={4} placeholder="Describe what you need help with" {...form.register('description')} />
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Minimum Budget ($)" error={errors.budgetMinCents?.message}>
          <Input type="text" inputMode="decimal" autoComplete="off" {...form.register('budgetMinCents')} />
        </FormField>
        <FormField label="Maximum Budget ($)" error={errors.budgetMaxCents?.message}>
          <Input type="text" inputMode="decimal" autoComplete="off" {...form.register('budgetMaxCents')} />
        </FormField>
      </div>
      <FormField label="Deadline (optional)" error={errors.deadline?.message}>
        <Input type="datetime-local" {...form.register('deadline')} />
      </FormField>
      <FormField label="Education Level (optional)" error={errors.level?.message}>
        <NativeSelect {...form.register('level')}>
          <option value="">Not specified</option>
          {EDUCATION_LEVELS.map((level) => (
            <option key={level} value={level}>
              {levelLabels[level]}
            </option>
          ))}
        </NativeSelect>
      </FormField>
      <FormField label="Additional Requirements (optional)" error={errors.requirements?.message}>
        <Textarea rows={2} {...form.register('requirements')} />
      </FormField>
      <FormField label="Preferred Schedule (optional)" error={errors.schedule?.message}>
        <Input {...form.register('schedule')} />
      </FormField>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-2 text-sm font-medium">Attachments (optional)</legend>
        <AttachmentPicker files={files} onChange={setFiles} />
      </fieldset>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" loading={createRequest.isPending}>
          {directTutor ? `Send to ${directTutor.username}` : 'Create Request'}
        </Button>
      </div>
    </form>
  );
}
