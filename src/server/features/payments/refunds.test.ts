import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorMessages } from '#shared/errors.ts';
import { refundMessages } from '#shared/schemas/refunds.ts';
import { adminAuditLog } from '../../db/schema/admin.ts';
import { users } from '../../db/schema/auth.ts';
import { meetingJoins, meetings } from '../../db/schema/meetings.ts';
import { notifications } from '../../db/schema/notifications.ts';
import {
  checkouts,
  ledgerAccounts,
  ledgerEntries,
  ledgerTransactions,
  refundRequests,
} from '../../db/schema/payments.ts';
import { tutoringRequests } from '../../db/schema/requests.ts';
import { closeRefundedJob } from '../requests/service.ts';
import { runClaimedWorkOnce } from '../../platform/jobs/claimed-work.ts';
import { runJobOnce } from '../../platform/jobs/interval-jobs.ts';
import { createSubAdmin, createUser } from '../../../../tests/support/factories.ts';
import { call, signIn, type Caller } from '../../../../tests/support/callers.ts';
import { writePaidJob } from '../../../../tests/support/paid-job.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { fromNow, HOUR_MS, MINUTE_MS } from '../../../../tests/support/time.ts';
import {
  jobPaymentState,
  ledgerAccountBalance,
  postLedgerTransaction,
  refundWork,
  suspendedTutorsJobsJob,
  unansweredRefundRequestsJob,
} from './service.ts';

const PRICE = 4_000;

describe('refunds', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** A new student and tutor with a job of theirs paid $40 with the test provider. */
  async function paidJob({ type = 'tutoring', deadline }: { type?: 'tutoring' | 'assignment'; deadline?: Date } = {}) {
    const student = await signIn(t, await createUser(t.db, { role: 'student' }));
    const tutor = await signIn(t, await createUser(t.db, { role: 'teacher' }));
    const { requestId } = await writePaidJob(t.db, {
      studentId: student.user.id,
      tutorId: tutor.user.id,
      amountCents: PRICE,
      type,
      deadline,
    });
    return { student, tutor, requestId };
  }

  type Job = Awaited<ReturnType<typeof paidJob>>;

  /** A session of the job scheduled by its tutor, started `agoMs` ago. */
  async function session(job: Job, agoMs: number) {
    const [meeting] = await t.db
      .insert(meetings)
      .values({
        creatorId: job.tutor.user.id,
        title: 'Session',
        meetingId: `VirtualHelp-${randomUUID()}`,
        joinUrl: 'https://meet.jit.si/x',
        startTime: new Date(Date.now() - agoMs),
        requestId: job.requestId,
      })
      .returning();
    return meeting!.id;
  }

  const joinAt = (meetingId: string, userId: string, joinedAt: Date) =>
    t.db.insert(meetingJoins).values({ meetingId, userId, joinedAt });

  const ask = (job: Job, body: object, caller: Caller | undefined = job.student) =>
    call(t, caller, 'POST', `/api/refunds/jobs/${job.requestId}`, body);
  const answer = (job: Job, id: string, body: object, caller: Caller | undefined = job.tutor) =>
    call(t, caller, 'POST', `/api/refunds/requests/${id}/answer`, body);
  const balance = (account: Parameters<typeof ledgerAccountBalance>[0]['account']) =>
    ledgerAccountBalance({ db: t.db, account });
  const requestsOf = (job: Job) =>
    t.db.select().from(refundRequests).where(eq(refundRequests.requestId, job.requestId));

  /** Every transaction of the job's ledger sums to zero (the database checks it too), by kind and key. */
  async function jobLedger(job: Job) {
    const rows = await t.db
      .select({
        key: ledgerTransactions.idempotencyKey,
        kind: ledgerTransactions.kind,
        sum: sql<number>`sum(${ledgerEntries.amountCents})`.mapWith(Number),
      })
      .from(ledgerTransactions)
      .innerJoin(ledgerEntries, eq(ledgerEntries.transactionId, ledgerTransactions.id))
      .where(eq(ledgerTransactions.requestId, job.requestId))
      .groupBy(ledgerTransactions.id)
      .orderBy(ledgerTransactions.createdAt);
    for (const row of rows) expect(row.sum).toBe(0);
    // Postings of one transaction share its time: compared in name order.
    return rows.map((row) => row.kind).sort();
  }

  const money = async (job: Job) => ({
    held: await balance({ kind: 'held_funds', requestId: job.requestId }),
    refunded: await balance({ kind: 'refunds', userId: job.student.user.id }),
    tutor: await balance({ kind: 'tutor_earnings_available', userId: job.tutor.user.id }),
    state: await jobPaymentState({ db: t.db, requestId: job.requestId }),
  });

  const statusOf = async (job: Job) => {
    const [request] = await t.db
      .select({ status: tutoringRequests.status })
      .from(tutoringRequests)
      .where(eq(tutoringRequests.id, job.requestId));
    return request!.status;
  };

  const admin = async () => signIn(t, await createSubAdmin(t.db, ['payments']));
  const decide = (caller: Caller | undefined, id: string, body: object) =>
    call(t, caller, 'POST', `/api/admin/payments/disputes/${id}/decision`, body);

  it('refunds a session the tutor missed (no Join in its first 15 minutes) once the tutor accepts', async () => {
    const job = await paidJob();
    const meetingId = await session(job, 20 * MINUTE_MS);
    // The student joined; the tutor only after 16 minutes, too late.
    await joinAt(meetingId, job.student.user.id, new Date(Date.now() - 20 * MINUTE_MS));
    await joinAt(meetingId, job.tutor.user.id, new Date(Date.now() - 4 * MINUTE_MS));

    const asked = await ask(job, { reason: 'missed_session', meetingId });
    expect(asked.statusCode).toBe(201);
    expect(asked.json()).toMatchObject({ status: 'awaiting_tutor', heldCents: PRICE, meetingId, refundCents: null });
    expect(await money(job)).toMatchObject({ held: PRICE, state: 'frozen' });
    const [told] = await t.db.select().from(notifications).where(eq(notifications.userId, job.tutor.user.id));
    expect(told!.message).toContain(`${job.student.user.username} asked for a refund of $40:`);

    // A second request while one is open is refused and writes nothing.
    const again = await ask(job, { reason: 'missed_session', meetingId });
    expect([again.statusCode, again.json().message]).toEqual([409, refundMessages.alreadyOpen]);
    // Nor can the job be completed while it waits: a refund would then leave a completed job counted for the tutor.
    const early = await call(t, job.student, 'POST', `/api/requests/${job.requestId}/complete`);
    expect([early.statusCode, early.json().message]).toEqual([409, errorMessages.PAYMENT_ON_HOLD]);
    expect([await statusOf(job), (await money(job)).state]).toEqual(['accepted', 'frozen']);

    const accepted = await answer(job, asked.json().id, { answer: 'accept' });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({ status: 'refunded', refundCents: PRICE, tutorAnswer: 'accepted' });
    expect(await money(job)).toEqual({ held: 0, refunded: PRICE, tutor: 0, state: 'refunded' });
    expect(await jobLedger(job)).toEqual(['payment', 'refund']);
    // Refunded in full, the job is over: closed, so it can no longer be completed, delivered or rated.
    expect(await statusOf(job)).toBe('closed');
    const complete = await call(t, job.student, 'POST', `/api/requests/${job.requestId}/complete`);
    expect([complete.statusCode, await statusOf(job)]).toEqual([409, 'closed']);
    const shared = await call(t, job.tutor, 'GET', `/api/shared-jobs/${job.student.user.id}`);
    expect(shared.json().jobs).toEqual([expect.objectContaining({ isClosed: true, isCompleted: false })]);
    const [receipt] = await t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, job.student.user.id), sql`${notifications.message} like 'Refund receipt%'`));
    expect(receipt!.message).toContain('$40 of your payment of $40 was refunded');

    // Once refunded, asking again is refused and answering again changes nothing.
    const late = await ask(job, { reason: 'missed_session', meetingId });
    expect([late.statusCode, late.json().message]).toEqual([409, refundMessages.alreadyRefunded]);
    expect((await answer(job, asked.json().id, { answer: 'accept' })).statusCode).toBe(409);
    expect(await jobLedger(job)).toEqual(['payment', 'refund']);
  });

  it('refuses a session the tutor joined in time, one not over 15 minutes, a cancelled one, and another job’s', async () => {
    const job = await paidJob();
    const joined = await session(job, HOUR_MS);
    await joinAt(joined, job.tutor.user.id, new Date(Date.now() - HOUR_MS + 14 * MINUTE_MS));
    const refusal = async (body: object) => {
      const response = await ask(job, body);
      return [response.statusCode, response.json().message];
    };
    expect(await refusal({ reason: 'missed_session', meetingId: joined })).toEqual([409, refundMessages.tutorJoined]);
    const recent = await session(job, 10 * MINUTE_MS);
    expect(await refusal({ reason: 'missed_session', meetingId: recent })).toEqual([
      409,
      refundMessages.sessionNotOverYet,
    ]);
    const cancelled = await session(job, HOUR_MS);
    await t.db.update(meetings).set({ cancelledAt: new Date() }).where(eq(meetings.id, cancelled));
    expect(await refusal({ reason: 'missed_session', meetingId: cancelled })).toEqual([
      409,
      refundMessages.sessionCancelled,
    ]);
    const other = await paidJob();
    const othersSession = await session(other, HOUR_MS);
    const foreign = await ask(job, { reason: 'missed_session', meetingId: othersSession });
    expect([foreign.statusCode, foreign.json().fields]).toEqual([
      400,
      { meetingId: refundMessages.notThisJobsSession },
    ]);
    const unnamed = await ask(job, { reason: 'missed_session' });
    expect([unnamed.statusCode, unnamed.json().fields]).toEqual([400, { meetingId: refundMessages.chooseSession }]);
    expect(await requestsOf(job)).toEqual([]);
    expect(await money(job)).toMatchObject({ held: PRICE, state: 'held' });
  });

  it('says any other reason is not refundable in the terms’ words, and checks who asks', async () => {
    const job = await paidJob();
    const meetingId = await session(job, HOUR_MS);
    const other = await ask(job, { reason: 'changed_my_mind' });
    expect([other.statusCode, other.json().fields]).toEqual([
      400,
      { reason: 'Refunds apply only if a tutor misses a session or an assignment is not delivered.' },
    ]);
    const body = { reason: 'missed_session', meetingId };
    expect((await call(t, undefined, 'POST', `/api/refunds/jobs/${job.requestId}`, body)).statusCode).toBe(401);
    expect((await ask(job, body, job.tutor)).statusCode).toBe(403);
    const stranger = await signIn(t, await createUser(t.db, { role: 'student' }));
    expect((await ask(job, body, stranger)).statusCode).toBe(404);
    expect((await call(t, job.student, 'POST', `/api/refunds/jobs/${randomUUID()}`, body)).statusCode).toBe(404);
    expect((await call(t, stranger, 'GET', `/api/refunds/jobs/${job.requestId}`)).statusCode).toBe(404);
    expect(await requestsOf(job)).toEqual([]);
  });

  it('refunds an assignment not delivered by its deadline; refuses before the deadline or when delivered in time', async () => {
    const early = await paidJob({ type: 'assignment', deadline: fromNow(HOUR_MS) });
    const refused = await ask(early, { reason: 'missed_deadline' });
    expect([refused.statusCode, refused.json().message]).toEqual([409, refundMessages.deadlineNotPassed]);
    const tutoring = await paidJob();
    const notAssignment = await ask(tutoring, { reason: 'missed_deadline' });
    expect([notAssignment.statusCode, notAssignment.json().message]).toEqual([409, refundMessages.notAnAssignment]);

    const delivered = await paidJob({ type: 'assignment', deadline: fromNow(-HOUR_MS) });
    await t.db
      .update(tutoringRequests)
      .set({ deliveredAt: fromNow(-2 * HOUR_MS) })
      .where(eq(tutoringRequests.id, delivered.requestId));
    const inTime = await ask(delivered, { reason: 'missed_deadline' });
    expect([inTime.statusCode, inTime.json().message]).toEqual([409, refundMessages.deliveredInTime]);

    // Marked delivered only after the deadline: not delivered by it.
    const job = await paidJob({ type: 'assignment', deadline: fromNow(-HOUR_MS) });
    await t.db
      .update(tutoringRequests)
      .set({ deliveredAt: fromNow(-MINUTE_MS) })
      .where(eq(tutoringRequests.id, job.requestId));
    const asked = await ask(job, { reason: 'missed_deadline' });
    expect(asked.statusCode).toBe(201);
    expect((await answer(job, asked.json().id, { answer: 'accept' })).json().status).toBe('refunded');
    expect(await money(job)).toEqual({ held: 0, refunded: PRICE, tutor: 0, state: 'refunded' });
  });

  it('sends a contested request to admins, who split it: part refunded, the rest released less commission', async () => {
    const job = await paidJob();
    const meetingId = await session(job, HOUR_MS);
    const asked = (await ask(job, { reason: 'missed_session', meetingId })).json();
    const contested = await answer(job, asked.id, { answer: 'contest', note: 'The student never came.' });
    expect(contested.json()).toMatchObject({ status: 'with_admins', tutorAnswer: 'contested' });
    expect((await answer(job, asked.id, { answer: 'accept' })).statusCode).toBe(409);
    expect(await money(job)).toMatchObject({ held: PRICE, state: 'frozen' });

    const payments = await admin();
    const queue = await call(t, payments, 'GET', '/api/admin/payments/disputes');
    expect(queue.json().disputes).toContainEqual(
      expect.objectContaining({ id: asked.id, studentName: job.student.user.username }),
    );
    const evidence = await call(t, payments, 'GET', `/api/admin/payments/disputes/${asked.id}`);
    expect(evidence.json().sessions).toEqual([expect.objectContaining({ id: meetingId, joins: [] })]);

    // Without the permission, signed out, or an unknown request: refused, nothing written.
    const moderator = await signIn(t, await createSubAdmin(t.db, ['reports']));
    const partial = { outcome: 'partial', refundCents: 1_500, note: 'Half of the session happened.' };
    expect((await decide(moderator, asked.id, partial)).statusCode).toBe(403);
    expect((await decide(undefined, asked.id, partial)).statusCode).toBe(401);
    expect((await decide(payments, randomUUID(), partial)).statusCode).toBe(404);
    const tooMuch = await decide(payments, asked.id, { ...partial, refundCents: PRICE });
    expect([tooMuch.statusCode, tooMuch.json().fields]).toEqual([400, { refundCents: refundMessages.partialRange }]);
    const noNote = await decide(payments, asked.id, { outcome: 'full', note: ' ' });
    expect([noNote.statusCode, noNote.json().fields]).toEqual([400, { note: refundMessages.noteRequired }]);
    const longNote = await decide(payments, asked.id, { outcome: 'full', note: 'n'.repeat(2_001) });
    expect([longNote.statusCode, longNote.json().fields]).toEqual([400, { note: refundMessages.noteTooLong }]);
    expect(await t.db.$count(adminAuditLog, eq(adminAuditLog.objectId, asked.id))).toBe(0);

    const decided = await decide(payments, asked.id, partial);
    expect(decided.statusCode).toBe(200);
    expect(decided.json()).toMatchObject({ status: 'partially_refunded', refundCents: 1_500 });
    // $25.00 released: 15 % commission ($3.75) and $21.25 to the tutor.
    expect(await money(job)).toEqual({ held: 0, refunded: 1_500, tutor: 2_125, state: 'partially_refunded' });
    expect(await jobLedger(job)).toEqual(['payment', 'refund', 'release']);
    // Part of it was paid for: the job stays the student's to mark completed.
    expect(await statusOf(job)).toBe('accepted');
    const [audit] = await t.db.select().from(adminAuditLog).where(eq(adminAuditLog.objectId, asked.id));
    expect(audit).toMatchObject({ actorId: payments.user.id, action: 'refund_decided', objectType: 'refund_request' });

    expect((await decide(payments, asked.id, partial)).statusCode).toBe(409);
    expect(await jobLedger(job)).toEqual(['payment', 'refund', 'release']);
  });

  it('sends a request the tutor leaves unanswered for 3 days to admins, who may refund nothing', async () => {
    const job = await paidJob();
    const meetingId = await session(job, HOUR_MS);
    const asked = (await ask(job, { reason: 'missed_session', meetingId })).json();
    await runJobOnce({ db: t.db, job: unansweredRefundRequestsJob });
    expect((await requestsOf(job))[0]!.status).toBe('awaiting_tutor');
    // Three days pass.
    await t.db
      .update(refundRequests)
      .set({ answerDueAt: sql`now() - interval '1 second'` })
      .where(eq(refundRequests.id, asked.id));
    await runJobOnce({ db: t.db, job: unansweredRefundRequestsJob });
    expect((await requestsOf(job))[0]!.status).toBe('with_admins');
    const late = await answer(job, asked.id, { answer: 'accept' });
    expect([late.statusCode, late.json().message]).toEqual([409, refundMessages.alreadyAnswered]);

    const none = await decide(await admin(), asked.id, { outcome: 'none', note: 'The tutor was there.' });
    expect(none.json()).toMatchObject({ status: 'declined', refundCents: 0 });
    expect(await money(job)).toEqual({ held: PRICE, refunded: 0, tutor: 0, state: 'held' });
    expect(await statusOf(job)).toBe('accepted');
    expect(await jobLedger(job)).toEqual(['payment']);
  });

  it('refuses a refund once the money was released, pointing to the admins', async () => {
    const job = await paidJob();
    const meetingId = await session(job, HOUR_MS);
    await postLedgerTransaction({
      db: t.db,
      idempotencyKey: `release:${job.requestId}`,
      kind: 'release',
      requestId: job.requestId,
      entries: [
        { account: { kind: 'held_funds', requestId: job.requestId }, amountCents: -PRICE },
        { account: { kind: 'tutor_earnings_available', userId: job.tutor.user.id }, amountCents: PRICE },
      ],
    });
    const refused = await ask(job, { reason: 'missed_session', meetingId });
    expect([refused.statusCode, refused.json().message]).toEqual([409, refundMessages.released]);
    expect(await requestsOf(job)).toEqual([]);
  });

  it('refuses a job that was never paid here (accepted before payments)', async () => {
    const job = await paidJob();
    await t.db
      .update(checkouts)
      .set({ status: 'cancelled', paidAt: null, receiptNumber: null })
      .where(eq(checkouts.requestId, job.requestId));
    const refused = await ask(job, { reason: 'missed_deadline' });
    expect(refused.statusCode).toBe(409);
  });

  it('refunds everything at once when the tutor withdraws; only the tutor may', async () => {
    const job = await paidJob();
    const withdraw = (caller: Caller | undefined) =>
      call(t, caller, 'POST', `/api/refunds/jobs/${job.requestId}/withdraw`, {});
    expect((await withdraw(undefined)).statusCode).toBe(401);
    expect((await withdraw(job.student)).statusCode).toBe(403);
    expect((await withdraw(await signIn(t, await createUser(t.db, { role: 'teacher' })))).statusCode).toBe(404);
    expect(await requestsOf(job)).toEqual([]);
    const withdrawn = await withdraw(job.tutor);
    expect(withdrawn.statusCode).toBe(201);
    expect(withdrawn.json()).toMatchObject({ reason: 'tutor_withdrew', status: 'refunded', refundCents: PRICE });
    expect(await money(job)).toEqual({ held: 0, refunded: PRICE, tutor: 0, state: 'refunded' });
    expect((await withdraw(job.tutor)).statusCode).toBe(409);
    expect(await jobLedger(job)).toEqual(['payment', 'refund']);
  });

  it('cancels by agreement: one proposes, the other agrees, everything is refunded', async () => {
    const job = await paidJob();
    const proposed = await call(t, job.student, 'POST', `/api/refunds/jobs/${job.requestId}/cancellation`, {});
    expect(proposed.json()).toMatchObject({ reason: 'cancelled_by_agreement', status: 'awaiting_agreement' });
    expect(await money(job)).toMatchObject({ state: 'frozen' });
    const reply = (caller: Caller, agree: boolean) =>
      call(t, caller, 'POST', `/api/refunds/requests/${proposed.json().id}/cancellation`, { agree });
    const own = await reply(job.student, true);
    expect([own.statusCode, own.json().message]).toEqual([403, refundMessages.ownProposal]);
    const agreed = await reply(job.tutor, true);
    expect(agreed.json()).toMatchObject({ status: 'refunded', refundCents: PRICE });
    expect(await money(job)).toEqual({ held: 0, refunded: PRICE, tutor: 0, state: 'refunded' });

    // Declined, the job goes on with its money held.
    const other = await paidJob();
    const offer = await call(t, other.tutor, 'POST', `/api/refunds/jobs/${other.requestId}/cancellation`, {});
    const declined = await call(t, other.student, 'POST', `/api/refunds/requests/${offer.json().id}/cancellation`, {
      agree: false,
    });
    expect(declined.json().status).toBe('declined');
    expect(await money(other)).toMatchObject({ held: PRICE, state: 'held' });
  });

  it('posts a decided refund once, however often its work runs', async () => {
    const job = await paidJob();
    const withdrawn = (await call(t, job.tutor, 'POST', `/api/refunds/jobs/${job.requestId}/withdraw`, {})).json();
    // The refund's work runs again as if its claim had lapsed after the record: the key posts nothing twice.
    await t.db.update(refundRequests).set({ status: 'refunding' }).where(eq(refundRequests.id, withdrawn.id));
    const ctx = {
      publicUrl: 'http://x',
      operator: t.config.operator,
      commissionBasisPoints: 1_500,
      log: { error: () => undefined },
      closeRefundedJob,
      stripe: null,
    };
    await runClaimedWorkOnce({ db: t.db, work: refundWork({ db: t.db, ctx }), log: ctx.log });
    expect(await money(job)).toMatchObject({ held: 0, refunded: PRICE });
    expect(await jobLedger(job)).toEqual(['payment', 'refund']);
    const accounts = await t.db
      .select({ id: ledgerAccounts.id })
      .from(ledgerAccounts)
      .where(eq(ledgerAccounts.ownerRequestId, job.requestId));
    expect(accounts).toHaveLength(1);
  });

  it('sends each held job of a suspended tutor to admins once, who decide it like any dispute', async () => {
    const job = await paidJob();
    const untouched = await paidJob();
    await runJobOnce({ db: t.db, job: suspendedTutorsJobsJob });
    expect(await requestsOf(job)).toEqual([]);

    await t.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, job.tutor.user.id));
    await runJobOnce({ db: t.db, job: suspendedTutorsJobsJob });
    await runJobOnce({ db: t.db, job: suspendedTutorsJobsJob });
    const [opened, ...more] = await requestsOf(job);
    expect(more).toEqual([]);
    expect(opened).toMatchObject({
      reason: 'tutor_suspended',
      status: 'with_admins',
      openedBy: null,
      heldCents: PRICE,
    });
    expect(await money(job)).toMatchObject({ state: 'frozen' });
    expect(await requestsOf(untouched)).toEqual([]);

    // Decided (here: the money stays for the tutor), the job is not sent again.
    expect((await decide(await admin(), opened!.id, { outcome: 'none', note: 'The work was done.' })).statusCode).toBe(
      200,
    );
    await runJobOnce({ db: t.db, job: suspendedTutorsJobsJob });
    expect(await requestsOf(job)).toHaveLength(1);
    expect(await money(job)).toMatchObject({ held: PRICE, state: 'held' });
  });
});
