import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema/auth.ts';
import { ledgerTransactions } from '../db/schema/payments.ts';
import { tutorBids, tutoringRequests } from '../db/schema/requests.ts';
import { createRequest, createSubject, freshClientAddress } from '../../../tests/support/factories.ts';
import { call, signedInStudent, signedInTeacher } from '../../../tests/support/callers.ts';
import { payCheckout } from '../../../tests/support/checkout.ts';
import { createTestApp, type TestApp } from '../../../tests/support/test-app.ts';

// Fifty of the same action at once: the database, not the timing, decides that exactly one takes effect.
const PARALLEL = 50;

const statusCounts = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((counts, status) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});

// Fifty password hashes on two cores take their time.
describe('races', { timeout: 120_000 }, () => {
  let t: TestApp;
  let subjectId: string;
  beforeAll(async () => {
    t = await createTestApp();
    subjectId = (await createSubject(t.db)).id;
  });
  afterAll(async () => t.close());

  it(`${PARALLEL} parallel accepts of different offers on one request, then parallel pays: exactly one accepted, charged once`, async () => {
    const student = await signedInStudent(t);
    const request = await createRequest(t.db, { studentId: student.user.id, subjectId, budgetMaxCents: 10_000 });
    const tutors = await Promise.all(Array.from({ length: PARALLEL }, () => signedInTeacher(t, [subjectId])));
    const bids = await t.db
      .insert(tutorBids)
      .values(
        tutors.map((tutor, i) => ({
          requestId: request.id,
          tutorId: tutor.user.id,
          amountCents: 900 + (i % 50) * 100,
        })),
      )
      .returning({ id: tutorBids.id });
    const bidIds = bids.map((bid) => bid.id);

    const responses = await Promise.all(
      bidIds.map((bidId) => call(t, student, 'POST', `/api/requests/${request.id}/bids/${bidId}/accept`)),
    );

    expect(statusCounts(responses.map((response) => response.statusCode))).toEqual({ 200: 1, 409: PARALLEL - 1 });
    const { bidId: winner, checkoutId } = responses.find((response) => response.statusCode === 200)!.json();
    // Every pay of the one checkout either pays it, finds it being paid, or finds it paid: one charge.
    const pays = await Promise.all(Array.from({ length: PARALLEL }, () => payCheckout(t, student, checkoutId)));
    expect(pays.every((pay) => pay.statusCode === 200 || pay.json().code === 'PAYMENT_IN_PROGRESS')).toBe(true);
    expect(await t.db.$count(ledgerTransactions, eq(ledgerTransactions.idempotencyKey, `payment:${checkoutId}`))).toBe(
      1,
    );
    const [stored] = await t.db
      .select({ status: tutoringRequests.status, acceptedBidId: tutoringRequests.acceptedBidId })
      .from(tutoringRequests)
      .where(eq(tutoringRequests.id, request.id));
    expect(stored).toEqual({ status: 'accepted', acceptedBidId: winner });
    const accepted = await t.db
      .select({ id: tutorBids.id })
      .from(tutorBids)
      .where(sql`${tutorBids.requestId} = ${request.id} and ${tutorBids.status} = 'accepted'`);
    expect(accepted).toEqual([{ id: winner }]);
  });

  it(`${PARALLEL} parallel bids by one teacher on one request: one bid`, async () => {
    const student = await signedInStudent(t);
    const request = await createRequest(t.db, { studentId: student.user.id, subjectId });
    const teacher = await signedInTeacher(t, [subjectId]);

    const responses = await Promise.all(
      Array.from({ length: PARALLEL }, () =>
        call(t, teacher, 'POST', `/api/jobs/${request.id}/bids`, {
          amountCents: 1000,
          message: 'I can help with this.',
        }),
      ),
    );

    const counts = statusCounts(responses.map((response) => response.statusCode));
    expect(counts[201]).toBe(1);
    // The others are told it is a second bid, or (past the per-user ceiling) to slow down; never a server error.
    expect(Object.keys(counts).every((status) => ['201', '409', '429'].includes(status))).toBe(true);
    expect(await t.db.$count(tutorBids, eq(tutorBids.requestId, request.id))).toBe(1);
  });

  it(`${PARALLEL} parallel registrations with one username: one account`, async () => {
    const name = `racer${Date.now().toString(36)}`;
    const responses = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: '/api/accounts/register',
          remoteAddress: freshClientAddress(),
          payload: {
            name,
            email: `${name}.${i}@example.com`,
            password: 'secret1',
            role: 'student',
            acceptTerms: true,
            acceptPrivacy: true,
            confirmAge: true,
          },
        }),
      ),
    );

    const counts = statusCounts(responses.map((response) => response.statusCode));
    expect(counts[201]).toBe(1);
    expect(Object.keys(counts).every((status) => ['201', '400', '409'].includes(status))).toBe(true);
    expect(await t.db.$count(users, sql`lower(${users.username}) = ${name.toLowerCase()}`)).toBe(1);
  });
});
