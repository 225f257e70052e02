import { useQueryClient } from '@tanstack/react-query';
import { CheckCircle2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from '#web/lib/toast.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { errorMessage } from '#web/lib/api.ts';
import type { SessionUser } from '#web/lib/auth-client.ts';
import { usePaymentsShown } from '#web/lib/settings.ts';
import { useSocketEvent } from '#web/lib/socket.ts';
import { useCompleteJob, useMarkJobDelivered } from '#web/features/requests/api.ts';
import { tutorsKeys, useSharedJobs } from '#web/features/tutors/api.ts';
import { AskAgainLink } from '#web/features/requests/embeds.ts';
import { lazyWithPreload } from '#web/components/lazy-with-preload.tsx';
import { jobRefundsKeys } from '#web/features/payments/api.ts';
import { JobPaymentBadge, JobRefunds } from '#web/features/payments/embeds.ts';

// The rating form and its checks: only a student with a completed job sees it, so it is not part of the chat's code.
const RatingPrompt = lazyWithPreload(async () => (await import('./rating-prompt.tsx')).RatingPrompt, {
  fallback: <Spinner label="Loading" className="size-5" />,
});

/**
 * The latest job between the two people of a chat, under its header: the student can mark it completed, then rate
 * it; the tutor can mark it delivered, which asks the student to mark it completed. A job refunded in full is closed:
 * only its refund shows.
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
  const paymentsShown = usePaymentsShown();
  const jobs = useSharedJobs(partnerId);
  // A job's step can move its money (completion releases it), so its payment state is read again with it: only
  // this pair's jobs, as every notification (a new request in a tutor's subjects too) lands here.
  const onJobChanged = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: tutorsKeys.sharedJobs(partnerId) }),
      ...(jobs.data ?? []).map((shared) =>
        queryClient.invalidateQueries({ queryKey: jobRefundsKeys.job(shared.requestId) }),
      ),
    ]);
  const complete = useCompleteJob({ onChanged: onJobChanged });
  const deliver = useMarkJobDelivered({ onChanged: onJobChanged });
  // When the chat opened: a review's 7 days are judged against it (render stays pure).
  const [openedAt] = useState(Date.now);
  // Once the student has acted here, the rating form that replaces the pressed button takes focus.
  const [isPromptFocused, setPromptFocused] = useState(false);
  // Completion, a review or a delivery comes with a notification: the bar follows the other person's step.
  useSocketEvent('notification:new', () => {
    void onJobChanged();
  });
  const job = jobs.data?.[0];
  if (!job) return null;
  const isStudent = job.studentId === user.id;
  const isEditable = !job.review || new Date(job.review.editableUntil).getTime() > openedAt;
  const payment = paymentsShown ? <JobPaymentBadge requestId={job.requestId} /> : null;

  return (
    <div className="flex flex-col gap-2 border-b bg-muted/40 px-3 py-3 sm:px-4">
      {job.isClosed ? (
        <p className="flex flex-wrap items-center gap-2 text-sm">
          Your {job.subjectName} job is closed. {payment}
        </p>
      ) : !job.isCompleted ? (
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="flex flex-wrap items-center gap-2 text-sm">
            Your {job.subjectName} job is {job.deliveredAt ? 'marked as delivered' : 'in progress'}. {payment}
          </p>
          {isStudent ? (
            <Button
              size="sm"
              loading={complete.isPending}
              onPointerEnter={RatingPrompt.preload}
              onFocus={RatingPrompt.preload}
              onClick={() =>
                complete.mutate(job.requestId, {
                  onSuccess: () => {
                    toast.success('Job marked as completed');
                    setPromptFocused(true);
                  },
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
              loading={deliver.isPending}
              onClick={() =>
                deliver.mutate(job.requestId, {
                  onSuccess: () => toast.success(`${partnerName} was asked to mark the job as completed`),
                  onError: (error) => toast.error(errorMessage(error)),
                })
              }
            >
              {job.deliveredAt ? 'Remind to mark as completed' : 'Mark as delivered'}
            </Button>
          )}
        </div>
      ) : null}
      {!job.isCompleted && paymentsShown && (
        <JobRefunds userId={user.id} isStudent={isStudent} requestId={job.requestId} partnerName={partnerName} />
      )}
      {!job.isCompleted ? null : isStudent && isEditable ? (
        <>
          <div className="flex flex-wrap items-center gap-2 empty:hidden">
            {payment}
            <AskAgainLink tutorId={partnerId} tutorName={partnerName} subjectId={job.subjectId} />
          </div>
          <RatingPrompt
            key={job.review?.updatedAt ?? job.requestId}
            job={job}
            tutorName={partnerName}
            takeFocus={isPromptFocused}
            onSaved={() => setPromptFocused(true)}
          />
        </>
      ) : (
        <p className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
          Your {job.subjectName} job is completed. {payment}
          {isStudent && <AskAgainLink tutorId={partnerId} tutorName={partnerName} subjectId={job.subjectId} />}
        </p>
      )}
    </div>
  );
}
