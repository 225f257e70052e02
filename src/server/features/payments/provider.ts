import { gte, inArray } from 'drizzle-orm';
import type { CheckoutProvider } from '#shared/constants.ts';
import { readExpiry, type CardInput } from '#shared/schemas/checkouts.ts';
import { testCardOutcome, testProviderFeeCents } from '#shared/rules/test-cards.ts';
import type { Executor } from '../../db/client.ts';
import { checkouts, testProviderPayments } from '../../db/schema/payments.ts';
import type { StripeGateway } from '../../platform/payments/stripe.ts';

// The payment provider behind a checkout. `test` charges the well-known test cards with no money moving; `manual`
// takes bank transfers, which an admin records, so it charges no card; `stripe` charges in the student's browser
// (docs/decisions/0051), so it charges no card here either: the server reads the outcome from Stripe.

/** The form field a card problem belongs to. */
export type CardField = 'number' | 'expiry' | 'cvc';

export type ChargeOutcome =
  | {
      outcome: 'succeeded';
      providerPaymentId: string;
      feeCents: number;
      /** The card's last four digits, for the receipt, when the provider tells them. */
      cardLast4?: string;
    }
  /** A card the provider refused: the student may try another, nothing was charged. */
  | { outcome: 'declined'; field: CardField; message: string }
  /** What was typed is not a card the provider could try (a mistyped number, a past expiry). */
  | { outcome: 'invalid'; field: CardField; message: string };

/** A refund the provider confirmed. */
export type RefundOutcome = { providerRefundId: string };

/** A payment the provider holds: money it took under a checkout's key (`payment:<checkoutId>`). */
export type ProviderPayment = {
  providerPaymentId: string;
  idempotencyKey: string;
  amountCents: number;
  feeCents: number;
  createdAt: Date;
};

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
  /**
   * The payments it holds, taken since a time, for the reconciliation with the ledger (docs/decisions/0043); null
   * for a provider that takes no money itself.
   */
  listPayments: ((options: { since: Date }) => Promise<ProviderPayment[]>) | null;
};

/** A refund id named by its key: both built-in providers confirm a refund at once. */
const refundAtOnce =
  (name: CheckoutProvider): PaymentProvider['refund'] =>
  ({ idempotencyKey }) =>
    Promise.resolve({ providerRefundId: `${name}_${idempotencyKey}` });

const DECLINE_FIELDS = { expired: 'expiry', incorrectCvc: 'cvc' } as const;

/**
 * The `test` provider: the test cards, no money moving. Its books (`test_provider_payments`) are its own record of
 * what it charged, written as it confirms a charge, in a statement of its own: they outlive whatever the app does
 * next, as a real provider's records do. A repeated charge under the same key is the same payment.
 */
const testProvider = (db: Executor): PaymentProvider => ({
  name: 'test',
  async chargeCard({ amountCents, card, idempotencyKey }) {
    const result = testCardOutcome({ number: card.number, cvc: card.cvc, ...readExpiry(card.expiry) }, new Date());
    if (result.outcome === 'succeeded') {
      const payment = {
        providerPaymentId: `test_${idempotencyKey}`,
        idempotencyKey,
        amountCents,
        feeCents: testProviderFeeCents(amountCents),
      };
      await db.insert(testProviderPayments).values(payment).onConflictDoNothing();
      return {
        outcome: 'succeeded',
        providerPaymentId: payment.providerPaymentId,
        feeCents: payment.feeCents,
        cardLast4: card.number.replace(/\D/g, '').slice(-4),
      };
    }
    if (result.outcome === 'invalid') return result;
    const field =
      result.reason in DECLINE_FIELDS ? DECLINE_FIELDS[result.reason as keyof typeof DECLINE_FIELDS] : 'number';
    return { outcome: 'declined', field, message: result.message };
  },
  refund: refundAtOnce('test'),
  listPayments: ({ since }) => db.select().from(testProviderPayments).where(gte(testProviderPayments.createdAt, since)),
});

const manualProvider: PaymentProvider = {
  name: 'manual',
  chargeCard: null,
  refund: refundAtOnce('manual'),
  listPayments: null,
};

const stripeProvider = (stripe: StripeGateway, db: Executor): PaymentProvider => ({
  name: 'stripe',
  chargeCard: null,
  async refund({ providerPaymentId, amountCents, idempotencyKey }) {
    if (!providerPaymentId) throw new Error('A Stripe refund needs the PaymentIntent it gives back');
    const { refundId } = await stripe.refund({ idempotencyKey, paymentIntentId: providerPaymentId, amountCents });
    return { providerRefundId: refundId };
  },
  /**
   * The succeeded PaymentIntents our checkouts made, named by their checkout's key (Stripe does not tell a
   * PaymentIntent's idempotency key). A PaymentIntent no checkout made (another application on the same account) is
   * not ours to reconcile; a checkout keeps its PaymentIntent before the browser can confirm it.
   */
  async listPayments({ since }) {
    const charges = await stripe.succeededCharges({ since });
    if (charges.length === 0) return [];
    const made = await db
      .select({ checkoutId: checkouts.id, paymentIntentId: checkouts.stripePaymentIntentId })
      .from(checkouts)
      .where(
        inArray(
          checkouts.stripePaymentIntentId,
          charges.map((charge) => charge.paymentIntentId),
        ),
      );
    const checkoutOf = new Map(made.map((row) => [row.paymentIntentId, row.checkoutId]));
    return charges.flatMap((charge) => {
      const checkoutId = checkoutOf.get(charge.paymentIntentId);
      if (!checkoutId) return [];
      return [
        {
          providerPaymentId: charge.paymentIntentId,
          idempotencyKey: `payment:${checkoutId}`,
          amountCents: charge.amountCents,
          feeCents: charge.feeCents,
          createdAt: charge.createdAt,
        },
      ];
    });
  },
});

/**
 * The provider a checkout was made with (the test provider keeps its books in `db`). A Stripe checkout on a server
 * no longer configured for Stripe cannot be refunded here: its call fails and is tried again once it is.
 */
export function paymentProvider(name: CheckoutProvider, db: Executor, stripe: StripeGateway | null = null) {
  if (name === 'test') return testProvider(db);
  if (name === 'manual') return manualProvider;
  if (!stripe) throw new Error('PAYMENTS_PROVIDER is not stripe: a Stripe checkout cannot be handled');
  return stripeProvider(stripe, db);
}
