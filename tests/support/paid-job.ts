import { eq } from 'drizzle-orm';
import type { Executor } from '../../src/server/db/client.ts';
import { checkouts, nextReceiptNumber } from '../../src/server/db/schema/payments.ts';
import { tutoringRequests } from '../../src/server/db/schema/requests.ts';
import { postLedgerTransaction } from '../../src/server/features/payments/service.ts';
import { signedInStudent, signedInTeacher, type Caller } from './callers.ts';
import { acceptAndPay } from './checkout.ts';
import { createBid, createRequest, createSubject } from './factories.ts';
import type { TestApp } from './test-app.ts';
import { fromNow, MINUTE_MS } from './time.ts';

/**
 * A job whose student accepted an offer of `cents` and paid it with the test card, so the money is held for it.
 * `tutor` is a new teacher of the subject unless given.
 */
export async function createPaidJob(
  t: TestApp,
  { subjectId, cents = 2_000, tutor }: { subjectId: string; cents?: number; tutor?: Caller },
) {
  const student = await signedInStudent(t);
  const teacher = tutor ?? (await signedInTeacher(t, [subjectId]));
  const request = await createRequest(t.db, { studentId: student.user.id, subjectId });
  const bid = await createBid(t.db, { requestId: request.id, tutorId: teacher.user.id, amountCents: cents });
  const paid = await acceptAndPay(t, student, request.id, bid.id);
  if (paid.statusCode !== 200) throw new Error(`paying answered ${paid.statusCode}: ${paid.body}`);
  return { student, tutor: teacher, requestId: request.id, checkoutId: paid.json<{ id: string }>().id };
}

/**
 * A paid job written straight to the tables as a paid checkout leaves them (the tutor's offer accepted, the checkout
 * paid, the amount held for the job), for journeys, which run no test app, and jobs of any type and deadline.
 */
export async function writePaidJob(
  db: Executor,
  {
    studentId,
    tutorId,
    amountCents = 4_000,
    type = 'tutoring',
    deadline,
  }: {
    studentId: string;
    tutorId: string;
    amountCents?: number;
    type?: 'tutoring' | 'assignment';
    deadline?: Date;
  },
) {
  const subject = await createSubject(db);
  const request = await createRequest(db, { studentId, subjectId: subject.id, type, deadline });
  const bid = await createBid(db, { requestId: request.id, tutorId, amountCents, status: 'accepted' });
  await db
    .update(tutoringRequests)
    .set({ status: 'accepted', acceptedBidId: bid.id })
    .where(eq(tutoringRequests.id, request.id));
  const [checkout] = await db
    .insert(checkouts)
    .values({
      requestId: request.id,
      bidId: bid.id,
      studentId,
      tutorId,
      amountCents,
      provider: 'test',
      status: 'paid',
      providerPaymentId: `test_payment:${request.id}`,
      expiresAt: fromNow(30 * MINUTE_MS),
      paidAt: new Date(),
      receiptNumber: nextReceiptNumber(),
    })
    .returning();
  await postLedgerTransaction({
    db,
    idempotencyKey: `payment:${checkout!.id}`,
    kind: 'payment',
    requestId: request.id,
    entries: [
      { account: { kind: 'student_payments', userId: studentId }, amountCents: -amountCents },
      { account: { kind: 'held_funds', requestId: request.id }, amountCents },
    ],
  });
  return { requestId: request.id, subject };
}
