import { signedInStudent, signedInTeacher, type Caller } from './callers.ts';
import { acceptAndPay } from './checkout.ts';
import { createBid, createRequest } from './factories.ts';
import type { TestApp } from './test-app.ts';

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
