import type { CheckoutProvider } from '#shared/constants.ts';

// The provider's side of a refund: the money of a confirmed payment, or part of it, goes back to the student. `test`
// moves no money; under `manual` the operator transfers it back by bank, as they record payouts.

export type RefundOutcome = { providerRefundId: string };

/** Refunds part or all of a payment once per idempotency key (a retried call answers the first outcome). */
export function refundPayment({
  provider,
  idempotencyKey,
}: {
  provider: CheckoutProvider;
  providerPaymentId: string | null;
  amountCents: number;
  idempotencyKey: string;
}): Promise<RefundOutcome> {
  return Promise.resolve({ providerRefundId: `${provider}_${idempotencyKey}` });
}
