import { randomUUID } from 'node:crypto';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { buildApp, type App } from '../../app.ts';
import { users } from '../../db/schema/auth.ts';
import { mailOutbox, notifications } from '../../db/schema/notifications.ts';
import { ledgerTransactions, payouts } from '../../db/schema/payments.ts';
import { createSubject } from '../../../../tests/support/factories.ts';
import { call, signedInStudent, signedInTeacher, type Caller } from '../../../../tests/support/callers.ts';
import { createPaidJob } from '../../../../tests/support/paid-job.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { testConfig } from '../../../../tests/support/test-config.ts';
import { ledgerAccountBalance, recordPayoutPaid } from './service.ts';

const payoutCall = (server: TestApp | App, caller: Caller | undefined, key: string = randomUUID()) =>
  ('app' in server ? server.app : server).inject({
    method: 'POST',
    url: '/api/earnings/payouts',
    headers: {
      ...(caller ? { cookie: caller.cookie } : {}),
      'idempotency-key': key,
      'content-type': 'application/json',
    },
    payload: {},
  });

describe('a tutor’s earnings and payouts', () => {
  let t: TestApp;
  let subjectId: string;
  beforeAll(async () => {
    t = await createTestApp();
    subjectId = (await createSubject(t.db, { name: 'Statistics' })).id;
  });
  afterAll(() => t.close());

  const earnings = async (tutor: Caller) => {
    const response = await call(t, tutor, 'GET', '/api/earnings');
    expect(response.statusCode).toBe(200);
    return response.json();
  };
  const confirmAdult = (tutor: Caller) =>
    call(t, tutor, 'POST', '/api/earnings/adult-confirmation', { confirmed: true });
  const available = (tutorId: string) =>
    ledgerAccountBalance({ db: t.db, account: { kind: 'tutor_earnings_available', userId: tutorId } });

  it('shows held money as pending, released money as available, with each job’s commission and share', async () => {
    const first = await createPaidJob(t, { subjectId, cents: 2_000 });
    const { tutor } = first;
    const second = await createPaidJob(t, { subjectId, cents: 1_010, tutor });
    const before = await earnings(tutor);
    expect(before).toMatchObject({ pendingCents: 1_700 + 858, availableCents: 0, paidOutCents: 0 });
    expect(before.commissionBasisPoints).toBe(1_500);
    expect(before.jobs).toEqual([
      expect.objectContaining({ requestId: second.requestId, state: 'held', amountCents: 1_010, commissionCents: 152 }),
      expect.objectContaining({
        requestId: first.requestId,
        subjectName: 'Statistics',
        studentName: first.student.user.username,
        state: 'held',
        amountCents: 2_000,
        commissionCents: 300,
        tutorCents: 1_700,
        releasedAt: null,
      }),
    ]);

    expect((await call(t, first.student, 'POST', `/api/requests/${first.requestId}/complete`)).statusCode).toBe(200);
    const after = await earnings(tutor);
    expect(after).toMatchObject({ pendingCents: 858, availableCents: 1_700, paidOutCents: 0 });
    expect(after.jobs[1]).toMatchObject({ state: 'released', commissionCents: 300, tutorCents: 1_700 });
    expect(after.jobs[1].releasedAt).not.toBeNull();
    // Someone else's earnings show nothing of it.
    expect(await earnings(await signedInTeacher(t, [subjectId]))).toMatchObject({
      pendingCents: 0,
      availableCents: 0,
      jobs: [],
      payouts: [],
    });
  });

  it('refuses a payout before the tutor confirms being 18 or older, then pays the whole balance once per key', async () => {
    const job = await createPaidJob(t, { subjectId, cents: 3_000 });
    await call(t, job.student, 'POST', `/api/requests/${job.requestId}/complete`);
    const refused = await payoutCall(t, job.tutor);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      code: 'ADULT_CONFIRMATION_REQUIRED',
      message: 'Please confirm that you are 18 or older before your first payout.',
    });
    expect(await t.db.$count(payouts, eq(payouts.tutorId, job.tutor.user.id))).toBe(0);

    const unticked = await call(t, job.tutor, 'POST', '/api/earnings/adult-confirmation', { confirmed: false });
    expect(unticked.statusCode).toBe(400);
    expect(unticked.json().fields.confirmed).toBe('Please tick the box to confirm that you are 18 or older.');
    const confirmed = await confirmAdult(job.tutor);
    expect(confirmed.statusCode).toBe(200);
    expect((await confirmAdult(job.tutor)).json()).toEqual(confirmed.json());

    const key = randomUUID();
    // Two racing presses with one key name one payout; either may answer while the other holds the provider call.
    const racing = await Promise.all([payoutCall(t, job.tutor, key), payoutCall(t, job.tutor, key)]);
    expect(racing.map((response) => response.statusCode)).toEqual([200, 200]);
    expect(racing[1].json().id).toBe(racing[0].json().id);
    const paid = await payoutCall(t, job.tutor, key);
    expect(paid.json()).toMatchObject({ id: racing[0].json().id, amountCents: 2_550, status: 'paid' });
    expect(await t.db.$count(payouts, eq(payouts.tutorId, job.tutor.user.id))).toBe(1);
    expect(
      await t.db.$count(ledgerTransactions, eq(ledgerTransactions.idempotencyKey, `payout:${paid.json().id}`)),
    ).toBe(1);
    expect(await available(job.tutor.user.id)).toBe(0);
    // The tutor's receipt, in the bell and by e-mail.
    const [receipt] = await t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, job.tutor.user.id), like(notifications.message, 'Payout receipt:%')));
    expect(receipt).toMatchObject({
      message: expect.stringMatching(
        /^Payout receipt: \$25\.50 of your earnings was paid out to you\. Payout reference test_payout_/,
      ),
      link: '/earnings',
    });
    expect(
      await t.db.$count(
        mailOutbox,
        and(eq(mailOutbox.toAddress, job.tutor.user.email), like(mailOutbox.subject, '%Payout receipt%')),
      ),
    ).toBe(1);
    expect(await earnings(job.tutor)).toMatchObject({
      availableCents: 0,
      paidOutCents: 2_550,
      payouts: [{ id: paid.json().id, amountCents: 2_550, status: 'paid' }],
    });

    // A new key with nothing left to pay out is refused, and writes nothing.
    const empty = await payoutCall(t, job.tutor);
    expect(empty.statusCode).toBe(409);
    expect(empty.json()).toMatchObject({
      code: 'NOTHING_TO_PAY_OUT',
      message: 'You have no earnings available to pay out.',
    });
    expect(await t.db.$count(payouts, eq(payouts.tutorId, job.tutor.user.id))).toBe(1);
  });

  it('refuses students, signed-out callers and a missing or malformed key', async () => {
    const student = await signedInStudent(t);
    const teacher = await signedInTeacher(t, [subjectId]);
    expect((await call(t, student, 'GET', '/api/earnings')).statusCode).toBe(403);
    expect((await call(t, undefined, 'GET', '/api/earnings')).statusCode).toBe(401);
    expect((await payoutCall(t, student)).statusCode).toBe(403);
    expect((await payoutCall(t, undefined)).statusCode).toBe(401);
    const badKey = await payoutCall(t, teacher, 'not-a-uuid');
    expect(badKey.statusCode).toBe(400);
    expect(badKey.json().message).toMatch(/The Idempotency-Key header must be a UUID/);
    const noKey = await call(t, teacher, 'POST', '/api/earnings/payouts', {});
    expect(noKey.statusCode).toBe(400);
    expect((await call(t, student, 'POST', '/api/earnings/adult-confirmation', { confirmed: true })).statusCode).toBe(
      403,
    );
    const [row] = await t.db.select().from(users).where(eq(users.id, student.user.id));
    expect(row!.adultConfirmedAt).toBeNull();
  });

  it('keeps the payout requested under `manual` until an admin records it, and refuses another meanwhile', async () => {
    const job = await createPaidJob(t, { subjectId, cents: 1_000 });
    await call(t, job.student, 'POST', `/api/requests/${job.requestId}/complete`);
    await confirmAdult(job.tutor);
    // A server of the same database whose operator pays out by bank transfer.
    const manual = await buildApp(testConfig({ PAYMENTS_PROVIDER: 'manual' }), { database: t.database });
    onTestFinished(() => manual.close());
    const requested = await payoutCall(manual, job.tutor);
    expect(requested.json()).toMatchObject({ amountCents: 850, status: 'requested', paidAt: null });
    const again = await payoutCall(manual, job.tutor);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('PAYOUT_IN_PROGRESS');
    const tutorAvailable = { kind: 'tutor_earnings_available' as const, userId: job.tutor.user.id };
    expect(await ledgerAccountBalance({ db: t.db, account: tutorAvailable })).toBe(850);

    const admin = await signedInTeacher(t, []);
    const recorded = await t.db.transaction((tx) =>
      recordPayoutPaid({
        db: tx,
        publicUrl: t.config.publicUrl,
        operator: t.config.operator,
        payoutId: requested.json().id,
        adminId: admin.user.id,
        reference: 'Bank ref 42',
      }),
    );
    expect(recorded).toMatchObject({ id: requested.json().id, status: 'paid', amountCents: 850 });
    expect(await ledgerAccountBalance({ db: t.db, account: tutorAvailable })).toBe(0);
    const [row] = await t.db.select().from(payouts).where(eq(payouts.id, requested.json().id));
    expect(row).toMatchObject({ providerPayoutId: 'Bank ref 42', recordedBy: admin.user.id });
    await expect(
      recordPayoutPaid({
        db: t.db,
        publicUrl: t.config.publicUrl,
        operator: t.config.operator,
        payoutId: requested.json().id,
        adminId: admin.user.id,
        reference: 'again',
      }),
    ).rejects.toMatchObject({ statusCode: 409 });
    await expect(
      recordPayoutPaid({
        db: t.db,
        publicUrl: t.config.publicUrl,
        operator: t.config.operator,
        payoutId: randomUUID(),
        adminId: admin.user.id,
        reference: 'none',
      }),
    ).rejects.toMatchObject({ statusCode: 404 });
  });
});
