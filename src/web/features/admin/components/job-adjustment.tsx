import { CircleAlert, CircleCheck, Undo2 } from 'lucide-react';
import { useState, type SubmitEvent } from 'react';
import { adjustmentInputSchema, type Adjustment, type AdjustmentInput } from '#shared/schemas/admin-payments.ts';
import { formatLedgerCents, parseCents } from '#shared/rules/money.ts';
import { Alert } from '#web/components/ui/alert.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card } from '#web/components/ui/card.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import { errorMessage } from '#web/lib/api.ts';
import { useAdjustJob } from '../payments-api.ts';

// An adjustment after release (docs/decisions/0066): the admin names how much of a released job goes back to its
// student and why; the server splits it between the tutor and the commission as the release did, refunds the
// student and, under Stripe, reverses the tutor's transfer.

/** What happened to the tutor's part, in the words an admin reports to the people involved. */
function outcomeText(adjustment: Adjustment) {
  const tutorPart = formatLedgerCents(adjustment.tutorCents);
  if (adjustment.status === 'failed') {
    return `The payment provider refused the refund, so nothing moved${adjustment.lastError ? `: ${adjustment.lastError}` : '.'}`;
  }
  switch (adjustment.tutorOutcome) {
    case 'reversed':
      return `The tutor's part, ${tutorPart}, was taken back from their Stripe account.`;
    case 'from_earnings':
      return `The tutor's part, ${tutorPart}, was taken from their earnings.`;
    case 'owed_by_tutor':
      return `The tutor's part, ${tutorPart}, had already been paid out: it is recorded as owed by the tutor, and their next earnings pay it back first.`;
    case null:
      return 'The payment provider is still at it: the ledger shows the rest once it has answered.';
  }
}

export function JobAdjustment({ requestId }: { requestId: string }) {
  const adjust = useAdjustJob(requestId);
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<{ amount?: string; note?: string }>({});

  function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    // The server's own rules; what was typed that is no amount in cents ("10.005") is refused as one.
    const parsed = adjustmentInputSchema.safeParse({ amountCents: parseCents(amount) ?? Number.NaN, note });
    const messageOf = (field: keyof AdjustmentInput) =>
      parsed.error?.issues.find((issue) => issue.path[0] === field)?.message;
    setErrors({ amount: messageOf('amountCents'), note: messageOf('note') });
    if (parsed.success) adjust.mutate(parsed.data);
  }

  const made = adjust.data;
  return (
    <section aria-labelledby="ledger-adjustment" className="flex flex-col gap-3">
      <h3 id="ledger-adjustment" className="text-lg font-semibold">
        Give money back
      </h3>
      <Card className="gap-4 px-4 py-4">
        <p className="text-sm text-muted-foreground">
          For a job whose money was released: the student is refunded, the tutor's part comes back from the tutor and
          the rest from the platform's commission, as the release split it. Once per job.
        </p>
        {made ? (
          <Alert
            variant="success"
            role="status"
            icon={<CircleCheck aria-hidden="true" />}
            title={`${formatLedgerCents(made.amountCents)} given back to the student`}
          >
            <p>{outcomeText(made)}</p>
          </Alert>
        ) : (
          <form noValidate aria-label="Give money back" onSubmit={submit} className="flex flex-col gap-4">
            {adjust.isError && (
              <Alert
                variant="destructive"
                role="alert"
                icon={<CircleAlert aria-hidden="true" />}
                title="Not given back"
              >
                <p>{errorMessage(adjust.error)}</p>
              </Alert>
            )}
            <FormField label="Amount ($)" error={errors.amount} className="sm:w-48">
              <Input value={amount} onChange={(event) => setAmount(event.target.value)} inputMode="decimal" />
            </FormField>
            <FormField label="Why" error={errors.note}>
              <Textarea value={note} onChange={(event) => setNote(event.target.value)} rows={3} maxLength={500} />
            </FormField>
            <Button type="submit" variant="destructive" className="self-start" loading={adjust.isPending}>
              <Undo2 aria-hidden="true" />
              Give back
            </Button>
          </form>
        )}
      </Card>
    </section>
  );
}
