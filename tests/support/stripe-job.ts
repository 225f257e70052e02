import { eq } from 'drizzle-orm';
import { checkouts } from '../../src/server/db/schema/payments.ts';
import { call, signedInStudent, signedInTeacher, type Caller } from './callers.ts';
import { startCheckout } from './checkout.ts';
import { createBid, createRequest } from './factories.ts';
import type { StripeFake } from './stripe-fake.ts';
import type { TestApp } from './test-app.ts';

/** Starts paying a checkout with Stripe, as the checkout page does: its PaymentIntent's id. */
export async function stripePaymentIntentOf(t: TestApp, student: Caller, checkoutId: string) {
  const started = await call(t, student, 'POST', `/api/checkouts/${checkoutId}/stripe-payment`, {});
  if (started.statusCode !== 200) throw new Error(`stripe-payment answered ${started.statusCode}: ${started.body}`);
  const [checkout] = await t.db.select().from(checkouts).where(eq(checkouts.id, checkoutId));
  return checkout!.stripePaymentIntentId!;
}

/**
 * A job paid through Stripe (the app under PAYMENTS_PROVIDER=stripe against the fake): the student confirms the
 * PaymentIntent in the browser (the fake's `succeed`) and says "I have paid". `tutor` is a new teacher unless given.
 */
export async function createStripePaidJob(
  t: TestApp,
  fake: StripeFake,
  { subjectId, cents = 2_000, tutor }: { subjectId: string; cents?: number; tutor?: Caller },
) {
  const student = await signedInStudent(t);
  const teacher = tutor ?? (await signedInTeacher(t, [subjectId]));
  const request = await createRequest(t.db, { studentId: student.user.id, subjectId });
  const bid = await createBid(t.db, { requestId: request.id, tutorId: teacher.user.id, amountCents: cents });
  const { checkoutId } = await startCheckout(t, student, request.id, bid.id);
  const paymentIntentId = await stripePaymentIntentOf(t, student, checkoutId!);
  fake.succeed(paymentIntentId);
  const paid = await call(t, student, 'POST', `/api/checkouts/${checkoutId}/stripe-paid`, {});
  if (paid.statusCode !== 200) throw new Error(`stripe-paid answered ${paid.statusCode}: ${paid.body}`);
  return { student, tutor: teacher, requestId: request.id, checkoutId: checkoutId!, paymentIntentId };
}
