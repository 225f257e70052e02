import type { JobPaymentState } from '#shared/constants.ts';
import { Badge, type BadgeProps } from '#web/components/ui/badge.tsx';

// A job's money in words both of its people read the same way (the tutor's Earnings page speaks of their share).
const STATES: Record<Exclude<JobPaymentState, 'not_charged'>, { label: string; variant: BadgeProps['variant'] }> = {
  awaiting_payment: { label: 'Awaiting payment', variant: 'warning' },
  held: { label: 'Payment held', variant: 'info' },
  frozen: { label: 'Payment on hold: refund asked for', variant: 'warning' },
  released: { label: 'Paid to the tutor', variant: 'success' },
  refunded: { label: 'Refunded', variant: 'neutral' },
  partially_refunded: { label: 'Partly refunded', variant: 'neutral' },
};

/** The state of a job's payment; nothing for a job not paid here (before payments, or a site free of charge). */
export function PaymentStateBadge({ state, className }: { state: JobPaymentState; className?: string }) {
  if (state === 'not_charged') return null;
  const { label, variant } = STATES[state];
  return (
    <Badge variant={variant} className={className}>
      {label}
    </Badge>
  );
}
