import { useId } from 'react';
import { TUTORING_BUDGET_CENTS } from '#shared/constants.ts';
import { formatCents } from '#shared/rules/money.ts';
import { DIRECTORY } from '#shared/schemas/directory.ts';
import { Checkbox } from '#web/components/ui/checkbox.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { NativeSelect } from '#web/components/ui/native-select.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { categoriesOf, useSubjects } from '#web/lib/subjects.ts';
import type { DirectoryFilter } from '../api.ts';
import { formatResponseTime } from '#shared/rules/response-time.ts';

/** Whole dollars across the tutoring range, as cents: the price range's choices. */
const RATE_CHOICES = Array.from(
  { length: (TUTORING_BUDGET_CENTS.max - TUTORING_BUDGET_CENTS.min) / 100 + 1 },
  (_, index) => TUTORING_BUDGET_CENTS.min + index * 100,
);

type FiltersProps = {
  params: URLSearchParams;
  setFilter: (key: DirectoryFilter, value: string | null) => void;
};

/** The subjects of SPEC.md's list, by category, any number of them. */
function SubjectsFilter({ params, setFilter }: FiltersProps) {
  const subjects = useSubjects();
  const chosen = new Set(params.get('subjects')?.split(',').filter(Boolean) ?? []);
  const toggle = (subjectId: string, isChosen: boolean) => {
    const next = new Set(chosen);
    if (isChosen) next.add(subjectId);
    else next.delete(subjectId);
    setFilter('subjects', next.size === 0 ? null : [...next].join(','));
  };
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-2 text-sm font-medium">Subjects</legend>
      {subjects.isPending ? (
        <Skeleton className="h-[200px] w-full" />
      ) : subjects.isError ? (
        <p className="text-sm text-error">The subjects could not be loaded.</p>
      ) : (
        // The subject list scrolls at 200 px (SPEC.md §9).
        <div className="flex max-h-[200px] flex-col gap-3 overflow-y-auto rounded-md border p-3">
          {categoriesOf(subjects.data).map((category) => (
            <div key={category} className="flex flex-col gap-2">
              <p className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">{category}</p>
              {subjects.data
                .filter((subject) => subject.category === category)
                .map((subject) => (
                  <SubjectChoice
                    key={subject.id}
                    name={subject.name}
                    isChosen={chosen.has(subject.id)}
                    onChange={(isChosen) => toggle(subject.id, isChosen)}
                  />
                ))}
            </div>
          ))}
        </div>
      )}
    </fieldset>
  );
}

function SubjectChoice({
  name,
  isChosen,
  onChange,
}: {
  name: string;
  isChosen: boolean;
  onChange: (isChosen: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <Checkbox id={id} checked={isChosen} onCheckedChange={(checked) => onChange(checked === true)} />
      <Label htmlFor={id} className="font-normal">
        {name}
      </Label>
    </div>
  );
}

/** A select whose empty choice removes the filter from the address. */
function FilterSelect({
  label,
  name,
  params,
  setFilter,
  anyLabel,
  choices,
}: FiltersProps & {
  label: string;
  name: DirectoryFilter;
  anyLabel: string;
  choices: { value: number; label: string }[];
}) {
  return (
    <FormField label={label}>
      <NativeSelect value={params.get(name) ?? ''} onChange={(event) => setFilter(name, event.target.value || null)}>
        <option value="">{anyLabel}</option>
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </NativeSelect>
    </FormField>
  );
}

/** Subjects, minimum rating, price range and response time; each change is a new address (the back button undoes). */
export function DirectoryFilters(props: FiltersProps) {
  const rates = RATE_CHOICES.map((cents) => ({ value: cents, label: formatCents(cents) }));
  // Each end of the range offers only the rates on its side of the other end: a range holding no rate is refused.
  const lowest = Number(props.params.get('minRateCents') ?? -Infinity);
  const highest = Number(props.params.get('maxRateCents') ?? Infinity);
  return (
    <div className="flex flex-col gap-5">
      <SubjectsFilter {...props} />
      <FilterSelect
        {...props}
        label="Minimum rating"
        name="minRating"
        anyLabel="Any rating"
        choices={DIRECTORY.minRatings.map((stars) => ({ value: stars, label: `${stars} stars or more` }))}
      />
      <div className="grid grid-cols-2 gap-3">
        <FilterSelect
          {...props}
          label="Lowest rate"
          name="minRateCents"
          anyLabel="Any"
          choices={rates.filter((rate) => !(rate.value > highest))}
        />
        <FilterSelect
          {...props}
          label="Highest rate"
          name="maxRateCents"
          anyLabel="Any"
          choices={rates.filter((rate) => !(rate.value < lowest))}
        />
      </div>
      <FilterSelect
        {...props}
        label="Responds within"
        name="respondsWithin"
        anyLabel="Any time"
        choices={DIRECTORY.respondsWithinMinutes.map((minutes) => ({
          value: minutes,
          label: formatResponseTime(minutes),
        }))}
      />
    </div>
  );
}
