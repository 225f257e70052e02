import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminPaymentsMessages, transferMessages } from '#shared/schemas/admin-payments.ts';
import { createCheckout, createRequestedPayout } from '../../../../tests/support/checkout.ts';
import { adminAuditLog } from '../../db/schema/admin.ts';
import { checkouts, ledgerEntries, ledgerTransactions, payouts } from '../../db/schema/payments.ts';
import { tutoringRequests } from '../../db/schema/requests.ts';
import {
  createRequest,
  createSessionCookie,
  createSubAdmin,
  createSubject,
  createUser,
} from '../../../../tests/support/factories.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { LEDGER_SEARCH_LIMIT, postLedgerTransaction } from '../payments/service.ts';

describe('the admin Payments section', () => {
  let t: TestApp;
  let paymentsAdmin: string;
  beforeAll(async () => {
    t = await createTestApp();
    paymentsAdmin = (await createSessionCookie(t.db, (await createSubAdmin(t.db, ['payments'])).id)).header;
  });
  afterAll(() => t.close());

  const get = (url: string, cookie?: string) => t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
  const ledger = (q: string, cookie = paymentsAdmin) =>
    get(`/api/admin/payments/ledger?q=${encodeURIComponent(q)}`, cookie);
  const csv = (q: string) => get(`/api/admin/payments/ledger.csv?q=${encodeURIComponent(q)}`, paymentsAdmin);

  /** A job whose student paid 20.00 (0.88 provider fee) and whose tutor was released it, 15 % commission. */
  async function paidAndReleasedJob({
    topic = 'Fractions',
    studentName,
  }: { topic?: string; studentName?: string } = {}) {
    const [student, tutor, subject] = [
      await createUser(t.db, studentName ? { username: studentName } : {}),
      await createUser(t.db, { role: 'teacher' }),
      await createSubject(t.db),
    ];
    const request = await createRequest(t.db, { studentId: student.id, subjectId: subject.id, topic });
    const payment = await postLedgerTransaction({
      db: t.db,
      idempotencyKey: `payment:${randomUUID()}`,
      kind: 'payment',
      requestId: request.id,
      entries: [
        { account: { kind: 'student_payments', userId: student.id }, amountCents: -2_000 },
        { account: { kind: 'held_funds', requestId: request.id }, amountCents: 2_000 },
        { account: { kind: 'provider_fees' }, amountCents: 88 },
        { account: { kind: 'platform_commission' }, amountCents: -88 },
      ],
    });
    const release = await postLedgerTransaction({
      db: t.db,
      idempotencyKey: `release:${request.id}`,
      kind: 'release',
      requestId: request.id,
      entries: [
        { account: { kind: 'held_funds', requestId: request.id }, amountCents: -2_000 },
        { account: { kind: 'tutor_earnings_available', userId: tutor.id }, amountCents: 1_700 },
        { account: { kind: 'platform_commission' }, amountCents: 300 },
      ],
    });
    return { student, tutor, subject, request, payment, release };
  }

  it('refuses the signed out, admins without the payments permission, and searches that name nothing', async () => {
    const job = await paidAndReleasedJob();
    expect((await get(`/api/admin/payments/ledger?q=${job.request.id}`)).statusCode).toBe(401);
    const dashboardOnly = (await createSessionCookie(t.db, (await createSubAdmin(t.db, ['dashboard'])).id)).header;
    expect((await ledger(job.request.id, dashboardOnly)).statusCode).toBe(403);
    for (const q of ['', 'algebra', '12', '1234', 'a@', `${job.request.id}x`]) {
      const refused = await ledger(q);
      expect(refused.statusCode, q).toBe(400);
      expect(refused.json().message, q).toBe(adminPaymentsMessages.searchInvalid);
    }
    expect((await get('/api/admin/payments/ledger', paymentsAdmin)).statusCode).toBe(400);
    const unknownJob = await ledger(randomUUID());
    expect(unknownJob.statusCode).toBe(404);
    expect(unknownJob.json().message).toBe(adminPaymentsMessages.searchNotFound);
    expect((await ledger('nobody-here@example.com')).statusCode).toBe(404);
    expect((await csv(randomUUID())).statusCode).toBe(404);
  });

  it('shows a job’s transactions newest first with every entry, and what it holds', async () => {
    const { student, tutor, subject, request, payment, release } = await paidAndReleasedJob();
    const response = await ledger(request.id.toUpperCase());
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const answer = response.json();
    const title = `${subject.name}: Fractions`;
    expect(answer.subject).toEqual({ kind: 'job', requestId: request.id, title });
    expect(answer.balances).toEqual([
      {
        account: expect.objectContaining({
          kind: 'held_funds',
          owner: { type: 'job', id: request.id, title },
        }),
        balanceCents: 0,
      },
    ]);
    expect(answer.truncated).toBe(false);
    expect(answer.transactions.map((transaction: { id: string }) => transaction.id)).toEqual([
      release.transaction.id,
      payment.transaction.id,
    ]);
    const [released, paid] = answer.transactions;
    expect(paid.kind).toBe('payment');
    expect(
      paid.entries.map((entry: { account: { kind: string; owner: object }; amountCents: number }) => [
        entry.account.kind,
        entry.account.owner,
        entry.amountCents,
      ]),
    ).toEqual([
      [
        'student_payments',
        { type: 'user', id: student.id, username: student.username, vhNumber: student.vhNumber },
        -2_000,
      ],
      ['held_funds', { type: 'job', id: request.id, title }, 2_000],
      ['provider_fees', { type: 'platform' }, 88],
      ['platform_commission', { type: 'platform' }, -88],
    ]);
    expect(released.entries.map((entry: { amountCents: number }) => entry.amountCents)).toEqual([-2_000, 1_700, 300]);
    expect(released.entries[1].account.owner).toMatchObject({ type: 'user', id: tutor.id });
  });

  it('finds a user by e-mail address or VH number, with their balances', async () => {
    const { student, tutor, payment, release } = await paidAndReleasedJob();
    const byEmail = (await ledger(` ${student.email.toUpperCase()} `)).json();
    expect(byEmail.subject).toEqual({
      kind: 'users',
      users: [{ id: student.id, username: student.username, vhNumber: student.vhNumber, email: student.email }],
    });
    expect(byEmail.balances).toEqual([
      { account: expect.objectContaining({ kind: 'student_payments' }), balanceCents: -2_000 },
    ]);
    expect(byEmail.transactions.map((transaction: { id: string }) => transaction.id)).toEqual([payment.transaction.id]);
    // A VH number may be shared: every user who has it is listed, the tutor among them.
    const byVh = (await ledger(String(tutor.vhNumber))).json();
    expect(byVh.subject.users.map((user: { id: string }) => user.id)).toContain(tutor.id);
    expect(byVh.transactions.map((transaction: { id: string }) => transaction.id)).toContain(release.transaction.id);
    expect(byVh.balances).toContainEqual({
      account: expect.objectContaining({
        kind: 'tutor_earnings_available',
        owner: expect.objectContaining({ id: tutor.id }),
      }),
      balanceCents: 1_700,
    });
  });

  it('exports the search as CSV, one line per entry, oldest first, with text that cannot run as a formula', async () => {
    const { subject, request } = await paidAndReleasedJob({
      topic: 'Say "hi", then',
      studentName: `=HYPERLINK(${randomUUID().slice(0, 8)})`,
    });
    const response = await csv(request.id);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="ledger.csv"');
    const lines = response.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('date,transaction,kind,key,job,account,owner,amount_cents,amount_usd');
    expect(lines).toHaveLength(1 + 4 + 3);
    expect(lines[1]).toContain(',payment,');
    // A name that would run as a formula is prefixed; a comma or a quote is quoted.
    expect(lines[1]).toMatch(/,student_payments,'=HYPERLINK\(\w+\) \(VH \d{3}\),-2000,-20\.00$/);
    expect(lines[2]).toContain(`,held_funds,"${subject.name}: Say ""hi"", then",2000,20.00`);
    expect(lines[3]).toMatch(/,provider_fees,Platform,88,0\.88$/);
    expect(lines[7]).toMatch(/,release,.*,platform_commission,Platform,300,3\.00$/);
  });

  it('shows the newest transactions of a long history, and the CSV has them all', async () => {
    const { student, request } = await paidAndReleasedJob();
    for (let index = 0; index < LEDGER_SEARCH_LIMIT; index++) {
      await postLedgerTransaction({
        db: t.db,
        idempotencyKey: `adjustment:${randomUUID()}`,
        kind: 'adjustment',
        requestId: request.id,
        entries: [
          { account: { kind: 'refunds', userId: student.id }, amountCents: 1 },
          { account: { kind: 'platform_commission' }, amountCents: -1 },
        ],
      });
    }
    const answer = (await ledger(request.id)).json();
    expect(answer.transactions).toHaveLength(LEDGER_SEARCH_LIMIT);
    expect(answer.truncated).toBe(true);
    expect(answer.transactions.every((transaction: { kind: string }) => transaction.kind === 'adjustment')).toBe(true);
    const lines = (await csv(request.id)).body.trimEnd().split('\r\n');
    expect(lines).toHaveLength(1 + 4 + 3 + 2 * LEDGER_SEARCH_LIMIT);
  });

  it('counts revenue and held funds on the dashboard only for admins with the payments permission', async () => {
    const both = (await createSessionCookie(t.db, (await createSubAdmin(t.db, ['dashboard', 'payments'])).id)).header;
    const dashboardOnly = (await createSessionCookie(t.db, (await createSubAdmin(t.db, ['dashboard'])).id)).header;
    expect((await get('/api/admin/stats', dashboardOnly)).json().payments).toBeNull();
    const before = (await get('/api/admin/stats', both)).json().payments;
    const { student, request } = await paidAndReleasedJob();
    await postLedgerTransaction({
      db: t.db,
      idempotencyKey: `payment:${randomUUID()}`,
      kind: 'payment',
      requestId: request.id,
      entries: [
        { account: { kind: 'student_payments', userId: student.id }, amountCents: -1_250 },
        { account: { kind: 'held_funds', requestId: request.id }, amountCents: 1_250 },
      ],
    });
    expect((await get('/api/admin/stats', both)).json().payments).toEqual({
      revenueCents: before.revenueCents - 88 + 300,
      heldCents: before.heldCents + 1_250,
    });
  });

  it('compares the test provider’s payments with the ledger’s for a payments admin', async () => {
    expect((await get('/api/admin/payments/reconciliation')).statusCode).toBe(401);
    const response = await get('/api/admin/payments/reconciliation', paymentsAdmin);
    expect(response.statusCode).toBe(200);
    expect(response.json().report).toMatchObject({ provider: 'test', mismatches: [] });
  });

  it('has nothing to reconcile when admins record the payments themselves', async () => {
    const manual = await createTestApp({ PAYMENTS_PROVIDER: 'manual' });
    try {
      const cookie = (await createSessionCookie(manual.db, (await createSubAdmin(manual.db, ['payments'])).id)).header;
      const response = await manual.app.inject({ url: '/api/admin/payments/reconciliation', headers: { cookie } });
      expect(response.json()).toEqual({ report: null });
    } finally {
      await manual.close();
    }
  });

  describe('bank transfers under the manual provider', () => {
    let manual: TestApp;
    let admin: string;
    beforeAll(async () => {
      manual = await createTestApp({ PAYMENTS_PROVIDER: 'manual' });
      admin = (await createSessionCookie(manual.db, (await createSubAdmin(manual.db, ['payments'])).id)).header;
    });
    afterAll(() => manual.close());

    const markPaid = (checkoutId: string, payload: object, cookie = admin) =>
      manual.app.inject({
        method: 'POST',
        url: `/api/admin/payments/transfers/${checkoutId}/paid`,
        headers: { cookie },
        payload,
      });
    const paymentsOf = (checkoutId: string) =>
      manual.db
        .select()
        .from(ledgerTransactions)
        .where(eq(ledgerTransactions.idempotencyKey, `payment:${checkoutId}`));

    it('lists the transfers awaited, and records one as the card’s success would, audited', async () => {
      const awaited = await createCheckout(manual.db, { provider: 'manual' });
      await createCheckout(manual.db, { provider: 'test' });
      await createCheckout(manual.db, { provider: 'manual', expiresAt: new Date(Date.now() - 1_000) });
      const listed = await manual.app.inject({ url: '/api/admin/payments/transfers', headers: { cookie: admin } });
      expect(listed.json().items).toEqual([
        expect.objectContaining({ checkoutId: awaited.id, requestId: awaited.requestId, amountCents: 2_000 }),
      ]);

      expect((await markPaid(awaited.id, { note: '  Bank ref 7731  ' })).statusCode).toBe(204);
      const [paid] = await manual.db.select().from(checkouts).where(eq(checkouts.id, awaited.id));
      expect(paid).toMatchObject({ status: 'paid', providerPaymentId: 'Bank ref 7731', claimToken: null });
      const [job] = await manual.db.select().from(tutoringRequests).where(eq(tutoringRequests.id, awaited.requestId));
      expect(job).toMatchObject({ status: 'accepted', acceptedBidId: awaited.bidId });
      const [posting] = await paymentsOf(awaited.id);
      const entries = await manual.db.select().from(ledgerEntries).where(eq(ledgerEntries.transactionId, posting!.id));
      // A bank transfer has no provider fee: the student's payment is held whole.
      expect(entries.map((entry) => entry.amountCents).sort()).toEqual([-2_000, 2_000]);
      const audit = await manual.db.select().from(adminAuditLog).where(eq(adminAuditLog.objectId, awaited.id));
      expect(audit).toMatchObject([
        {
          action: 'payments.transfer_recorded',
          objectType: 'checkout',
          after: { status: 'paid', amountCents: 2_000, reference: 'Bank ref 7731' },
        },
      ]);

      // Recorded once: a second record is refused and posts nothing.
      const again = await markPaid(awaited.id, { note: 'Bank ref 7731' });
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe(transferMessages.notAwaiting);
      expect(await paymentsOf(awaited.id)).toHaveLength(1);
    });

    it('refuses a missing reference, a card checkout, an unknown one and a closed one, writing nothing', async () => {
      const awaited = await createCheckout(manual.db, { provider: 'manual' });
      for (const payload of [{}, { note: '   ' }, { note: 'x'.repeat(201) }]) {
        const refused = await markPaid(awaited.id, payload);
        expect(refused.statusCode).toBe(400);
        expect(Object.values(transferMessages)).toContain(refused.json().message);
      }
      const card = await createCheckout(manual.db, { provider: 'test' });
      expect((await markPaid(card.id, { note: 'Ref' })).statusCode).toBe(404);
      expect((await markPaid(randomUUID(), { note: 'Ref' })).statusCode).toBe(404);
      const cancelled = await createCheckout(manual.db, { provider: 'manual', status: 'cancelled' });
      expect((await markPaid(cancelled.id, { note: 'Ref' })).statusCode).toBe(409);
      const noPayments = (await createSessionCookie(manual.db, (await createSubAdmin(manual.db, ['dashboard'])).id))
        .header;
      expect((await markPaid(awaited.id, { note: 'Ref' }, noPayments)).statusCode).toBe(403);
      for (const checkout of [awaited, card, cancelled]) expect(await paymentsOf(checkout.id)).toEqual([]);
      const [still] = await manual.db.select().from(checkouts).where(eq(checkouts.id, awaited.id));
      expect(still).toMatchObject({ status: 'awaiting_payment', claimToken: null });
      expect(
        await manual.db.select().from(adminAuditLog).where(eq(adminAuditLog.action, 'payments.transfer_recorded')),
      ).toHaveLength(1);
    });

    it('lists the payouts tutors requested and records the one sent, posted and audited once', async () => {
      const { tutor, payout } = await createRequestedPayout(manual.db);
      const listed = await manual.app.inject({ url: '/api/admin/payments/payouts', headers: { cookie: admin } });
      expect(listed.json().items).toContainEqual({
        payoutId: payout.id,
        tutor: { id: tutor.id, username: tutor.username, vhNumber: tutor.vhNumber },
        amountCents: 1_700,
        requestedAt: payout.createdAt.toISOString(),
      });
      const record = (payload: object, id = payout.id) =>
        manual.app.inject({
          method: 'POST',
          url: `/api/admin/payments/payouts/${id}/paid`,
          headers: { cookie: admin },
          payload,
        });
      expect((await record({ note: ' ' })).statusCode).toBe(400);
      expect((await record({ note: 'Ref' }, randomUUID())).statusCode).toBe(404);
      expect((await record({ note: 'Sent 7732' })).statusCode).toBe(204);
      const [paid] = await manual.db.select().from(payouts).where(eq(payouts.id, payout.id));
      expect(paid).toMatchObject({ status: 'paid', providerPayoutId: 'Sent 7732' });
      const posted = () =>
        manual.db
          .select()
          .from(ledgerTransactions)
          .where(eq(ledgerTransactions.idempotencyKey, `payout:${payout.id}`));
      expect(await posted()).toHaveLength(1);
      expect((await record({ note: 'Sent 7732' })).statusCode).toBe(409);
      expect(await posted()).toHaveLength(1);
      const audit = await manual.db.select().from(adminAuditLog).where(eq(adminAuditLog.objectId, payout.id));
      expect(audit).toMatchObject([{ action: 'payments.payout_recorded', after: { reference: 'Sent 7732' } }]);
      const after = await manual.app.inject({ url: '/api/admin/payments/payouts', headers: { cookie: admin } });
      expect(after.json().items.map((item: { payoutId: string }) => item.payoutId)).not.toContain(payout.id);
    });
  });
});
