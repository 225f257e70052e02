import type { TestCard } from '#shared/rules/test-cards.ts';

// What the payments feature asks of whoever takes the money: the `test` provider here, Stripe next. Calls go to
// the provider with no database transaction open (docs/decisions/0040), each under an idempotency key, so a
// repeated call after a crash does what the first did; the ledger is written from the outcome the provider
// confirmed.

export type PaymentOutcome =
  | { status: 'succeeded'; paymentId: string; amountCents: number; feeCents: number }
  | { status: 'declined'; paymentId: string; message: string }
  /** What was typed is wrong (the form names the field); nothing was tried. */
  | { status: 'invalid'; paymentId: string; field: 'number' | 'expiry' | 'cvc'; message: string };

/** An event the provider sends on its own (a webhook): verified before it is believed. */
export type ProviderEvent =
  | { id: string; type: 'payment.succeeded'; paymentId: string; amountCents: number; feeCents: number }
  | { id: string; type: 'payment.declined'; paymentId: string }
  | { id: string; type: 'refund.succeeded'; refundId: string; paymentId: string; amountCents: number }
  | { id: string; type: 'payout.paid'; payoutId: string; amountCents: number };

export interface PaymentProvider {
  /** Starts a payment of the amount; the same key answers with the same payment. */
  createPayment(input: { idempotencyKey: string; amountCents: number }): Promise<{ paymentId: string }>;
  /** Pays it with the payer's card, as the payment screen took it. */
  confirmPayment(input: { paymentId: string; amountCents: number; card: TestCard }): Promise<PaymentOutcome>;
  /** Gives some or all of a payment back; the same key refunds once. */
  refund(input: { idempotencyKey: string; paymentId: string; amountCents: number }): Promise<{ refundId: string }>;
  /** Pays a tutor's available earnings out; the same key pays once. */
  payout(input: { idempotencyKey: string; payeeId: string; amountCents: number }): Promise<{ payoutId: string }>;
  /** The event an incoming request carries, or null when its signature does not prove it came from the provider. */
  verifyEvent(input: { body: string; signature: string | undefined }): ProviderEvent | null;
}
