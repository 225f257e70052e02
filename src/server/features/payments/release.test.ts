import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerTransactions, refundRequests } from '../../db/schema/payments.ts';
import { tutoringRequests } from '../../db/schema/requests.ts';
import { runJobOnce } from '../../platform/jobs/interval-jobs.ts';
import { createBid, createRequest, createSubject } from '../../../../tests/support/factories.ts';
import { call, signedInStudent, signedInTeacher } from '../../../../tests/support/callers.ts';
import { createPaidJob } from '../../../../tests/support/paid-job.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { DAY_MS, HOUR_MS } from '../../../../tests/support/time.ts';
import { deliveredJobsReleaseJob, ledgerAccountBalance, releaseHeldFunds } from './service.ts';

describe('releasing held money to the tutor', () => {
  let t: TestApp;
  let subjectId: string;
  beforeAll(async () => {
    t = await createTestApp({ PAYMENTS_COMMISSION_PERCENT: '15', PAYMENTS_RELEASE_AFTER_DAYS: '7' });
    subjectId = (await createSubject(t.db)).id;
  });
  afterAll(() => t.close());

  const paidJob = (cents = 2_000) => createPaidJob(t, { subjectId, cents });
  const held = (requestId: string) => ledgerAccountBalance({ db: t.db, account: { kind: 'held_funds', requestId } });
  const available = (tutorId: string) =>
    ledgerAccountBalance({ db: t.db, account: { kind: 'tutor_earnings_available', userId: tutorId } });
  const releasesOf = (requestId: string) =>
    t.db.$count(
      ledgerTransactions,
      and(eq(ledgerTransactions.requestId, requestId), eq(ledgerTransactions.kind, 'release')),
    );
  const deliveredDaysAgo = (requestId: string, days: number) =>
    t.db
      .update(tutoringRequests)
      .set({ deliveredAt: sql`now() - make_interval(secs => ${(days * DAY_MS) / 1000})` })
      .where(eq(tutoringRequests.id, requestId));
  const releaseJob = () => runJobOnce({ db: t.db, job: deliveredJobsReleaseJob(t.config.payments) });

  it('releases the held money when the student marks the job completed: the tutor gets it less 15 %, once', async () => {
    const { student, tutor, requestId } = await paidJob(2_000);
    const commissionBefore = await ledgerAccountBalance({ db: t.db, account: { kind: 'platform_commission' } });
    expect((await call(t, student, 'POST', `/api/requests/${requestId}/complete`)).statusCode).toBe(200);
    expect(await held(requestId)).toBe(0);
    expect(await available(tutor.user.id)).toBe(1_700);
    expect(await ledgerAccountBalance({ db: t.db, account: { kind: 'platform_commission' } })).toBe(
      commissionBefore + 300,
    );
    const [release] = await t.db
      .select()
      .from(ledgerTransactions)
      .where(eq(ledgerTransactions.idempotencyKey, `release:${requestId}`));
    expect(release).toMatchObject({ kind: 'release', requestId });
    // Marking it again answers the same and posts nothing.
    expect((await call(t, student, 'POST', `/api/requests/${requestId}/complete`)).statusCode).toBe(200);
    expect(await releasesOf(requestId)).toBe(1);
    expect(await available(tutor.user.id)).toBe(1_700);
  });

  it('completes a job accepted before payments existed without posting anything', async () => {
    const student = await signedInStudent(t);
    const tutor = await signedInTeacher(t, [subjectId]);
    const request = await createRequest(t.db, { studentId: student.user.id, subjectId });
    const bid = await createBid(t.db, { requestId: request.id, tutorId: tutor.user.id, status: 'accepted' });
    await t.db
      .update(tutoringRequests)
      .set({ status: 'accepted', acceptedBidId: bid.id })
      .where(eq(tutoringRequests.id, request.id));
    expect((await call(t, student, 'POST', `/api/requests/${request.id}/complete`)).statusCode).toBe(200);
    expect(await t.db.$count(ledgerTransactions, eq(ledgerTransactions.requestId, request.id))).toBe(0);
  });

  it('rounds the commission half up to a cent and gives the tutor the rest, whatever the percentage', async () => {
    const cases = [
      { cents: 1_010, basisPoints: 1_500, commission: 152 }, // 151.5 rounds up
      { cents: 1_234, basisPoints: 1_500, commission: 185 }, // 185.1 rounds down
      { cents: 999, basisPoints: 1_225, commission: 122 }, // 122.3775
      { cents: 500, basisPoints: 0, commission: 0 },
      { cents: 500, basisPoints: 10_000, commission: 500 },
    ];
    for (const { cents, basisPoints, commission } of cases) {
      const { tutor, requestId } = await paidJob(cents);
      await t.db.transaction((tx) =>
        releaseHeldFunds({ db: tx, requestId, tutorId: tutor.user.id, commissionBasisPoints: basisPoints }),
      );
      expect(await available(tutor.user.id)).toBe(cents - commission);
      expect(await held(requestId)).toBe(0);
    }
  });

  it('releases a delivered job’s money once its days are over when the clock moves on, and no sooner', async () => {
    const due = await paidJob(1_000);
    const early = await paidJob(1_000);
    const undelivered = await paidJob(1_000);
    for (const job of [due, early]) {
      expect((await call(t, job.tutor, 'POST', `/api/requests/${job.requestId}/delivered`)).statusCode).toBe(200);
    }
    await deliveredDaysAgo(due.requestId, 7 + 1 / 24);
    await deliveredDaysAgo(early.requestId, 7 - 1 / 24);

    expect(await releaseJob()).toBe(true);
    expect(await held(due.requestId)).toBe(0);
    expect(await available(due.tutor.user.id)).toBe(850);
    for (const job of [early, undelivered]) {
      expect(await held(job.requestId)).toBe(1_000);
      expect(await available(job.tutor.user.id)).toBe(0);
    }
    // The job stays the student's to mark completed (and to rate); marking it then posts nothing more.
    const [row] = await t.db.select().from(tutoringRequests).where(eq(tutoringRequests.id, due.requestId));
    expect(row!.status).toBe('accepted');
    expect((await call(t, due.student, 'POST', `/api/requests/${due.requestId}/complete`)).statusCode).toBe(200);
    expect(await releasesOf(due.requestId)).toBe(1);

    // An hour later by the clock the early one is due too; a second run of the job releases nothing twice.
    await deliveredDaysAgo(early.requestId, 7 + HOUR_MS / DAY_MS);
    expect(await releaseJob()).toBe(true);
    expect(await available(early.tutor.user.id)).toBe(850);
    expect(await releasesOf(due.requestId)).toBe(1);
  });

  it('releases nothing while a refund request freezes the money, on completion or on the timer', async () => {
    const job = await paidJob(1_000);
    await t.db.insert(refundRequests).values({
      requestId: job.requestId,
      checkoutId: job.checkoutId,
      studentId: job.student.user.id,
      tutorId: job.tutor.user.id,
      openedBy: job.student.user.id,
      reason: 'missed_deadline',
      status: 'awaiting_tutor',
      heldCents: 1_000,
    });
    await call(t, job.tutor, 'POST', `/api/requests/${job.requestId}/delivered`);
    await deliveredDaysAgo(job.requestId, 30);
    expect(await releaseJob()).toBe(true);
    // Nor can the job be completed while the request waits.
    expect((await call(t, job.student, 'POST', `/api/requests/${job.requestId}/complete`)).statusCode).toBe(409);
    expect(await held(job.requestId)).toBe(1_000);
    expect(await releasesOf(job.requestId)).toBe(0);
    expect(await available(job.tutor.user.id)).toBe(0);
  });

  it('runs every hour', () => {
    expect(deliveredJobsReleaseJob(t.config.payments).intervalMs).toBe(HOUR_MS);
  });
});
