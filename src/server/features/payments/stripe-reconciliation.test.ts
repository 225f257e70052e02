import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInStudent, signedInTeacher } from '../../../../tests/support/callers.ts';
import { startCheckout } from '../../../../tests/support/checkout.ts';
import { createBid, createRequest, createSubject } from '../../../../tests/support/factories.ts';
import { startStripeFake, type StripeFake } from '../../../../tests/support/stripe-fake.ts';
import { stripePaymentIntentOf } from '../../../../tests/support/stripe-job.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { checkouts, ledgerTransactions } from '../../db/schema/payments.ts';
import { createStripeGateway } from '../../platform/payments/stripe.ts';
import { acceptPaidOfferFor } from './paid-offer.ts';
import { completeThroughRecord, paymentListerFor, reconcilePaymentsOnce } from './reconciliation.ts';

describe('reconciling the ledger with Stripe’s PaymentIntents (against a stand-in for Stripe)', () => {
  let t: TestApp;
  let fake: StripeFake;
  let subjectId: string;
  beforeAll(async () => {
    fake = await startStripeFake({ webhookSecret: 'whsec_reconcile' });
    t = await createTestApp({
      PAYMENTS_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_reconcile',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_reconcile',
      STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
      STRIPE_API_BASE: fake.url,
    });
    subjectId = (await createSubject(t.db, { name: 'Geology' })).id;
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('records once a payment Stripe took whose record was lost, finding it on a later page of the list', async () => {
    const student = await signedInStudent(t);
    const tutor = await signedInTeacher(t, [subjectId]);
    const request = await createRequest(t.db, { studentId: student.user.id, subjectId });
    const bid = await createBid(t.db, { requestId: request.id, tutorId: tutor.user.id, amountCents: 4_500 });
    const { checkoutId } = await startCheckout(t, student, request.id, bid.id);
    // The card was charged, and neither "I have paid" nor the webhook reached the server.
    fake.succeed(await stripePaymentIntentOf(t, student, checkoutId!));

    // Newer PaymentIntents of another application on the same account push it to the list's second page.
    const stripe = createStripeGateway(t.config.payments.stripe!);
    for (let n = 0; n < 105; n++) {
      const { paymentIntentId } = await stripe.startCharge({
        idempotencyKey: `elsewhere:${n}`,
        amountCents: 1_000 + n,
        transferGroup: 'elsewhere',
      });
      if (n % 2 === 0) fake.succeed(paymentIntentId);
    }

    const lister = paymentListerFor('stripe', t.db, stripe)!;
    const completePayment = completeThroughRecord(
      t.db,
      acceptPaidOfferFor({ realtime: t.app.realtime, publicUrl: t.config.publicUrl, operator: t.config.operator }),
    );
    const reconcile = () => reconcilePaymentsOnce({ db: t.db, lister, completePayment, log: t.app.log });
    const listed = fake.requestsTo('GET', '/v1/payment_intents').length;
    const first = await reconcile();
    const pages = fake.requestsTo('GET', '/v1/payment_intents').slice(listed);
    expect(pages.length).toBeGreaterThanOrEqual(2);
    expect(pages[1]!.form.starting_after).toMatch(/^pi_/);
    expect(pages[0]!.form).toMatchObject({ limit: '100', 'expand[0]': 'data.latest_charge.balance_transaction' });
    expect(first.completed).toBe(1);
    // Only our own PaymentIntents are reconciled.
    expect(first.report.mismatches).toEqual([]);

    const [paid] = await t.db.select().from(checkouts).where(eq(checkouts.id, checkoutId!));
    expect(paid).toMatchObject({ status: 'paid', providerPaymentId: expect.stringMatching(/^pi_/) });
    const second = await reconcile();
    expect(second.completed).toBe(0);
    expect(second.report.mismatches).toEqual([]);
    expect(await t.db.$count(ledgerTransactions, eq(ledgerTransactions.idempotencyKey, `payment:${checkoutId}`))).toBe(
      1,
    );
  });
});
