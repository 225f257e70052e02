import { useState } from 'react';
import { toast } from '#web/lib/toast.ts';
import { bidRangeMessage, isBidInRange } from '#shared/rules/budget.ts';
import { parseCents } from '#shared/rules/money.ts';
import { placeBidSchema, type Job } from '#shared/schemas/requests.ts';
import { Button } from '#web/components/ui/button.tsx';
import { DialogClose, DialogFooter } from '#web/components/ui/dialog.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import { ApiError, errorMessage } from '#web/lib/api.ts';
import type { usePlaceBid } from '../api.ts';

/** The fields of "Submit Your Bid" and their checks; closes the dialog on success or when the job was bid on already. */
export function BidForm({
  job,
  placeBid,
  onClose,
  onBidRecorded,
}: {
  job: Job;
  placeBid: ReturnType<typeof usePlaceBid>;
  onClose: () => void;
  onBidRecorded: () => void;
}) {
  const [amount, setAmount] = useState('');
  const [message, setMessage] = useState('');
  const [amountError, setAmountError] = useState<string | undefined>();
  // What was typed, read as cents without floating point: "10.005" is no amount and keeps Place Bid disabled.
  const parsed = placeBidSchema.safeParse({ amountCents: parseCents(amount) ?? Number.NaN, message });

  const submit = () => {
    if (!parsed.success) return;
    const budget = { minCents: job.budgetMinCents, maxCents: job.budgetMaxCents };
    if (!isBidInRange(parsed.data.amountCents, budget)) {
      const text = bidRangeMessage(budget);
      setAmountError(text);
      toast.error('Invalid Bid Amount', { description: text });
      return;
    }
    placeBid.mutate(
      { requestId: job.id, input: parsed.data },
      {
        onSuccess: () => {
          toast.success('Bid submitted successfully', { description: 'The student will be notified of your offer.' });
          onBidRecorded();
          onClose();
        },
        onError: (error) => {
          if (error instanceof ApiError && error.code === 'ALREADY_BID') {
            toast.error('Failed to place bid', { description: error.message });
            onBidRecorded();
            onClose();
            return;
          }
          if (error instanceof ApiError && error.fields?.amountCents) setAmountError(error.fields.amountCents);
          toast.error('Failed to place bid', { description: errorMessage(error) });
        },
      },
    );
  };

  return (
    <form
      noValidate
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <FormField
        label="Bid Amount (USD)"
        error={
          amountError ?? (amount.trim() !== '' && !parsed.success ? 'Please enter a valid bid amount.' : undefined)
        }
      >
        <Input
          // Text, not a number field: the parser reads exactly what was typed ("1e3" is refused, not 1000).
          type="text"
          inputMode="decimal"
          autoComplete="off"
          autoFocus
          value={amount}
          onChange={(event) => {
            setAmount(event.target.value);
            setAmountError(undefined);
          }}
        />
      </FormField>
      <FormField label="Message to Student (optional)">
        <Textarea rows={3} maxLength={2000} value={message} onChange={(event) => setMessage(event.target.value)} />
      </FormField>
      <DialogFooter>
        <DialogClose asChild>
          <Button type="button" variant="outline" disabled={placeBid.isPending}>
            Cancel
          </Button>
        </DialogClose>
        <Button type="submit" disabled={!parsed.success} loading={placeBid.isPending}>
          Place Bid
        </Button>
      </DialogFooter>
    </form>
  );
}
