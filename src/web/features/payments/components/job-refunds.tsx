import { useState } from 'react';
import type { JobRefunds as JobRefundsData, RefundRequestView } from '#shared/schemas/refunds.ts';
import { formatCents } from '#shared/rules/money.ts';
import { meetingTimeLabel } from '#shared/rules/meeting-time.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { errorMessage } from '#web/lib/api.ts';
import { toast } from '#web/lib/toast.ts';
import { useAnswerCancellation, useAnswerRefund, useCancelJob, useJobRefunds } from '../refunds-api.ts';
import { AskForRefundDialog } from './ask-for-refund-dialog.tsx';

const reasonLabels: Record<RefundRequestView['reason'], string> = {
  missed_session: 'the tutor missed a scheduled session',
  missed_deadline: 'the assignment was not delivered by its deadline',
  tutor_withdrew: 'the tutor withdrew',
  cancelled_by_agreement: 'the job was cancelled by agreement',
  tutor_suspended: 'the tutor’s account was suspended',
};

const onError = (error: unknown) => toast.error(errorMessage(error));

/** What an open or settled request says to this person, in plain words. */
function requestStatus(latest: RefundRequestView, userId: string, partnerName: string) {
  const isStudent = latest.studentId === userId;
  switch (latest.status) {
    case 'awaiting_tutor':
      return isStudent
        ? `You asked for a refund: ${reasonLabels[latest.reason]}. ${partnerName} has until ${meetingTimeLabel(latest.answerDueAt!)} to answer; then an admin decides.`
        : `${partnerName} asked for a refund of ${formatCents(latest.heldCents)}: ${reasonLabels[latest.reason]}. Accept it, or contest it and an admin decides.`;
    case 'awaiting_agreement':
      return latest.openedBy === userId
        ? `You proposed to cancel this job. Waiting for ${partnerName} to agree.`
        : `${partnerName} proposes to cancel this job and refund ${formatCents(latest.heldCents)} to the student.`;
    case 'with_admins':
      return 'An admin is deciding the refund request. The money stays held until then.';
    case 'refunding':
      return 'The refund is being made.';
    case 'refunded':
      return `${formatCents(latest.refundCents!)} was refunded (${reasonLabels[latest.reason]}).`;
    case 'partially_refunded':
      return `${formatCents(latest.refundCents!)} of ${formatCents(latest.heldCents)} was refunded; the rest went to the tutor.`;
    case 'declined':
      return null;
  }
}

/**
 * The job's refunds in the chat's job bar, for money held here: the student asks for a refund, the tutor answers it
 * or withdraws, either proposes to cancel and the other agrees. Nothing shows for a job not paid here.
 */
export function JobRefunds({
  userId,
  isStudent,
  requestId,
  partnerName,
}: {
  userId: string;
  isStudent: boolean;
  requestId: string;
  partnerName: string;
}) {
  const refunds = useJobRefunds(requestId);
  if (refunds.isPending) return <Spinner label="Loading the job's payment" className="size-4" />;
  if (refunds.isError)
    return (
      <p className="text-sm text-muted-foreground" role="alert">
        The job&apos;s payment could not be loaded.{' '}
        <Button size="sm" variant="link" className="h-auto p-0" onClick={() => void refunds.refetch()}>
          Try again
        </Button>
      </p>
    );
  return <JobRefundsBody refunds={refunds.data} userId={userId} isStudent={isStudent} partnerName={partnerName} />;
}

function JobRefundsBody({
  refunds,
  userId,
  isStudent,
  partnerName,
}: {
  refunds: JobRefundsData;
  userId: string;
  isStudent: boolean;
  partnerName: string;
}) {
  const [isAsking, setAsking] = useState(false);
  const answer = useAnswerRefund(refunds.requestId);
  const cancel = useCancelJob(refunds.requestId);
  const agree = useAnswerCancellation(refunds.requestId);
  const { latest, paymentState } = refunds;
  const open = paymentState === 'frozen' && latest ? latest : null;
  const settled = latest && ['refunded', 'partially_refunded'].includes(latest.status) ? latest : null;
  const shown = open ?? settled;
  if (!shown && paymentState !== 'held') return null;
  const status = shown ? requestStatus(shown, userId, partnerName) : null;

  return (
    <div className="flex flex-wrap items-center justify-between gap-2" aria-live="polite">
      {status && <p className="text-sm">{status}</p>}
      <div className="flex flex-wrap gap-2">
        {paymentState === 'held' && (
          <>
            {isStudent ? (
              <Button size="sm" variant="outline" onClick={() => setAsking(true)}>
                Ask for a refund
              </Button>
            ) : (
              <Button
                size="sm"
                variant="outline"
                loading={cancel.isPending && cancel.variables === 'withdraw'}
                onClick={() => {
                  if (!window.confirm(`Withdraw from this job? ${partnerName} gets all the money back.`)) return;
                  cancel.mutate('withdraw', {
                    onSuccess: () => toast.success('You withdrew; the student is refunded'),
                    onError,
                  });
                }}
              >
                Withdraw from the job
              </Button>
            )}
            <Button
              size="sm"
              variant="ghost"
              loading={cancel.isPending && cancel.variables === 'cancellation'}
              onClick={() =>
                cancel.mutate('cancellation', {
                  onSuccess: () => toast.success(`${partnerName} was asked to agree to cancel`),
                  onError,
                })
              }
            >
              Propose to cancel
            </Button>
          </>
        )}
        {open?.status === 'awaiting_tutor' && open.tutorId === userId && (
          <>
            <Button
              size="sm"
              loading={answer.isPending && answer.variables.answer === 'accept'}
              onClick={() =>
                answer.mutate(
                  { refundRequestId: open.id, answer: 'accept' },
                  { onSuccess: () => toast.success('Refund accepted'), onError },
                )
              }
            >
              Accept refund
            </Button>
            <Button
              size="sm"
              variant="outline"
              loading={answer.isPending && answer.variables.answer === 'contest'}
              onClick={() => {
                const note = window.prompt('Why do you contest it? An admin reads this.');
                if (note === null) return;
                answer.mutate(
                  { refundRequestId: open.id, answer: 'contest', note },
                  { onSuccess: () => toast.success('Contested: an admin will decide'), onError },
                );
              }}
            >
              Contest
            </Button>
          </>
        )}
        {open?.status === 'awaiting_agreement' && open.openedBy !== userId && (
          <>
            <Button
              size="sm"
              loading={agree.isPending && agree.variables.agree}
              onClick={() =>
                agree.mutate(
                  { refundRequestId: open.id, agree: true },
                  { onSuccess: () => toast.success('Cancelled; the student is refunded'), onError },
                )
              }
            >
              Agree to cancel
            </Button>
            <Button
              size="sm"
              variant="outline"
              loading={agree.isPending && !agree.variables.agree}
              onClick={() =>
                agree.mutate({ refundRequestId: open.id, agree: false }, { onSuccess: () => undefined, onError })
              }
            >
              Decline
            </Button>
          </>
        )}
      </div>
      {isAsking && <AskForRefundDialog refunds={refunds} onClose={() => setAsking(false)} />}
    </div>
  );
}
