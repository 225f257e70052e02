import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCheckout } from '../../../../tests/support/checkout.ts';
import { startStripeFake, type StripeFake } from '../../../../tests/support/stripe-fake.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { checkouts, ledgerTransactions, type Checkout } from '../../db/schema/payments.ts';
import { tutoringRequests } from '../../db/schema/requests.ts';
import { createStripeGateway, type StripeGateway } from '../../platform/payments/stripe.ts';
import { ledgerAccountBalance } from './service.ts';
import { acceptPaidOfferFor } from './paid-offer.ts';
import { paymentProvider } from './provider.ts';
import { recordStripePayment, stripePaymentIntentFor } from './stripe-checkouts.ts';

describe('a checkout paid with Stripe', () => {
  let t: TestApp;
  let fake: StripeFake;
  let stripe: StripeGateway;
  beforeAll(async () => {
    [t, fake] = await Promise.all([createTestApp(), startStripeFake()]);
    stripe = createStripeGateway({
      secretKey: 'sk_test_checkouts',
      publishableKey: 'pk_test_checkouts',
      webhookSecret: fake.webhookSecret,
      apiBase: new URL(fake.url),
    });
  });
  afterAll(async () => {
    await Promise.all([t.close(), fake.close()]);
  });

  const stripeCheckout = () => createCheckout(t.db, { provider: 'stripe' });
  const reread = async (row: Checkout) => (await t.db.select().from(checkouts).where(eq(checkouts.id, row.id)))[0]!;
  const record = (row: Checkout) =>
    recordStripePayment({
      db: t.db,
      stripe,
      checkoutId: row.id,
      acceptPaidOffer: acceptPaidOfferFor({ realtime: t.realtime, publicUrl: 'http://x', operator: t.config.operator }),
    });
  const postings = (row: Checkout) =>
    t.db
      .select()
      .from(ledgerTransactions)
      .where(eq(ledgerTransactions.idempotencyKey, `payment:${row.id}`));

  it("charges the checkout's own amount under its key, grouped by the job, and keeps the PaymentIntent", async () => {
    const row = await stripeCheckout();
    const first = await stripePaymentIntentFor({ db: t.db, stripe, checkout: row });
    const again = await stripePaymentIntentFor({ db: t.db, stripe, checkout: await reread(row) });

    expect(again).toEqual(first);
    expect(await reread(row)).toMatchObject({
      stripePaymentIntentId: first.paymentIntentId,
      status: 'awaiting_payment',
    });
    expect(fake.requestsTo('POST', '/v1/payment_intents').at(-1)).toMatchObject({
      idempotencyKey: `payment:${row.id}`,
      form: { amount: '2000', currency: 'usd', capture_method: 'automatic', transfer_group: row.requestId },
    });
  });

  it('records nothing while the student has not confirmed, and leaves the checkout open', async () => {
    const row = await stripeCheckout();
    await stripePaymentIntentFor({ db: t.db, stripe, checkout: row });

    expect(await record(row)).toMatchObject({ status: 'pending' });
    expect(await reread(row)).toMatchObject({ status: 'awaiting_payment', claimToken: null, providerPaymentId: null });
    expect(await postings(row)).toHaveLength(0);
  });

  it('records a confirmed payment once, with Stripe’s fee, however many ask at once, and accepts the offer', async () => {
    const row = await stripeCheckout();
    const { paymentIntentId } = await stripePaymentIntentFor({ db: t.db, stripe, checkout: row });
    fake.succeed(paymentIntentId);
    const fees = () => ledgerAccountBalance({ db: t.db, account: { kind: 'provider_fees' } });
    const feesBefore = await fees();

    const answers = await Promise.all([record(row), record(row), record(row)]);
    expect(answers.filter((answer) => answer?.status === 'succeeded')).toHaveLength(1);
    expect(await record(row)).toBeNull();

    expect(await reread(row)).toMatchObject({
      status: 'paid',
      providerPaymentId: paymentIntentId,
      cardLast4: '4242',
      claimToken: null,
    });
    expect(await postings(row)).toHaveLength(1);
    const held = { kind: 'held_funds' as const, requestId: row.requestId };
    expect(await ledgerAccountBalance({ db: t.db, account: held })).toBe(2_000);
    // 2.9 % + 30¢ of $20.00, out of the platform's commission.
    expect((await fees()) - feesBefore).toBe(88);
    const [request] = await t.db.select().from(tutoringRequests).where(eq(tutoringRequests.id, row.requestId));
    expect(request).toMatchObject({ status: 'accepted', acceptedBidId: row.bidId });
  });

  it('leaves the checkout open and claimable when Stripe cannot be reached', async () => {
    const row = await stripeCheckout();
    const { paymentIntentId } = await stripePaymentIntentFor({ db: t.db, stripe, checkout: row });
    fake.succeed(paymentIntentId);
    fake.failNext(`/v1/payment_intents/${paymentIntentId}`, { status: 500, times: 3 });

    await expect(record(row)).rejects.toThrow();
    expect(await reread(row)).toMatchObject({ status: 'awaiting_payment', claimToken: null });
    expect(await postings(row)).toHaveLength(0);

    expect(await record(row)).toMatchObject({ status: 'succeeded' });
    expect(await reread(row)).toMatchObject({ status: 'paid' });
  });

  it('gives a held payment back by refunding its PaymentIntent, once per key', async () => {
    const row = await stripeCheckout();
    const { paymentIntentId } = await stripePaymentIntentFor({ db: t.db, stripe, checkout: row });
    fake.succeed(paymentIntentId);
    await record(row);
    const provider = paymentProvider('stripe', t.db, stripe);
    const refund = { providerPaymentId: paymentIntentId, amountCents: 1_500, idempotencyKey: 'refund:r_held' };

    const first = await provider.refund(refund);
    expect(await provider.refund(refund)).toEqual(first);
    expect(fake.object(paymentIntentId)).toMatchObject({ amount_refunded: 1_500 });
    expect(fake.requestsTo('POST', '/v1/refunds').at(-1)).toMatchObject({
      idempotencyKey: 'refund:r_held',
      form: { payment_intent: paymentIntentId, amount: '1500' },
    });
    expect(() => paymentProvider('stripe', t.db, null)).toThrow(/PAYMENTS_PROVIDER is not stripe/);
  });
});
