import { useId, useState } from 'react';
import { toast } from '#web/lib/toast.ts';
import { formatDollars, parseCents } from '#shared/rules/money.ts';
import { listingMessages, updateTutorListingSchema, type TutorListing } from '#shared/schemas/profiles.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Checkbox } from '#web/components/ui/checkbox.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { ApiError, errorMessage } from '#web/lib/api.ts';
import { useUpdateTutorListing } from '../api.ts';

/** A teacher's hourly rate for tutoring (typed in dollars, sent in cents) and visibility to signed-out visitors. */
export function TutorListingEditor({ listing }: { listing: TutorListing }) {
  const update = useUpdateTutorListing();
  const [rate, setRate] = useState(listing.hourlyRateCents === null ? '' : formatDollars(listing.hourlyRateCents));
  const [isVisibleToVisitors, setIsVisibleToVisitors] = useState(listing.isVisibleToVisitors);
  const [rateError, setRateError] = useState<string | undefined>();
  const visibilityId = useId();
  const visibilityHelpId = useId();

  const submit = () => {
    // An empty field is no rate; anything typed must read as cents in the range, or the field says why.
    const typed = rate.trim();
    const cents = typed === '' ? null : (parseCents(typed) ?? Number.NaN);
    const parsed = updateTutorListingSchema.safeParse({ hourlyRateCents: cents, isVisibleToVisitors });
    if (!parsed.success) {
      setRateError(listingMessages.hourlyRate);
      return;
    }
    update.mutate(parsed.data, {
      onSuccess: () => toast.success('Profile updated'),
      onError: (error) => {
        const fieldError = error instanceof ApiError ? error.fields?.hourlyRateCents : undefined;
        if (fieldError) setRateError(fieldError);
        else toast.error(errorMessage(error));
      },
    });
  };

  return (
    <form
      className="flex flex-col gap-5"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <FormField
        label="Hourly rate for tutoring (USD)"
        error={rateError}
        description="Shown on your card in Find Tutors. Leave it empty to show no rate."
        className="max-w-xs"
      >
        <Input
          // Text, not a number field: the parser reads exactly what was typed ("1e3" is refused, not 1000).
          type="text"
          inputMode="decimal"
          autoComplete="off"
          placeholder="e.g. 12"
          value={rate}
          onChange={(event) => {
            setRate(event.target.value);
            setRateError(undefined);
          }}
        />
      </FormField>
      <div className="flex items-start gap-3">
        <Checkbox
          id={visibilityId}
          aria-describedby={visibilityHelpId}
          checked={isVisibleToVisitors}
          onCheckedChange={(checked) => setIsVisibleToVisitors(checked === true)}
          className="mt-0.5"
        />
        <div className="flex flex-col gap-1">
          <Label htmlFor={visibilityId}>Visible to visitors</Label>
          <p id={visibilityHelpId} className="text-sm text-muted-foreground">
            When on, people who are not signed in find you in Find Tutors and can open your tutor page. When off, only
            signed-in students and teachers see you. Your e-mail address is never shown.
          </p>
        </div>
      </div>
      <div>
        <Button type="submit" loading={update.isPending}>
          Save
        </Button>
      </div>
    </form>
  );
}
