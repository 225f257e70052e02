import type { ComponentProps } from 'react';
import { NativeSelect } from '#web/components/ui/native-select.tsx';
import { categoriesOf, useSubjects } from '#web/lib/subjects.ts';

/** One subject from the catalogue, grouped by category. */
export function SubjectSelect({
  placeholder = 'Select a subject',
  ...props
}: ComponentProps<'select'> & { placeholder?: string }) {
  const { data: subjects = [], isPending } = useSubjects();
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
