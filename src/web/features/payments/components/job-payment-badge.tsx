import { useJobRefunds } from '../refunds-api.ts';
import { PaymentStateBadge } from './payment-state-badge.tsx';

/**
 * The state of a job's payment, for both of its people (the same answer as its refunds, read once). Nothing while it
 * loads or for a job not paid here: JobRefunds beside it says when the payment cannot be loaded.
 */
export function JobPaymentBadge({ requestId }: { requestId: string }) {
  const refunds = useJobRefunds(requestId);
  if (!refunds.data) return null;
  return <PaymentStateBadge state={refunds.data.paymentState} />;
}
