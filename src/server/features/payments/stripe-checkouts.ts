import { and, eq, isNull } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { checkouts, type Checkout } from '../../db/schema/payments.ts';
import { AppError } from '../../http/errors.ts';
import type { StripeChargeState, StripeGateway } from '../../platform/payments/stripe.ts';
import { claimCheckout, endCheckoutClaim, recordCheckoutPayment, type AcceptPaidOffer } from './checkouts.ts';

// A checkout under PAYMENTS_PROVIDER=stripe (docs/decisions/0051): the server makes the PaymentIntent for the
// checkout's own amount, the student's browser confirms it with Stripe (3-D Secure there), and the server learns the
// outcome from Stripe itself, by the student's "I have paid" or by the webhook, whichever comes first. Both record
// through the checkout's claim, so the payment (`payment:<checkoutId>`) is posted once.

/**
 * The checkout's PaymentIntent and the client secret the browser confirms it with: made on first need, under the key
 * `payment:<checkoutId>`, so a repeat (a lost answer, a second tab) answers the same PaymentIntent.
 */
export async function stripePaymentIntentFor({
  db,
  stripe,
  checkout,
}: {
  db: Executor;
  stripe: StripeGateway;
  checkout: Checkout;
}) {
  const { paymentIntentId, clientSecret } = await stripe.startCharge({
    idempotencyKey: `payment:${checkout.id}`,
    amountCents: checkout.amountCents,
    transferGroup: checkout.requestId,
  });
  if (checkout.stripePaymentIntentId !== paymentIntentId) {
    await db
      .update(checkouts)
      .set({ stripePaymentIntentId: paymentIntentId })
      .where(and(eq(checkouts.id, checkout.id), isNull(checkouts.stripePaymentIntentId)));
  }
  return { paymentIntentId, clientSecret };
}

/**
 * Records the checkout's payment if Stripe says its PaymentIntent succeeded for the checkout's amount. Answers the
 * charge as Stripe told it (pending: not paid yet, the checkout stays open), or null when there was nothing to ask:
 * paid already, being recorded by another call, or not awaiting.
 */
export async function recordStripePayment({
  db,
  stripe,
  checkoutId,
  acceptPaidOffer,
}: {
  db: Database;
  stripe: StripeGateway;
  checkoutId: string;
  acceptPaidOffer: AcceptPaidOffer;
}): Promise<StripeChargeState | null> {
  const claimed = await claimCheckout(db, checkoutId);
  if (!claimed) return null;
  const { checkout, token } = claimed;
  if (!checkout.stripePaymentIntentId) {
    await endCheckoutClaim({ db, checkoutId, token });
    return null;
  }
  const charge = await stripe.chargeState(checkout.stripePaymentIntentId).catch(async (error: unknown) => {
    await endCheckoutClaim({ db, checkoutId, token });
    throw error;
  });
  // The amount is the checkout's: a PaymentIntent for anything else (never made here) is not this payment.
  const paid = charge.status === 'succeeded' && charge.amountCents === checkout.amountCents;
  const published = await db.transaction(async (tx) => {
    if (!paid) {
      await endCheckoutClaim({ db: tx, checkoutId, token });
      return null;
    }
    const recorded = await recordCheckoutPayment({
      db: tx,
      checkoutId,
      token,
      providerPaymentId: charge.paymentIntentId,
      cardLast4: charge.cardLast4,
      feeCents: charge.feeCents,
      // An assignment's deadline was kept with the checkout as its payment started (stripe-routes.ts).
      deadline: checkout.deadline,
      acceptPaidOffer,
    });
    if (!recorded) throw new AppError('PAYMENT_IN_PROGRESS');
    return recorded;
  });
  published?.publish();
  return charge;
}
