import { useId, useState } from 'react';
import { refundMessages, type JobRefunds } from '#shared/schemas/refunds.ts';
import { meetingTimeLabel } from '#shared/rules/meeting-time.ts';
import { formatCents } from '#shared/rules/money.ts';
import { Alert } from '#web/components/ui/alert.tsx';
import { Button } from '#web/components/ui/button.tsx';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '#web/components/ui/dialog.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { NativeSelect } from '#web/components/ui/native-select.tsx';
import { RadioGroup, RadioGroupItem } from '#web/components/ui/radio-group.tsx';
import { ApiError, errorMessage } from '#web/lib/api.ts';
import { toast } from '#web/lib/toast.ts';
import { useAskForRefund } from '../refunds-api.ts';

const REASONS = [
  { value: 'missed_session', label: 'The tutor missed a scheduled session' },
  { value: 'missed_deadline', label: 'The assignment was not delivered by its deadline' },
  { value: 'other', label: 'Something else' },
] as const;
type Reason = (typeof REASONS)[number]['value'];

/**
 * The student's refund request: a reason the terms allow (and the missed session), or "Something else", which the
 * terms' own words answer before anything is sent. The server checks the reason again and says why it refuses.
 */
export function AskForRefundDialog({ refunds, onClose }: { refunds: JobRefunds; onClose: () => void }) {
  const baseId = useId();
  const ask = useAskForRefund(refunds.requestId);
  const [reason, setReason] = useState<Reason>(refunds.type === 'assignment' ? 'missed_deadline' : 'missed_session');
  const [meetingId, setMeetingId] = useState(refunds.sessions[0]?.id ?? '');
  const [problem, setProblem] = useState<string>();

  const submit = () => {
    if (reason === 'other') return;
    setProblem(undefined);
    ask.mutate(
      { reason, ...(reason === 'missed_session' ? { meetingId: meetingId || undefined } : {}) },
      {
        onSuccess: () => {
          toast.success('Refund asked for', { description: 'The tutor has 3 days to answer; then an admin decides.' });
          onClose();
        },
        onError: (error) =>
          setProblem(
            error instanceof ApiError ? (Object.values(error.fields ?? {})[0] ?? error.message) : errorMessage(error),
          ),
      },
    );
  };

  return (
    <Dialog open onOpenChange={(open) => !open && !ask.isPending && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Ask for a refund</DialogTitle>
          <DialogDescription>
            {refunds.amountCents !== null && `${formatCents(refunds.amountCents)} is held for this job. `}
            {refundMessages.notRefundable}
          </DialogDescription>
        </DialogHeader>
        <form
          noValidate
          className="flex flex-col gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-2 text-sm font-medium">Reason</legend>
            <RadioGroup value={reason} onValueChange={(value) => setReason(value as Reason)} aria-label="Reason">
              {REASONS.map(({ value, label }) => (
                <div key={value} className="flex items-center gap-3">
                  <RadioGroupItem id={`${baseId}-${value}`} value={value} />
                  <Label htmlFor={`${baseId}-${value}`} className="cursor-pointer">
                    {label}
                  </Label>
                </div>
              ))}
            </RadioGroup>
          </fieldset>
          {reason === 'missed_session' &&
            (refunds.sessions.length > 0 ? (
              <FormField label="The session the tutor missed" required>
                <NativeSelect value={meetingId} onChange={(event) => setMeetingId(event.target.value)}>
                  {refunds.sessions.map((session) => (
                    <option key={session.id} value={session.id}>
                      {session.title}, {meetingTimeLabel(session.startTime)}
                      {session.cancelledAt ? ' (cancelled)' : ''}
                    </option>
                  ))}
                </NativeSelect>
              </FormField>
            ) : (
              <Alert variant="warning">No session was scheduled for this job in your chat.</Alert>
            ))}
          {reason === 'other' && (
            <Alert variant="warning" title="Not refundable">
              {refundMessages.notRefundable} To cancel the job together, propose it to the tutor instead.
            </Alert>
          )}
          {problem && (
            <Alert variant="destructive" role="alert">
              {problem}
            </Alert>
          )}
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="outline" disabled={ask.isPending}>
                Cancel
              </Button>
            </DialogClose>
            <Button
              type="submit"
              loading={ask.isPending}
              disabled={reason === 'other' || (reason === 'missed_session' && !meetingId)}
            >
              Ask for a refund
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
