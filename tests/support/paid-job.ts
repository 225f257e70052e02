import { checkouts } from '../../src/server/db/schema/payments.ts';
import { postLedgerTransaction } from '../../src/server/features/payments/service.ts';
import { call, signedInStudent, signedInTeacher, type Caller } from './callers.ts';
import { createBid, createRequest } from './factories.ts';
import type { TestApp } from './test-app.ts';

/**
 * A job whose student paid `cents` into its held funds, as a paid checkout leaves it: the offer accepted, the
 * checkout paid and the payment posted. `tutor` is a new teacher of the subject unless given.
 */
export async function createPaidJob(
  t: TestApp,
  { subjectId, cents = 2_000, tutor }: { subjectId: string; cents?: number; tutor?: Caller },
) {
  const student = await signedInStudent(t);
  const teacher = tutor ?? (await signedInTeacher(t, [subjectId]));
  const request = await createRequest(t.db, { studentId: student.user.id, subjectId });
  const bid = await createBid(t.db, { requestId: request.id, tutorId: teacher.user.id, amountCents: cents });
  const accepted = await call(t, student, 'POST', `/api/requests/${request.id}/bids/${bid.id}/accept`);
  if (accepted.statusCode !== 200) throw new Error(`accept answered ${accepted.statusCode}: ${accepted.body}`);
  const [checkout] = await t.db
    .insert(checkouts)
    .values({
      requestId: request.id,
      bidId: bid.id,
      studentId: student.user.id,
      tutorId: teacher.user.id,
      amountCents: cents,
      provider: 'test',
      status: 'paid',
      paidAt: new Date(),
      expiresAt: new Date(),
    })
    .returning();
  await postLedgerTransaction({
    db: t.db,
    idempotencyKey: `payment:${checkout!.id}`,
    kind: 'payment',
    requestId: request.id,
    entries: [
      { account: { kind: 'student_payments', userId: student.user.id }, amountCents: -cents },
      { account: { kind: 'held_funds', requestId: request.id }, amountCents: cents },
    ],
  });
  return { student, tutor: teacher, requestId: request.id, checkoutId: checkout!.id };
}
