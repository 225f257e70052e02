import { Scale } from 'lucide-react';
import { useId, useState } from 'react';
import { parseCents, formatCents } from '#shared/rules/money.ts';
import { refundMessages, type Dispute, type RefundDecisionInput } from '#shared/schemas/refunds.ts';
import { Alert } from '#web/components/ui/alert.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card } from '#web/components/ui/card.tsx';
import { EmptyState } from '#web/components/ui/empty-state.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { QueryError } from '#web/components/ui/query-error.tsx';
import { RadioGroup, RadioGroupItem } from '#web/components/ui/radio-group.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import { ApiError, errorMessage } from '#web/lib/api.ts';
import { toast } from '#web/lib/toast.ts';
import { useDecideDispute, useDisputeEvidence, useDisputes } from '../disputes-api.ts';
import { adminDateTime } from './admin-format.tsx';
import { Chargebacks } from './chargebacks.tsx';

const reasonLabels: Record<Dispute['reason'], string> = {
  missed_session: 'Missed session',
  missed_deadline: 'Missed deadline',
  tutor_withdrew: 'Tutor withdrew',
  cancelled_by_agreement: 'Cancelled by agreement',
  tutor_suspended: 'Tutor suspended',
};

const OUTCOMES = [
  { value: 'full', label: 'Full refund' },
  { value: 'partial', label: 'Partial refund' },
  { value: 'none', label: 'No refund' },
] as const;

/** The evidence of one dispute: the job's deadline and delivered mark, each session's joins, the pair's chat. */
function Evidence({ dispute }: { dispute: Dispute }) {
  const evidence = useDisputeEvidence(dispute.id);
  if (evidence.isPending) return <Skeleton className="h-24 w-full" />;
  if (evidence.isError) return <Alert variant="destructive">{errorMessage(evidence.error)}</Alert>;
  const { job, sessions, messages } = evidence.data;
  const nameOf = (userId: string) => (userId === dispute.studentId ? dispute.studentName : dispute.tutorName);
  return (
    <div className="flex flex-col gap-3 text-sm">
      {job.type === 'assignment' && (
        <p>
          Deadline: {job.deadline ? adminDateTime(job.deadline) : 'none'}. Marked delivered:{' '}
          {job.deliveredAt ? adminDateTime(job.deliveredAt) : 'never'}.
        </p>
      )}
      <div>
        <h4 className="font-medium">Sessions and joins</h4>
        {sessions.length === 0 ? (
          <p className="text-muted-foreground">No session was scheduled for this job.</p>
        ) : (
          <ul className="list-disc pl-5">
            {sessions.map((session) => (
              <li key={session.id}>
                {session.title}, {adminDateTime(session.startTime)}
                {session.cancelledAt ? ' (cancelled)' : ''}:{' '}
                {session.joins.length === 0
                  ? 'nobody joined'
                  : session.joins
                      .map((join) => `${nameOf(join.userId)} joined ${adminDateTime(join.joinedAt)}`)
                      .join('; ')}
              </li>
            ))}
          </ul>
        )}
      </div>
      <details>
        <summary className="cursor-pointer font-medium">Their chat ({messages.length} latest messages)</summary>
        <ol className="mt-2 flex max-h-64 flex-col gap-1 overflow-y-auto">
          {messages.map((message, index) => (
            <li key={index}>
              <span className="text-muted-foreground">{adminDateTime(message.createdAt)}</span>{' '}
              <strong>{nameOf(message.senderId)}:</strong> {message.content}
            </li>
          ))}
        </ol>
      </details>
    </div>
  );
}

/** The admin's decision: full, partial (typed in dollars) or none, with a note for both people and the audit log. */
function DecisionForm({ dispute }: { dispute: Dispute }) {
  const baseId = useId();
  const decide = useDecideDispute();
  const [outcome, setOutcome] = useState<RefundDecisionInput['outcome']>('full');
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});

  const submit = () => {
    const refundCents = outcome === 'partial' ? parseCents(amount) : null;
    const found: Record<string, string> = {};
    if (outcome === 'partial' && (refundCents === null || refundCents <= 0 || refundCents >= dispute.heldCents))
      found.refundCents = refundMessages.partialRange;
    if (!note.trim()) found.note = refundMessages.noteRequired;
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    decide.mutate(
      { id: dispute.id, outcome, note: note.trim(), ...(refundCents !== null ? { refundCents } : {}) },
      {
        onSuccess: () => toast.success('Decision saved', { description: 'Both people were told.' }),
        onError: (error) => {
          if (error instanceof ApiError && error.fields) setErrors(error.fields);
          toast.error(errorMessage(error));
        },
      },
    );
  };

  return (
    <form
      noValidate
      className="flex flex-col gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <fieldset>
        <legend className="mb-2 text-sm font-medium">Decision</legend>
        <RadioGroup
          value={outcome}
          onValueChange={(value) => setOutcome(value as RefundDecisionInput['outcome'])}
          aria-label="Decision"
          className="flex flex-wrap gap-4"
        >
          {OUTCOMES.map(({ value, label }) => (
            <div key={value} className="flex items-center gap-2">
              <RadioGroupItem id={`${baseId}-${value}`} value={value} />
              <Label htmlFor={`${baseId}-${value}`}>{label}</Label>
            </div>
          ))}
        </RadioGroup>
      </fieldset>
      {outcome === 'partial' && (
        <FormField
          label="Refund to the student ($)"
          error={errors.refundCents}
          description={`Less than ${formatCents(dispute.heldCents)}; the rest goes to the tutor.`}
          required
        >
          <Input inputMode="decimal" value={amount} onChange={(event) => setAmount(event.target.value)} />
        </FormField>
      )}
      <FormField label="Note to both" error={errors.note} required>
        <Textarea rows={2} maxLength={2000} value={note} onChange={(event) => setNote(event.target.value)} />
      </FormField>
      <div>
        <Button type="submit" loading={decide.isPending}>
          Decide
        </Button>
      </div>
    </form>
  );
}

/**
 * The disputes tab: chargebacks opened at Stripe, and refund requests contested by the tutor or left unanswered,
 * oldest first, evidence one click away.
 */
export function DisputesQueue() {
  const disputes = useDisputes();
  if (disputes.isPending) return <Skeleton className="h-32 w-full" />;
  if (disputes.isError) return <QueryError title="The disputes could not be loaded" query={disputes} />;
  const { chargebacks } = disputes.data;
  if (disputes.data.disputes.length === 0 && chargebacks.length === 0)
    return (
      <EmptyState
        icon={<Scale aria-hidden="true" />}
        title="No disputes"
        description="Refund requests a tutor contests or leaves unanswered for 3 days appear here."
      />
    );
  return (
    <div className="flex flex-col gap-6">
      {chargebacks.length > 0 && <Chargebacks chargebacks={chargebacks} />}
      {disputes.data.disputes.length > 0 && <RefundDisputes disputes={disputes.data.disputes} />}
    </div>
  );
}

/** Refund requests waiting for an admin's decision. */
function RefundDisputes({ disputes }: { disputes: Dispute[] }) {
  const [openId, setOpenId] = useState<string | null>(null);
  return (
    <ul className="flex flex-col gap-4" aria-label="Disputes">
      {disputes.map((dispute) => (
        <li key={dispute.id}>
          <Card className="flex flex-col gap-3 p-4">
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <h3 className="font-semibold">
                {reasonLabels[dispute.reason]}: {formatCents(dispute.heldCents)}, {dispute.subjectName}
              </h3>
              <span className="text-sm text-muted-foreground">Asked {adminDateTime(dispute.createdAt)}</span>
            </div>
            <p className="text-sm">
              Student {dispute.studentName}, tutor {dispute.tutorName}.{' '}
              {dispute.reason === 'tutor_suspended'
                ? 'The tutor’s account was suspended while the money was held.'
                : dispute.tutorAnswer === 'contested'
                  ? `The tutor contested it${dispute.tutorNote ? `: “${dispute.tutorNote}”` : '.'}`
                  : 'The tutor did not answer within 3 days.'}
            </p>
            {openId === dispute.id ? (
              <>
                <Evidence dispute={dispute} />
                <DecisionForm dispute={dispute} />
              </>
            ) : (
              <div>
                <Button size="sm" variant="outline" onClick={() => setOpenId(dispute.id)}>
                  Show evidence and decide
                </Button>
              </div>
            )}
          </Card>
        </li>
      ))}
    </ul>
  );
}
