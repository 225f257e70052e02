import type { ComponentProps } from 'react';
import { NativeSelect } from '#web/components/ui/native-select.tsx';
import { categoriesOf, useSubjects } from '#web/lib/subjects.ts';

/** One subject from the catalogue (or only those of `onlyIds`, a tutor's), grouped by category. */
export function SubjectSelect({
  placeholder = 'Select a subject',
  onlyIds,
  ...props
}: ComponentProps<'select'> & { placeholder?: string; onlyIds?: string[] }) {
  const { data: catalogue = [], isPending } = useSubjects();
  const subjects = onlyIds ? catalogue.filter((subject) => onlyIds.includes(subject.id)) : catalogue;
  return (
    <NativeSelect disabled={isPending} {...props}>
      <option value="">{isPending ? 'Loading subjects...' : placeholder}</option>
      {categoriesOf(subjects).map((category) => (
        <optgroup key={category} label={category}>
          {subjects
            .filter((subject) => subject.category === category)
            .map((subject) => (
              <option key={subject.id} value={subject.id}>
                {subject.name}
              </option>
            ))}
        </optgroup>
      ))}
    </NativeSelect>
  );
}
