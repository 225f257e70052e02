import { RotateCw } from 'lucide-react';
import { useId, useState, type Ref } from 'react';
import { MATHEMATICS_CATEGORY } from '#shared/constants.ts';
import type { Subject } from '#shared/schemas/profiles.ts';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Checkbox } from '#web/components/ui/checkbox.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { NativeSelect } from '#web/components/ui/native-select.tsx';
import { RadioGroup, RadioGroupItem } from '#web/components/ui/radio-group.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { categoriesOf, useSubjects } from '#web/lib/subjects.ts';
import { cn } from '#web/lib/utils.ts';

type SubjectPickerProps = {
  /** Chosen subject ids. */
  value: string[];
  onChange: (subjectIds: string[]) => void;
  error?: string | undefined;
  /** Goes to the category select: the field focused when the choice is invalid. */
  ref?: Ref<HTMLSelectElement>;
  legend?: string;
  disabled?: boolean;
  className?: string;
};

const rowClasses =
  'flex min-h-11 flex-1 cursor-pointer items-center py-2 pr-3 text-sm leading-snug font-normal md:min-h-10';

/**
 * A teacher's specializations (SPEC.md §2 Register): a category first, then its subjects.
 * Mathematics allows several subjects (checkboxes), every other category exactly one (radios).
 * Changing the category clears the choice, so the subjects always belong to one category.
 */
export function SubjectPicker({
  value,
  onChange,
  error,
  ref,
  legend = 'Specializations',
  disabled = false,
  className,
}: SubjectPickerProps) {
  const baseId = useId();
  const { data: subjects, isPending, isError, refetch, isRefetching } = useSubjects();
  // Until the user picks a category, it follows the subjects already chosen (the profile's, say).
  const [pickedCategory, setPickedCategory] = useState<string | null>(null);

  const ids = {
    description: `${baseId}-description`,
    category: `${baseId}-category`,
    subjects: `${baseId}-subjects`,
    selection: `${baseId}-selection`,
    error: `${baseId}-error`,
  };

  if (isPending) {
    return (
      <div className={cn('flex flex-col gap-3', className)}>
        <p className="text-sm font-medium">{legend}</p>
        <span role="status" className="sr-only">
          Loading subjects
        </span>
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-24 w-full" />
      </div>
    );
  }

  if (isError) {
    return (
      <div className={cn('flex flex-col gap-3', className)}>
        <p className="text-sm font-medium">{legend}</p>
        <div role="alert" className="flex flex-col items-start gap-3 rounded-lg border border-dashed p-4 text-sm">
          <p>The list of subjects could not be loaded.</p>
          <Button variant="outline" size="sm" onClick={() => void refetch()} loading={isRefetching}>
            {!isRefetching && <RotateCw aria-hidden="true" />}
            Try again
          </Button>
        </div>
      </div>
    );
  }

  const byId = new Map(subjects.map((subject) => [subject.id, subject]));
  const chosen = value.map((id) => byId.get(id)).filter((subject): subject is Subject => subject !== undefined);
  const category = pickedCategory ?? chosen[0]?.category ?? '';
  const categorySubjects = subjects.filter((subject) => subject.category === category);
  const allowsSeveral = category === MATHEMATICS_CATEGORY;

  const changeCategory = (next: string) => {
    setPickedCategory(next);
    // Subjects of two categories cannot be combined: a new category starts a new choice.
    if (next !== category) onChange([]);
  };

  const toggle = (subjectId: string, checked: boolean) => {
    onChange(checked ? [...value.filter((id) => id !== subjectId), subjectId] : value.filter((id) => id !== subjectId));
  };

  const describedBy = [ids.description, ids.selection, error ? ids.error : null].filter(Boolean).join(' ');

  return (
    <fieldset
      className={cn('flex min-w-0 flex-col gap-3', className)}
      aria-describedby={describedBy}
      disabled={disabled}
    >
      <legend className="mb-1 text-sm font-medium">{legend}</legend>
      <p id={ids.description} className="text-sm text-muted-foreground">
        Choose a category, then the subjects you teach: several in {MATHEMATICS_CATEGORY}, one in any other category.
      </p>

      <div className="flex flex-col gap-2">
        <Label htmlFor={ids.category}>Subject category</Label>
        <NativeSelect
          ref={ref}
          id={ids.category}
          value={category}
          aria-invalid={error && !category ? true : undefined}
          aria-describedby={error ? ids.error : undefined}
          onChange={(event) => changeCategory(event.target.value)}
        >
          <option value="">Choose a category</option>
          {categoriesOf(subjects).map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </NativeSelect>
      </div>

      {category && (
        <div className="flex flex-col gap-2">
          <p id={ids.subjects} className="text-sm font-medium">
            {allowsSeveral ? `${category} subjects (choose one or more)` : `${category} subject (choose one)`}
          </p>
          {/* SPEC.md §9: the subject list scrolls at 200 px. */}
          <div className="max-h-[200px] overflow-y-auto overscroll-contain rounded-md border bg-background p-1">
            {allowsSeveral ? (
              <div role="group" aria-labelledby={ids.subjects} className="flex flex-col">
                {categorySubjects.map((subject) => {
                  const itemId = `${baseId}-subject-${subject.id}`;
                  return (
                    <div key={subject.id} className="flex items-center gap-3 rounded-md pl-3 hover:bg-accent">
                      <Checkbox
                        id={itemId}
                        checked={value.includes(subject.id)}
                        onCheckedChange={(checked) => toggle(subject.id, checked === true)}
                      />
                      <Label htmlFor={itemId} className={rowClasses}>
                        {subject.name}
                      </Label>
                    </div>
                  );
                })}
              </div>
            ) : (
              <RadioGroup
                aria-labelledby={ids.subjects}
                value={value[0] ?? ''}
                onValueChange={(subjectId) => onChange([subjectId])}
                className="flex flex-col gap-0"
              >
                {categorySubjects.map((subject) => {
                  const itemId = `${baseId}-subject-${subject.id}`;
                  return (
                    <div key={subject.id} className="flex items-center gap-3 rounded-md pl-3 hover:bg-accent">
                      <RadioGroupItem id={itemId} value={subject.id} />
                      <Label htmlFor={itemId} className={rowClasses}>
                        {subject.name}
                      </Label>
                    </div>
                  );
                })}
              </RadioGroup>
            )}
          </div>
        </div>
      )}

      <div
        id={ids.selection}
        aria-live="polite"
        className="flex flex-wrap items-center gap-1.5 text-sm text-muted-foreground"
      >
        {chosen.length === 0 ? (
          <span>No subject chosen yet.</span>
        ) : (
          <>
            <span>Chosen:</span>
            {chosen.map((subject) => (
              <Badge key={subject.id} variant="secondary">
                {subject.name}
              </Badge>
            ))}
          </>
        )}
      </div>

      {error && (
        <p id={ids.error} className="text-sm font-medium text-error">
          {error}
        </p>
      )}
    </fieldset>
  );
}
