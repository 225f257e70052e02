import { useEffect, useId, useRef, useState } from 'react';
import { toast } from '#web/lib/toast.ts';
import { REVIEW } from '#shared/constants.ts';
import { reviewInputSchema, type SharedJob } from '#shared/schemas/reviews.ts';
import { Button } from '#web/components/ui/button.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { StarRatingInput } from '#web/components/ui/star-rating.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import { errorMessage } from '#web/lib/api.ts';
import { useSaveReview } from '#web/features/tutors/api.ts';

/**
 * The student's stars and optional review of a completed job (or a change within 7 days). `takeFocus`: the button the
 * student pressed (Mark as completed, Submit review) went away as this form appeared or was renewed, so focus comes
 * here rather than falling to the top of the page.
 */
export function RatingPrompt({
  job,
  tutorName,
  takeFocus,
  onSaved,
}: {
  job: SharedJob;
  tutorName: string;
  takeFocus: boolean;
  onSaved: () => void;
}) {
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (takeFocus) form.current?.focus();
  }, [takeFocus]);
  const [rating, setRating] = useState<number | null>(job.review?.rating ?? null);
  const [body, setBody] = useState(job.review?.body ?? '');
  const [error, setError] = useState<string | undefined>();
  const save = useSaveReview();
  const errorId = useId();
  return (
    <form
      ref={form}
      tabIndex={-1}
      aria-label={`Rate your ${job.subjectName} job`}
      className="flex flex-col gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        const parsed = reviewInputSchema.safeParse({ rating: rating ?? 0, body });
        if (!parsed.success) return setError(parsed.error.issues[0]?.message);
        setError(undefined);
        save.mutate(
          { requestId: job.requestId, reviewId: job.review?.id, input: parsed.data },
          {
            onSuccess: () => {
              toast.success(job.review ? 'Review updated' : 'Thank you for your review!');
              onSaved();
            },
            onError: (failure) => setError(errorMessage(failure)),
          },
        );
      }}
    >
      <p className="text-sm font-medium">
        How did your {job.subjectName} job with {tutorName} go?
      </p>
      <StarRatingInput
        label="Your rating"
        value={rating}
        onChange={setRating}
        invalid={Boolean(error)}
        describedBy={error ? errorId : undefined}
      />
      <FormField label="Your review (optional)">
        <Textarea value={body} onChange={(event) => setBody(event.target.value)} maxLength={REVIEW.bodyMax} rows={2} />
      </FormField>
      {error && (
        <p id={errorId} role="alert" className="text-sm text-error">
          {error}
        </p>
      )}
      <Button type="submit" size="sm" className="self-start" loading={save.isPending}>
        {job.review ? 'Update review' : 'Submit review'}
      </Button>
    </form>
  );
}
