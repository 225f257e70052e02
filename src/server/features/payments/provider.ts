import type { CheckoutProvider } from '#shared/constants.ts';
import { readExpiry, type CardInput } from '#shared/schemas/checkouts.ts';
import { testCardOutcome, testProviderFeeCents } from '#shared/rules/test-cards.ts';

// The payment provider behind a checkout. `test` charges the well-known test cards with no money moving; `manual`
// takes bank transfers, which an admin records, so it charges no card. Stripe implements the same interface later.

/** The form field a card problem belongs to. */
export type CardField = 'number' | 'expiry' | 'cvc';

export type ChargeOutcome =
  | { outcome: 'succeeded'; providerPaymentId: string; feeCents: number }
  /** A card the provider refused: the student may try another, nothing was charged. */
  | { outcome: 'declined'; field: CardField; message: string }
  /** What was typed is not a card the provider could try (a mistyped number, a past expiry). */
  | { outcome: 'invalid'; field: CardField; message: string };

/** A refund the provider confirmed. */
export type RefundOutcome = { providerRefundId: string };

export type PaymentProvider = {
  name: CheckoutProvider;
  /**
   * Charges the card once per idempotency key (a retried call answers the first outcome), or null for a provider
   * that takes no cards.
   */
  chargeCard:
    ((options: { amountCents: number; card: CardInput; idempotencyKey: string }) => Promise<ChargeOutcome>) | null;
  /**
   * Gives back part or all of a confirmed payment once per idempotency key (a retried call answers the first
   * outcome). `test` moves no money; under `manual` the operator transfers it back by bank, as they record payouts.
   */
  refund(options: {
    providerPaymentId: string | null;
    amountCents: number;
    idempotencyKey: string;
  }): Promise<RefundOutcome>;
};

/** A refund id named by its key: both built-in providers confirm a refund at once. */
const refundAtOnce =
  (name: CheckoutProvider): PaymentProvider['refund'] =>
  ({ idempotencyKey }) =>
    Promise.resolve({ providerRefundId: `${name}_${idempotencyKey}` });

const DECLINE_FIELDS = { expired: 'expiry', incorrectCvc: 'cvc' } as const;

const testProvider: PaymentProvider = {
  name: 'test',
  chargeCard: ({ amountCents, card, idempotencyKey }) => {
    const result = testCardOutcome({ number: card.number, cvc: card.cvc, ...readExpiry(card.expiry) }, new Date());
    if (result.outcome === 'succeeded') {
      return Promise.resolve({
        outcome: 'succeeded',
        providerPaymentId: `test_${idempotencyKey}`,
        feeCents: testProviderFeeCents(amountCents),
      });
    }
    if (result.outcome === 'invalid') return Promise.resolve(result);
    const field =
      result.reason in DECLINE_FIELDS ? DECLINE_FIELDS[result.reason as keyof typeof DECLINE_FIELDS] : 'number';
    return Promise.resolve({ outcome: 'declined', field, message: result.message });
  },
  refund: refundAtOnce('test'),
};

const manualProvider: PaymentProvider = { name: 'manual', chargeCard: null, refund: refundAtOnce('manual') };

/** The provider a checkout was made with. */
export const paymentProvider = (name: CheckoutProvider) => (name === 'test' ? testProvider : manualProvider);
