import { eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signedInStudent, signedInTeacher } from '../../../../tests/support/callers.ts';
import { startCheckout } from '../../../../tests/support/checkout.ts';
import { createBid, createRequest, createSubject } from '../../../../tests/support/factories.ts';
import { startStripeFake, type StripeFake } from '../../../../tests/support/stripe-fake.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { checkouts, ledgerTransactions, stripeEvents } from '../../db/schema/payments.ts';

describe("Stripe's webhook (PAYMENTS_PROVIDER=stripe, against a stand-in for Stripe)", () => {
  let t: TestApp;
  let fake: StripeFake;
  let subjectId: string;
  beforeAll(async () => {
    fake = await startStripeFake({ webhookSecret: 'whsec_webhook' });
    t = await createTestApp({
      PAYMENTS_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_webhook',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_webhook',
      STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
      STRIPE_API_BASE: fake.url,
    });
    subjectId = (await createSubject(t.db, { name: 'Physics' })).id;
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  /** A checkout whose student confirmed the PaymentIntent with Stripe (the browser's part). */
  async function confirmedCheckout() {
    const student = await signedInStudent(t);
    const tutor = await signedInTeacher(t, [subjectId]);
    const request = await createRequest(t.db, { studentId: student.user.id, subjectId });
    const bid = await createBid(t.db, { requestId: request.id, tutorId: tutor.user.id, amountCents: 3_000 });
    const { checkoutId } = await startCheckout(t, student, request.id, bid.id);
    await call(t, student, 'POST', `/api/checkouts/${checkoutId}/stripe-payment`, {});
    const [row] = await t.db.select().from(checkouts).where(eq(checkouts.id, checkoutId!));
    fake.succeed(row!.stripePaymentIntentId!);
    return { student, requestId: request.id, checkoutId: checkoutId!, paymentIntentId: row!.stripePaymentIntentId! };
  }
  const send = ({ body, signature }: { body: string; signature?: string }) =>
    t.app.inject({
      method: 'POST',
      url: '/api/payments/stripe/webhook',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        ...(signature && { 'stripe-signature': signature }),
      },
      payload: body,
    });
  const succeeded = (paymentIntentId: string, id?: string) =>
    fake.signedEvent({
      id,
      type: 'payment_intent.succeeded',
      object: { id: paymentIntentId, object: 'payment_intent' },
    });
  const postings = (requestId: string) => t.db.$count(ledgerTransactions, eq(ledgerTransactions.requestId, requestId));
  const statusOf = async (checkoutId: string) =>
    (await t.db.select().from(checkouts).where(eq(checkouts.id, checkoutId)))[0]!.status;
  const unprocessed = () => t.db.$count(stripeEvents, isNull(stripeEvents.processedAt));
  const eventual = async (check: () => Promise<boolean>) => {
    for (let tries = 0; tries < 100 && !(await check()); tries++) await new Promise((r) => setTimeout(r, 50));
  };

  it('records the payment of a succeeded PaymentIntent once, however often and in whatever order Stripe sends it', async () => {
    const { requestId, checkoutId, paymentIntentId } = await confirmedCheckout();
    const event = succeeded(paymentIntentId, `evt_${checkoutId}`);

    const answers = await Promise.all([send(event), send(event)]);
    expect(answers.map((answer) => [answer.statusCode, answer.json()])).toEqual([
      [200, { received: true }],
      [200, { received: true }],
    ]);
    await eventual(async () => (await statusOf(checkoutId)) === 'paid');
    expect(await statusOf(checkoutId)).toBe('paid');
    expect(await t.db.$count(stripeEvents, eq(stripeEvents.id, `evt_${checkoutId}`))).toBe(1);

    // Another delivery of the same payment (a new event id) and the student's "I have paid" change nothing more.
    expect((await send(succeeded(paymentIntentId))).statusCode).toBe(200);
    await eventual(async () => (await unprocessed()) === 0);
    expect(await postings(requestId)).toBe(1);
  });

  it('records once when the webhook and the student\'s "I have paid" race', async () => {
    const { student, requestId, checkoutId, paymentIntentId } = await confirmedCheckout();
    const [, paid] = await Promise.all([
      send(succeeded(paymentIntentId)),
      call(t, student, 'POST', `/api/checkouts/${checkoutId}/stripe-paid`, {}),
    ]);
    expect([200, 202]).toContain(paid.statusCode);
    await eventual(async () => (await statusOf(checkoutId)) === 'paid' && (await unprocessed()) === 0);
    expect(await postings(requestId)).toBe(1);
  });

  it('refuses a tampered body, a stale or missing signature, and keeps nothing', async () => {
    const { requestId, checkoutId, paymentIntentId } = await confirmedCheckout();
    const event = succeeded(paymentIntentId, `evt_refused_${checkoutId}`);
    const stale = fake.signedEvent(
      { id: `evt_stale_${checkoutId}`, type: 'payment_intent.succeeded', object: { id: paymentIntentId } },
      { timestamp: Math.floor(Date.now() / 1000) - 301 },
    );
    for (const refused of [
      { body: event.body.replace('payment_intent.succeeded', 'payment_intent.created'), signature: event.signature },
      stale,
      { body: event.body },
    ]) {
      const answer = await send(refused);
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toMatchObject({ message: 'The Stripe signature does not match.' });
    }
    expect(await t.db.$count(stripeEvents, eq(stripeEvents.objectId, paymentIntentId))).toBe(0);
    expect(await statusOf(checkoutId)).toBe('awaiting_payment');
    expect(await postings(requestId)).toBe(0);
  });
});
