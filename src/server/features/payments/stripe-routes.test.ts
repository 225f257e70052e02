import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signedInStudent, signedInTeacher } from '../../../../tests/support/callers.ts';
import { startCheckout } from '../../../../tests/support/checkout.ts';
import { createBid, createRequest, createSubject } from '../../../../tests/support/factories.ts';
import { startStripeFake, type StripeFake } from '../../../../tests/support/stripe-fake.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { checkouts, ledgerTransactions } from '../../db/schema/payments.ts';
import { tutoringRequests } from '../../db/schema/requests.ts';

describe('paying a checkout with Stripe (PAYMENTS_PROVIDER=stripe, against a stand-in for Stripe)', () => {
  let t: TestApp;
  let fake: StripeFake;
  let subjectId: string;
  beforeAll(async () => {
    fake = await startStripeFake({ webhookSecret: 'whsec_routes' });
    t = await createTestApp({
      PAYMENTS_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_routes',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_routes',
      STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
      STRIPE_API_BASE: fake.url,
    });
    subjectId = (await createSubject(t.db, { name: 'Chemistry' })).id;
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  /** A student's accepted-offer checkout under Stripe, of a $25.00 offer. */
  async function stripeCheckout(type: 'tutoring' | 'assignment' = 'tutoring') {
    const student = await signedInStudent(t);
    const tutor = await signedInTeacher(t, [subjectId]);
    const request = await createRequest(t.db, { studentId: student.user.id, subjectId, type });
    const bid = await createBid(t.db, { requestId: request.id, tutorId: tutor.user.id, amountCents: 2_500 });
    const { checkoutId } = await startCheckout(t, student, request.id, bid.id);
    return { student, tutor, requestId: request.id, checkoutId: checkoutId! };
  }
  const postings = (requestId: string) => t.db.$count(ledgerTransactions, eq(ledgerTransactions.requestId, requestId));
  const paymentIntentOf = async (checkoutId: string) =>
    (await t.db.select().from(checkouts).where(eq(checkouts.id, checkoutId)))[0]!.stripePaymentIntentId;

  it("gives the student the PaymentIntent's client secret and the publishable key, for the offer's amount", async () => {
    const { student, checkoutId } = await stripeCheckout();
    const response = await call(t, student, 'POST', `/api/checkouts/${checkoutId}/stripe-payment`, {});

    expect(response.statusCode).toBe(200);
    const paymentIntentId = await paymentIntentOf(checkoutId);
    expect(response.json()).toEqual({
      clientSecret: `${paymentIntentId}_secret_fake`,
      publishableKey: 'pk_test_routes',
    });
    expect(response.body).not.toContain('sk_test_routes');
    expect(fake.object(paymentIntentId!)).toMatchObject({ amount: 2_500, currency: 'usd' });
  });

  it('records the payment when Stripe says it succeeded, once, and accepts the offer', async () => {
    const { student, requestId, checkoutId } = await stripeCheckout();
    await call(t, student, 'POST', `/api/checkouts/${checkoutId}/stripe-payment`, {});

    const early = await call(t, student, 'POST', `/api/checkouts/${checkoutId}/stripe-paid`, {});
    expect(early.statusCode).toBe(202);
    expect(early.json()).toMatchObject({ status: 'awaiting_payment' });
    expect(await postings(requestId)).toBe(0);

    fake.succeed((await paymentIntentOf(checkoutId))!);
    const [paid, again] = await Promise.all([
      call(t, student, 'POST', `/api/checkouts/${checkoutId}/stripe-paid`, {}),
      call(t, student, 'POST', `/api/checkouts/${checkoutId}/stripe-paid`, {}),
    ]);
    expect([paid.statusCode, again.statusCode].sort()).toContain(200);
    const last = await call(t, student, 'POST', `/api/checkouts/${checkoutId}/stripe-paid`, {});
    expect(last.statusCode).toBe(200);
    expect(last.json()).toMatchObject({ status: 'paid', provider: 'stripe', amountCents: 2_500 });
    expect(await postings(requestId)).toBe(1);
    const [request] = await t.db.select().from(tutoringRequests).where(eq(tutoringRequests.id, requestId));
    expect(request).toMatchObject({ status: 'accepted' });

    const closed = await call(t, student, 'POST', `/api/checkouts/${checkoutId}/stripe-payment`, {});
    expect(closed.statusCode).toBe(409);
    expect(closed.json()).toMatchObject({ code: 'CHECKOUT_CLOSED' });
  });

  it('answers no one but the checkout’s student, and refuses bad input, writing nothing', async () => {
    const { student, tutor, requestId, checkoutId } = await stripeCheckout('assignment');
    const otherStudent = await signedInStudent(t);
    for (const path of ['stripe-payment', 'stripe-paid']) {
      const url = `/api/checkouts/${checkoutId}/${path}`;
      expect((await call(t, undefined, 'POST', url, {})).statusCode).toBe(401);
      expect((await call(t, tutor, 'POST', url, {})).statusCode).toBe(403);
      expect((await call(t, otherStudent, 'POST', url, {})).statusCode).toBe(404);
      expect((await call(t, student, 'POST', `/api/checkouts/not-a-uuid/${path}`, {})).statusCode).toBe(400);
    }
    const startPaying = (body: object) => call(t, student, 'POST', `/api/checkouts/${checkoutId}/stripe-payment`, body);
    const withoutDeadline = await startPaying({});
    expect(withoutDeadline.statusCode).toBe(400);
    expect(withoutDeadline.json()).toMatchObject({
      fields: { deadline: 'Set the assignment’s deadline before you pay: the refund rule depends on it.' },
    });
    expect((await startPaying({ deadline: 'tomorrow' })).statusCode).toBe(400);
    const deadlineOf = async () =>
      (await t.db.select().from(tutoringRequests).where(eq(tutoringRequests.id, requestId)))[0]!.deadline;
    expect(await deadlineOf()).toBeNull();
    expect(await paymentIntentOf(checkoutId)).toBeNull();
    expect(await postings(requestId)).toBe(0);

    // The deadline goes with the checkout, and onto the job when the payment is recorded (here by the webhook).
    const deadline = new Date(Date.now() + 3 * 24 * 60 * 60 * 1000).toISOString();
    expect((await startPaying({ deadline })).statusCode).toBe(200);
    expect(await deadlineOf()).toBeNull();
    // Paying again (back from a refused card) asks for it no more, and the checkout shows it.
    expect((await startPaying({})).statusCode).toBe(200);
    const shown = await call(t, student, 'GET', `/api/checkouts/${checkoutId}`);
    expect(shown.json()).toMatchObject({ request: { deadline } });
    const paymentIntentId = (await paymentIntentOf(checkoutId))!;
    fake.succeed(paymentIntentId);
    const event = fake.signedEvent({ type: 'payment_intent.succeeded', object: { id: paymentIntentId } });
    const delivered = await t.app.inject({
      method: 'POST',
      url: '/api/payments/stripe/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
      payload: event.body,
    });
    expect(delivered.statusCode).toBe(200);
    for (let tries = 0; tries < 100 && !(await deadlineOf()); tries++) await new Promise((r) => setTimeout(r, 50));
    expect((await deadlineOf())?.toISOString()).toBe(deadline);
  });
});
