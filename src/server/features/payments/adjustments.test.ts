import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjustmentMessages } from '#shared/schemas/admin-payments.ts';
import { call } from '../../../../tests/support/callers.ts';
import { createSessionCookie, createSubAdmin, createSubject } from '../../../../tests/support/factories.ts';
import { createPaidJob } from '../../../../tests/support/paid-job.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { adminAuditLog } from '../../db/schema/admin.ts';
import { users } from '../../db/schema/auth.ts';
import { ledgerTransactions, paymentAdjustments } from '../../db/schema/payments.ts';
import { jobPaymentState, ledgerAccountBalance, postingCentsByKind, postLedgerTransaction } from './service.ts';

describe('an admin adjustment after release (the test provider)', () => {
  let t: TestApp;
  let subjectId: string;
  let paymentsAdmin: string;
  let dashboardAdmin: string;
  beforeAll(async () => {
    t = await createTestApp({ PAYMENTS_COMMISSION_PERCENT: '15' });
    subjectId = (await createSubject(t.db)).id;
    paymentsAdmin = (await createSessionCookie(t.db, (await createSubAdmin(t.db, ['payments'])).id)).header;
    dashboardAdmin = (await createSessionCookie(t.db, (await createSubAdmin(t.db, ['dashboard'])).id)).header;
  });
  afterAll(() => t.close());

  const adjust = (requestId: string, payload: unknown, cookie: string | null = paymentsAdmin) =>
    t.app.inject({
      method: 'POST',
      url: `/api/admin/payments/jobs/${requestId}/adjustment`,
      headers: cookie ? { cookie } : {},
      payload: payload as object,
    });
  const balance = (kind: 'tutor_earnings_available' | 'refunds', userId: string) =>
    ledgerAccountBalance({ db: t.db, account: { kind, userId } });
  const commission = () => ledgerAccountBalance({ db: t.db, account: { kind: 'platform_commission' } });
  /** What a ledger posting moved, by account kind. */
  const postingOf = (idempotencyKey: string) => postingCentsByKind(t.db, idempotencyKey);
  const adjustmentsOf = (requestId: string) =>
    t.db.select().from(paymentAdjustments).where(eq(paymentAdjustments.requestId, requestId));
  const releasedJob = async (cents = 2_000) => {
    const job = await createPaidJob(t, { subjectId, cents });
    expect((await call(t, job.student, 'POST', `/api/requests/${job.requestId}/complete`)).statusCode).toBe(200);
    return job;
  };

  it('gives the student money back, the tutor’s part from their earnings and the commission on it, posted once', async () => {
    const { student, tutor, requestId } = await releasedJob(2_000);
    expect(await balance('tutor_earnings_available', tutor.user.id)).toBe(1_700);
    const commissionBefore = await commission();

    // Pressed twice at once: one adjustment, the other refused, the money moved once.
    const answers = await Promise.all([
      adjust(requestId, { amountCents: 1_000, note: 'Half the sessions were cut short.' }),
      adjust(requestId, { amountCents: 1_000, note: 'Half the sessions were cut short.' }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const made = answers.find((answer) => answer.statusCode === 200)!.json();
    expect(made).toMatchObject({
      requestId,
      amountCents: 1_000,
      tutorCents: 850,
      commissionCents: 150,
      status: 'settled',
      tutorOutcome: 'from_earnings',
      lastError: null,
    });
    expect(answers.find((answer) => answer.statusCode === 409)!.json().message).toBe(adjustmentMessages.notReleased);
    expect(await postingOf(`adjustment:${made.id}`)).toEqual({
      tutor_earnings_available: -850,
      platform_commission: -150,
      refunds: 1_000,
    });
    expect(await balance('tutor_earnings_available', tutor.user.id)).toBe(850);
    expect(await balance('refunds', student.user.id)).toBe(1_000);
    expect(await commission()).toBe(commissionBefore - 150);
    expect(await jobPaymentState({ db: t.db, requestId })).toBe('partially_refunded');
    expect(await adjustmentsOf(requestId)).toEqual([
      expect.objectContaining({ providerRefundId: `test_adjustment:${made.id}`, status: 'settled' }),
    ]);
    const [audit] = await t.db
      .select()
      .from(adminAuditLog)
      .where(and(eq(adminAuditLog.action, 'payments.adjustment_made'), eq(adminAuditLog.objectId, made.id)));
    expect(audit).toMatchObject({ after: { amountCents: 1_000, tutorCents: 850, commissionCents: 150 } });

    // Asked again later: already adjusted, nothing more moves.
    expect((await adjust(requestId, { amountCents: 500, note: 'Again.' })).statusCode).toBe(409);
    expect(await balance('refunds', student.user.id)).toBe(1_000);
  });

  it('records what a tutor paid out already as owed, netted against their next earnings', async () => {
    const { tutor, requestId } = await releasedJob(2_000);
    // The tutor's share left as a payout.
    await postLedgerTransaction({
      db: t.db,
      idempotencyKey: `payout:${randomUUID()}`,
      kind: 'payout',
      entries: [
        { account: { kind: 'tutor_earnings_available', userId: tutor.user.id }, amountCents: -1_700 },
        { account: { kind: 'payouts', userId: tutor.user.id }, amountCents: 1_700 },
      ],
    });
    const answer = await adjust(requestId, { amountCents: 2_000, note: 'The work was never done.' });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ tutorCents: 1_700, commissionCents: 300, tutorOutcome: 'owed_by_tutor' });
    expect(await balance('tutor_earnings_available', tutor.user.id)).toBe(-1_700);
    // The next released share pays the debt back first.
    const next = await createPaidJob(t, { subjectId, cents: 2_000, tutor });
    expect((await call(t, next.student, 'POST', `/api/requests/${next.requestId}/complete`)).statusCode).toBe(200);
    expect(await balance('tutor_earnings_available', tutor.user.id)).toBe(0);
    // Released, then given back: both, as the job's money state tells it.
    expect(await jobPaymentState({ db: t.db, requestId })).toBe('partially_refunded');
  });

  it('refuses without a session, a tutor, an admin without payments, bad input, and jobs not released, writing nothing', async () => {
    const { tutor, requestId } = await releasedJob(2_000);
    const good = { amountCents: 500, note: 'A session was missed.' };
    expect((await adjust(requestId, good, null)).statusCode).toBe(401);
    expect((await call(t, tutor, 'POST', `/api/admin/payments/jobs/${requestId}/adjustment`, good)).statusCode).toBe(
      403,
    );
    expect((await adjust(requestId, good, dashboardAdmin)).statusCode).toBe(403);
    const refusals: [unknown, string][] = [
      [{ amountCents: 0, note: 'x' }, adjustmentMessages.amountInvalid],
      [{ amountCents: 12.5, note: 'x' }, adjustmentMessages.amountInvalid],
      [{ amountCents: '500', note: 'x' }, adjustmentMessages.amountInvalid],
      [{ amountCents: 500, note: '  ' }, adjustmentMessages.noteRequired],
      [{ amountCents: 500, note: 'x'.repeat(501) }, adjustmentMessages.noteTooLong],
      [{ amountCents: 2_001, note: 'More than paid.' }, adjustmentMessages.tooMuch],
    ];
    for (const [payload, message] of refusals) {
      const answer = await adjust(requestId, payload);
      expect(answer.statusCode, JSON.stringify(payload)).toBe(400);
      expect(answer.body).toContain(message);
    }
    expect((await adjust(randomUUID(), good)).statusCode).toBe(404);
    // Money still held: a refund request's business, not an adjustment's.
    const held = await createPaidJob(t, { subjectId, cents: 2_000 });
    const refused = await adjust(held.requestId, good);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(adjustmentMessages.notReleased);
    expect(await adjustmentsOf(requestId)).toEqual([]);
    expect(await adjustmentsOf(held.requestId)).toEqual([]);
    expect(await balance('tutor_earnings_available', tutor.user.id)).toBe(1_700);
    // A student who deleted their account: the refund could never be recorded, so none is asked of the provider.
    const erased = await releasedJob(2_000);
    await t.db.update(users).set({ erasedAt: new Date() }).where(eq(users.id, erased.student.user.id));
    const gone = await adjust(erased.requestId, good);
    expect([gone.statusCode, gone.json().message]).toEqual([409, adjustmentMessages.erasedPerson]);
    expect(await adjustmentsOf(erased.requestId)).toEqual([]);
    expect(
      await t.db.$count(
        ledgerTransactions,
        and(eq(ledgerTransactions.requestId, requestId), eq(ledgerTransactions.kind, 'adjustment')),
      ),
    ).toBe(0);
  });
});
