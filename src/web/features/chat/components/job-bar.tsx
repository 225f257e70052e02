import { useQueryClient } from '@tanstack/react-query';
import { CheckCircle2 } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { REVIEW } from '#shared/constants.ts';
import { reviewInputSchema, type SharedJob } from '#shared/schemas/reviews.ts';
import { Button } from '#web/components/ui/button.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { StarRatingInput } from '#web/components/ui/star-rating.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import { errorMessage } from '#web/lib/api.ts';
import type { SessionUser } from '#web/lib/auth-client.ts';
import { useSocketEvent } from '#web/lib/socket.ts';
import { useAskToCompleteJob, useCompleteJob } from '#web/features/requests/api.ts';
import { tutorsKeys, useSaveReview, useSharedJobs } from '#web/features/tutors/api.ts';

/** The student's stars and optional review of a completed job (or a change within 7 days). */
function RatingPrompt({ job, tutorName }: { job: SharedJob; tutorName: string }) {
  const [rating, setRating] = useState<number | null>(job.review?.rating ?? null);
  const [body, setBody] = useState(job.review?.body ?? '');
  const [error, setError] = useState<string | undefined>();
  const save = useSaveReview();
  const errorId = useId();
  return (
    <form
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
            onSuccess: () => toast.success(job.review ? 'Review updated' : 'Thank you for your review!'),
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

/**
 * The latest job between the two people of a chat, under its header: the student can mark it completed, then rate
 * it; the tutor can ask the student to mark it completed.
 */
export function JobBar({
  user,
  partnerId,
  partnerName,
}: {
  user: SessionUser;
  partnerId: string;
  partnerName: string;
}) {
  const queryClient = useQueryClient();
  const jobs = useSharedJobs(partnerId);
  const complete = useCompleteJob({
    onChanged: () => queryClient.invalidateQueries({ queryKey: tutorsKeys.sharedJobs(partnerId) }),
  });
  const ask = useAskToCompleteJob();
  // When the chat opened: a review's 7 days are judged against it (render stays pure).
  const [openedAt] = useState(Date.now);
  // Completion, a review or a request to complete comes with a notification: the bar follows the other person's step.
  useSocketEvent('notification:new', () => {
    void queryClient.invalidateQueries({ queryKey: tutorsKeys.sharedJobs(partnerId) });
  });
  const job = jobs.data?.[0];
  if (!job) return null;
  const isStudent = job.studentId === user.id;
  const isEditable = !job.review || new Date(job.review.editableUntil).getTime() > openedAt;

  return (
    <div className="flex flex-col gap-2 border-b bg-muted/40 px-3 py-3 sm:px-4">
      {!job.isCompleted ? (
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-sm">Your {job.subjectName} job is in progress.</p>
          {isStudent ? (
            <Button
              size="sm"
              loading={complete.isPending}
              onClick={() =>
                complete.mutate(job.requestId, {
                  onSuccess: () => toast.success('Job marked as completed'),
                  onError: (error) => toast.error(errorMessage(error)),
                })
              }
            >
              <CheckCircle2 aria-hidden="true" />
              Mark as completed
            </Button>
          ) : (
            <Button
              size="sm"
              variant="outline"
              loading={ask.isPending}
              onClick={() =>
                ask.mutate(job.requestId, {
                  onSuccess: () => toast.success(`${partnerName} was asked to mark the job as completed`),
                  onError: (error) => toast.error(errorMessage(error)),
                })
              }
            >
              Ask to mark as completed
            </Button>
          )}
        </div>
      ) : isStudent && isEditable ? (
        <RatingPrompt key={job.review?.updatedAt ?? job.requestId} job={job} tutorName={partnerName} />
      ) : (
        <p className="text-sm text-muted-foreground">Your {job.subjectName} job is completed.</p>
      )}
    </div>
  );
}
