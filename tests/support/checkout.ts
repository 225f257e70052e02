import type { Executor } from '../../src/server/db/client.ts';
import { checkouts, payouts } from '../../src/server/db/schema/payments.ts';
import { randomUUID } from 'node:crypto';
import type { PgInsertValue } from 'drizzle-orm/pg-core';
import type { Caller } from './callers.ts';
import { call } from './callers.ts';
import { createBid, createRequest, createSubject, createTeacher, createUser } from './factories.ts';
import type { TestApp } from './test-app.ts';

// Accepting an offer as a student does under the `test` provider: the accept starts a checkout, and paying it with
// a test card accepts the offer.

export const TEST_CARD = { number: '4242 4242 4242 4242', expiry: '12/40', cvc: '123', name: 'Ada Student' };
export const DECLINED_CARD = { ...TEST_CARD, number: '4000 0000 0000 0002' };

/** Starts the checkout of this offer (POST …/accept); its id, or the refusal's answer. */
export async function startCheckout(t: TestApp, student: Caller | undefined, requestId: string, bidId: string) {
  const response = await call(t, student, 'POST', `/api/requests/${requestId}/bids/${bidId}/accept`);
  const checkoutId = response.statusCode === 200 ? response.json<{ checkoutId: string }>().checkoutId : null;
  return { response, checkoutId };
}

export const payCheckout = (
  t: TestApp,
  student: Caller | undefined,
  checkoutId: string,
  body: object = { card: TEST_CARD },
) => call(t, student, 'POST', `/api/checkouts/${checkoutId}/pay`, body);

/**
 * Accepts and pays with the test card: the pay's answer (the paid checkout), or the accept's when it refused.
 * `deadline` is the one an assignment without a deadline needs at checkout.
 */
export async function acceptAndPay(
  t: TestApp,
  student: Caller | undefined,
  requestId: string,
  bidId: string,
  { card = TEST_CARD, deadline }: { card?: typeof TEST_CARD; deadline?: string } = {},
) {
  const { response, checkoutId } = await startCheckout(t, student, requestId, bidId);
  if (!checkoutId) return response;
  return payCheckout(t, student, checkoutId, { card, ...(deadline ? { deadline } : {}) });
}

/** A checkout written straight to the database: a new student's of a new tutor's 20.00 offer, in the state given. */
export async function createCheckout(db: Executor, values: Partial<PgInsertValue<typeof checkouts>> = {}) {
  const [student, subject] = [await createUser(db), await createSubject(db)];
  const tutor = await createTeacher(db, { subjectIds: [subject.id] });
  const request = await createRequest(db, { studentId: student.id, subjectId: subject.id });
  const bid = await createBid(db, { requestId: request.id, tutorId: tutor.id, amountCents: 2_000 });
  const [row] = await db
    .insert(checkouts)
    .values({
      requestId: request.id,
      bidId: bid.id,
      studentId: student.id,
      tutorId: tutor.id,
      amountCents: 2_000,
      provider: 'test',
      expiresAt: new Date(Date.now() + 30 * 60_000),
      ...values,
    })
    .returning();
  return row!;
}

/** A new tutor's payout of 17.00 requested under `manual`, written straight to the database. */
export async function createRequestedPayout(db: Executor) {
  const tutor = await createUser(db, { role: 'teacher' });
  const [payout] = await db
    .insert(payouts)
    .values({ tutorId: tutor.id, amountCents: 1_700, provider: 'manual', idempotencyKey: randomUUID() })
    .returning();
  return { tutor, payout: payout! };
}
