import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '#shared/paths.ts';
import { formatCents } from '#shared/rules/money.ts';
import type { CheckoutView } from '#shared/schemas/checkouts.ts';
import { Button } from '#web/components/ui/button.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { errorMessage } from '#web/lib/api.ts';
import { toast } from '#web/lib/toast.ts';
import { useCancelCheckout } from '../api.ts';

// What every way of paying a checkout by card shares: the assignment's deadline, cancelling, and where a paid
// checkout leads.

/** An assignment posted without a deadline gets one before it is paid: the refund rule depends on it. */
export const needsDeadline = (checkout: CheckoutView) =>
  checkout.request.type === 'assignment' && !checkout.request.deadline;

/** The `datetime-local` value as an ISO instant, or undefined while it is empty or not a date. */
export function deadlineInstant(value: string) {
  const date = new Date(value);
  return value && !Number.isNaN(date.getTime()) ? date.toISOString() : undefined;
}

export function DeadlineField({
  value,
  error,
  onChange,
}: {
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}) {
  return (
    <FormField
      label="Assignment deadline"
      required
      error={error}
      description="When the tutor must deliver the assignment. Refunds for an assignment not delivered depend on it."
    >
      <Input type="datetime-local" name="deadline" value={value} onChange={(event) => onChange(event.target.value)} />
    </FormField>
  );
}

export function CancelCheckoutButton({ checkoutId, disabled }: { checkoutId: string; disabled: boolean }) {
  const cancel = useCancelCheckout();
  return (
    <Button
      type="button"
      variant="outline"
      disabled={cancel.isPending || disabled}
      onClick={() =>
        cancel.mutate(
          { checkoutId, input: null },
          { onError: (error) => toast.error('Error cancelling', { description: errorMessage(error) }) },
        )
      }
    >
      Cancel checkout
    </Button>
  );
}

/** A paid checkout: the offer is accepted, and the student goes on to the chat with their tutor. */
export function useGoToPaidJob() {
  const navigate = useNavigate();
  return useCallback(
    (paid: CheckoutView) => {
      toast.success('Bid Accepted!', {
        description: `Your payment of ${formatCents(paid.amountCents)} is held until the job is done. ${paid.tutor.username} has been told, and your chat is open.`,
      });
      void navigate(paths.chat.getHref(paid.tutor.id));
    },
    [navigate],
  );
}
