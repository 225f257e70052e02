import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signedInStudent, signedInTeacher, type Caller } from '../../../../tests/support/callers.ts';
import { createSessionCookie, createSubAdmin, createSubject } from '../../../../tests/support/factories.ts';
import { startStripeFake, type StripeFake } from '../../../../tests/support/stripe-fake.ts';
import { createStripePaidJob } from '../../../../tests/support/stripe-job.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { users } from '../../db/schema/auth.ts';
import { ledgerAccounts, ledgerEntries, ledgerTransactions } from '../../db/schema/payments.ts';
import { stripeConnectedAccounts, stripeDisputes, stripeTransfers } from '../../db/schema/stripe-connect.ts';
import { runClaimedWorkOnce } from '../../platform/jobs/claimed-work.ts';
import { jobPaymentState, ledgerAccountBalance } from './service.ts';
import { createStripeGateway } from '../../platform/payments/stripe.ts';
import { stripeTransferWork } from './stripe-transfers.ts';

/** Waits for the app's background work (the webhook's events, the transfers) to bring the condition about. */
async function eventually(condition: () => Promise<boolean>) {
  for (let tries = 0; tries < 200; tries++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the condition never held');
}

describe('Stripe Connect payouts (PAYMENTS_PROVIDER=stripe, against a stand-in for Stripe)', () => {
  let t: TestApp;
  let fake: StripeFake;
  let subjectId: string;
  let paymentsAdmin: string;
  beforeAll(async () => {
    fake = await startStripeFake({ webhookSecret: 'whsec_connect' });
    t = await createTestApp({
      PAYMENTS_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_connect',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_connect',
      STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
      STRIPE_CONNECT_WEBHOOK_SECRET: 'whsec_connectedaccounts',
      STRIPE_API_BASE: fake.url,
      PAYMENTS_COMMISSION_PERCENT: '15',
    });
    subjectId = (await createSubject(t.db, { name: 'Biology' })).id;
    paymentsAdmin = (await createSessionCookie(t.db, (await createSubAdmin(t.db, ['payments'])).id)).header;
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const adultTeacher = async () => {
    const tutor = await signedInTeacher(t, [subjectId]);
    await t.db.update(users).set({ adultConfirmedAt: new Date() }).where(eq(users.id, tutor.user.id));
    return tutor;
  };
  const setUp = (tutor: Caller | undefined) => call(t, tutor, 'POST', '/api/earnings/payout-setup');
  const accountOf = async (tutorId: string) =>
    (await t.db.select().from(stripeConnectedAccounts).where(eq(stripeConnectedAccounts.tutorId, tutorId)))[0];
  /** The id of the tutor's connected account, made by a set-up. */
  const accountIdOf = async (tutorId: string) => {
    const accountId = (await accountOf(tutorId))?.accountId;
    if (!accountId) throw new Error('the tutor has no connected account');
    return accountId;
  };
  const earnings = async (tutor: Caller) => (await call(t, tutor, 'GET', '/api/earnings')).json();
  const sendEvent = (event: { body: string; signature: string }) =>
    t.app.inject({
      method: 'POST',
      url: '/api/payments/stripe/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
      payload: event.body,
    });
  /** Stripe's account.updated, from the Connect endpoint (events on connected accounts), signed with its secret. */
  const accountUpdated = (accountId: string, id?: string) =>
    sendEvent(
      fake.signedEvent(
        { id, type: 'account.updated', object: { id: accountId, object: 'account' } },
        { secret: 'whsec_connectedaccounts' },
      ),
    );
  const available = (tutorId: string) =>
    ledgerAccountBalance({ db: t.db, account: { kind: 'tutor_earnings_available', userId: tutorId } });
  const transferOf = async (requestId: string) =>
    (await t.db.select().from(stripeTransfers).where(eq(stripeTransfers.requestId, requestId)))[0];
  const disputeOf = async (id: string) =>
    (await t.db.select().from(stripeDisputes).where(eq(stripeDisputes.id, id)))[0];
  /** What a ledger posting moved, by account kind. */
  const postingOf = async (idempotencyKey: string) => {
    const rows = await t.db
      .select({ kind: ledgerAccounts.kind, cents: ledgerEntries.amountCents })
      .from(ledgerEntries)
      .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
      .where(eq(ledgerTransactions.idempotencyKey, idempotencyKey));
    return Object.fromEntries(rows.map((row) => [row.kind, row.cents]));
  };
  /** A chargeback on the job's charge that Stripe opens, then closes lost, told by its two events. */
  const loseChargeback = async (paymentIntentId: string) => {
    const dispute = fake.openDispute(paymentIntentId);
    await sendEvent(fake.signedEvent({ type: 'charge.dispute.created', object: { id: dispute.id } }));
    await eventually(async () => (await disputeOf(dispute.id)) !== undefined);
    fake.closeDispute(dispute.id, 'lost');
    await sendEvent(fake.signedEvent({ type: 'charge.dispute.closed', object: { id: dispute.id } }));
    await eventually(async () => (await postingOf(`dispute:${dispute.id}`)).refunds !== undefined);
    return dispute.id;
  };
  /** A tutor whose payouts Stripe has enabled (onboarding finished, told by account.updated). */
  const onboardedTeacher = async () => {
    const tutor = await adultTeacher();
    await setUp(tutor);
    const accountId = await accountIdOf(tutor.user.id);
    fake.updateAccount(accountId, { payouts_enabled: true });
    await accountUpdated(accountId);
    await eventually(async () => (await accountOf(tutor.user.id))!.payoutsEnabled);
    return tutor;
  };

  it('makes one Express account per teacher and answers an onboarding address back to Earnings', async () => {
    const tutor = await adultTeacher();
    // Pressed twice at once, the two answers name one account, both asked for under the one key.
    const [first, second] = await Promise.all([setUp(tutor), setUp(tutor)]);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    const account = { ...(await accountOf(tutor.user.id))!, accountId: await accountIdOf(tutor.user.id) };
    expect(account).toMatchObject({ idempotencyKey: `connect-account:${tutor.user.id}`, payoutsEnabled: false });
    expect(first.json()).toEqual({ url: `https://connect.stripe.fake/setup/${account.accountId}` });
    expect(second.json()).toEqual(first.json());
    const creationsOf = (tutorId: string) =>
      fake.requestsTo('POST', '/v1/accounts').filter((request) => request.form['metadata[tutor_id]'] === tutorId);
    expect(creationsOf(tutor.user.id).every((r) => r.idempotencyKey === `connect-account:${tutor.user.id}`)).toBe(true);
    // Pressed one after the other, the account is made by the first only.
    const other = await adultTeacher();
    expect((await setUp(other)).statusCode).toBe(200);
    expect((await setUp(other)).statusCode).toBe(200);
    const creations = creationsOf(other.user.id);
    expect(creations).toHaveLength(1);
    expect(creations[0]!.form).toMatchObject({ type: 'express', 'capabilities[transfers][requested]': 'true' });
    expect(creations[0]!.stripeVersion).toBe('2026-10-28.endive');
    const link = fake
      .requestsTo('POST', '/v1/account_links')
      .findLast((request) => request.form.account === account.accountId)!;
    expect(link.form).toMatchObject({
      account: account.accountId,
      type: 'account_onboarding',
      return_url: `${t.config.publicUrl}/earnings?payout-setup=return`,
      refresh_url: `${t.config.publicUrl}/earnings?payout-setup=refresh`,
    });

    // Earnings shows it started, not enabled; back from Stripe the tutor's state is asked of Stripe at once.
    expect((await earnings(tutor)).payoutSetup).toEqual({
      started: true,
      payoutsEnabled: false,
      requirementsDue: [],
    });
    const back = await call(t, tutor, 'GET', '/api/earnings/payout-setup');
    expect(back.json()).toEqual({
      started: true,
      payoutsEnabled: false,
      requirementsDue: ['external_account', 'individual.dob.day'],
    });
    fake.updateAccount(account.accountId, { payouts_enabled: true });
    expect((await call(t, tutor, 'GET', '/api/earnings/payout-setup')).json()).toMatchObject({ payoutsEnabled: true });
  });

  it('finds the account a set-up made before its key expired, rather than making a second one', async () => {
    const tutor = await adultTeacher();
    const key = `connect-account:${tutor.user.id}`;
    // A set-up that made the account at Stripe, then crashed before writing its id, over a day ago.
    const made = await createStripeGateway(t.config.payments.stripe!).createConnectedAccount({
      idempotencyKey: key,
      tutorId: tutor.user.id,
    });
    await t.db.insert(stripeConnectedAccounts).values({
      tutorId: tutor.user.id,
      idempotencyKey: key,
      createdAt: new Date(Date.now() - 25 * 60 * 60 * 1000),
    });
    fake.expireIdempotencyKey(key);

    const answer = await setUp(tutor);
    expect(answer.json()).toEqual({ url: `https://connect.stripe.fake/setup/${made.accountId}` });
    expect(await accountOf(tutor.user.id)).toMatchObject({ accountId: made.accountId });
    expect(fake.requestsTo('POST', '/v1/accounts').filter((r) => r.idempotencyKey === key)).toHaveLength(1);
  });

  it('refuses set-up without a session, to students, without the adult confirmation, and when Stripe fails', async () => {
    expect((await setUp(undefined)).statusCode).toBe(401);
    expect((await call(t, undefined, 'GET', '/api/earnings/payout-setup')).statusCode).toBe(401);
    const student = await signedInStudent(t);
    expect((await setUp(student)).statusCode).toBe(403);
    expect((await call(t, student, 'GET', '/api/earnings/payout-setup')).statusCode).toBe(403);

    const minor = await signedInTeacher(t, [subjectId]);
    const refused = await setUp(minor);
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'ADULT_CONFIRMATION_REQUIRED']);
    expect((await call(t, minor, 'GET', '/api/earnings/payout-setup')).statusCode).toBe(404);

    const tutor = await adultTeacher();
    fake.failNext('/v1/accounts', { status: 400, message: 'Connect is not enabled on this platform.' });
    const failed = await setUp(tutor);
    expect([failed.statusCode, failed.json().code]).toEqual([502, 'PAYOUT_SETUP_FAILED']);
    expect(await accountOf(tutor.user.id)).toMatchObject({ accountId: null });
    expect((await earnings(tutor)).payoutSetup).toMatchObject({ started: false });
    expect((await call(t, tutor, 'GET', '/api/earnings/payout-setup')).statusCode).toBe(404);
    expect(await accountOf(minor.user.id)).toBeUndefined();
    expect((await setUp(tutor)).statusCode).toBe(200);
  });

  it('stores account.updated once per event, reading the account from Stripe', async () => {
    const tutor = await adultTeacher();
    await setUp(tutor);
    const accountId = await accountIdOf(tutor.user.id);
    fake.updateAccount(accountId, { payouts_enabled: true });
    const reads = fake.requestsTo('GET', `/v1/accounts/${accountId}`).length;
    expect((await accountUpdated(accountId, 'evt_account_once')).statusCode).toBe(200);
    expect((await accountUpdated(accountId, 'evt_account_once')).statusCode).toBe(200);
    await eventually(async () => (await accountOf(tutor.user.id))!.payoutsEnabled);
    expect(await accountOf(tutor.user.id)).toMatchObject({ chargesEnabled: true, requirementsDue: [] });
    expect(fake.requestsTo('GET', `/v1/accounts/${accountId}`).length).toBe(reads + 1);
    // An account no tutor here has is not ours: nothing is asked or kept.
    expect((await accountUpdated('acct_someone_else')).statusCode).toBe(200);
    // A signature by neither endpoint's secret is refused.
    const forged = fake.signedEvent(
      { type: 'account.updated', object: { id: accountId, object: 'account' } },
      { secret: 'whsec_someoneelse' },
    );
    expect((await sendEvent(forged)).statusCode).toBe(400);
  });

  it('keeps a released share available until payouts are enabled, then transfers it once from the charge', async () => {
    const tutor = await adultTeacher();
    const { student, requestId, paymentIntentId } = await createStripePaidJob(t, fake, { subjectId, tutor });
    expect((await call(t, student, 'POST', `/api/requests/${requestId}/complete`)).statusCode).toBe(200);

    expect(await transferOf(requestId)).toMatchObject({ status: 'waiting', amountCents: 1_700 });
    const waiting = await earnings(tutor);
    expect(waiting).toMatchObject({
      availableCents: 1_700,
      paidOutCents: 0,
      payoutSetup: { started: false, payoutsEnabled: false },
      transfers: [{ requestId, amountCents: 1_700, status: 'waiting', transferredAt: null }],
    });
    const work = stripeTransferWork({ db: t.db, stripe: createStripeGateway(t.config.payments.stripe!) });
    expect(await runClaimedWorkOnce({ db: t.db, work, log: t.app.log })).toBe(0);
    // There is no payout to ask for under Stripe.
    const payout = await call(
      t,
      tutor,
      'POST',
      '/api/earnings/payouts',
      {},
      {
        headers: { 'idempotency-key': crypto.randomUUID() },
      },
    );
    expect(payout.statusCode).toBe(404);

    await setUp(tutor);
    const accountId = await accountIdOf(tutor.user.id);
    fake.updateAccount(accountId, { payouts_enabled: true });
    await accountUpdated(accountId);
    await eventually(async () => (await transferOf(requestId))!.status === 'transferred');

    const calls = fake.requestsTo('POST', '/v1/transfers').filter((r) => r.idempotencyKey === `transfer:${requestId}`);
    expect(calls).toHaveLength(1);
    const chargeId = String(fake.object(paymentIntentId)!.latest_charge);
    expect(calls[0]!.form).toEqual({
      amount: '1700',
      currency: 'usd',
      destination: accountId,
      source_transaction: chargeId,
      transfer_group: requestId,
    });
    const made = (await transferOf(requestId))!;
    expect(fake.object(made.stripeTransferId!)).toMatchObject({ amount: 1_700, destination: accountId });
    expect(await earnings(tutor)).toMatchObject({
      availableCents: 0,
      paidOutCents: 1_700,
      transfers: [{ requestId, status: 'transferred' }],
    });
    expect(await t.db.$count(ledgerTransactions, eq(ledgerTransactions.idempotencyKey, `transfer:${requestId}`))).toBe(
      1,
    );
    expect(await runClaimedWorkOnce({ db: t.db, work, log: t.app.log })).toBe(0);
  });

  it('leaves a transfer Stripe refused waiting, nothing posted, and makes it on the next try', async () => {
    const tutor = await onboardedTeacher();
    const { student, requestId } = await createStripePaidJob(t, fake, { subjectId, tutor, cents: 3_000 });
    const work = stripeTransferWork({ db: t.db, stripe: createStripeGateway(t.config.payments.stripe!) });
    fake.failNext('/v1/transfers', { status: 400, message: 'Insufficient funds in Stripe account.' });
    expect((await call(t, student, 'POST', `/api/requests/${requestId}/complete`)).statusCode).toBe(200);
    expect(await runClaimedWorkOnce({ db: t.db, work, log: t.app.log })).toBe(1);
    expect(await transferOf(requestId)).toMatchObject({ status: 'waiting', amountCents: 2_550 });
    expect(await available(tutor.user.id)).toBe(2_550);
    const transferPostings = () =>
      t.db.$count(
        ledgerTransactions,
        and(eq(ledgerTransactions.requestId, requestId), eq(ledgerTransactions.kind, 'payout')),
      );
    expect(await transferPostings()).toBe(0);

    // Its claim lapses and the next run makes it, once.
    await t.db.update(stripeTransfers).set({ claimedUntil: null }).where(eq(stripeTransfers.requestId, requestId));
    await runClaimedWorkOnce({ db: t.db, work, log: t.app.log });
    await eventually(async () => (await transferOf(requestId))!.status === 'transferred');
    expect(await available(tutor.user.id)).toBe(0);
    expect(await transferPostings()).toBe(1);
  });

  it('freezes a job on a chargeback, lists it for admins, and gives the money back when it is lost', async () => {
    const tutor = await onboardedTeacher();
    const { student, requestId, paymentIntentId } = await createStripePaidJob(t, fake, { subjectId, tutor });
    const dispute = fake.openDispute(paymentIntentId, { reason: 'fraudulent' });
    const opened = fake.signedEvent({ type: 'charge.dispute.created', object: { id: dispute.id, object: 'dispute' } });
    expect((await sendEvent(opened)).statusCode).toBe(200);
    await eventually(async () => (await jobPaymentState({ db: t.db, requestId })) === 'frozen');

    // Frozen: the job cannot be completed, and nothing is released.
    expect((await call(t, student, 'POST', `/api/requests/${requestId}/complete`)).statusCode).toBe(409);
    expect(await available(tutor.user.id)).toBe(0);
    expect(await transferOf(requestId)).toBeUndefined();
    const queue = await t.app.inject({
      method: 'GET',
      url: '/api/admin/payments/disputes',
      headers: { cookie: paymentsAdmin },
    });
    expect(queue.json().chargebacks).toContainEqual(
      expect.objectContaining({
        id: dispute.id,
        requestId,
        amountCents: 2_000,
        reason: 'fraudulent',
        stripeStatus: 'needs_response',
        outcome: null,
        closedAt: null,
      }),
    );

    fake.closeDispute(dispute.id, 'lost');
    const closed = fake.signedEvent({ type: 'charge.dispute.closed', object: { id: dispute.id, object: 'dispute' } });
    expect((await sendEvent(closed)).statusCode).toBe(200);
    // A repeat of the opening, arriving late, changes nothing.
    expect(
      (await sendEvent(fake.signedEvent({ type: 'charge.dispute.created', object: { id: dispute.id } }))).statusCode,
    ).toBe(200);
    await eventually(async () => (await jobPaymentState({ db: t.db, requestId })) === 'refunded');
    // The late repeat of the opening has been processed too (its event is kept once done).
    await eventually(async () => (await disputeOf(dispute.id))?.outcome === 'lost');
    expect(await ledgerAccountBalance({ db: t.db, account: { kind: 'held_funds', requestId } })).toBe(0);
    expect(await ledgerAccountBalance({ db: t.db, account: { kind: 'refunds', userId: student.user.id } })).toBe(2_000);
    expect(await t.db.$count(ledgerTransactions, eq(ledgerTransactions.idempotencyKey, `dispute:${dispute.id}`))).toBe(
      1,
    );
    expect(await transferOf(requestId)).toBeUndefined();
  });

  it('releases a job again once the chargeback is won', async () => {
    const tutor = await onboardedTeacher();
    const { student, requestId, paymentIntentId } = await createStripePaidJob(t, fake, { subjectId, tutor });
    const dispute = fake.openDispute(paymentIntentId);
    await sendEvent(fake.signedEvent({ type: 'charge.dispute.created', object: { id: dispute.id } }));
    await eventually(async () => (await jobPaymentState({ db: t.db, requestId })) === 'frozen');
    fake.closeDispute(dispute.id, 'won');
    await sendEvent(fake.signedEvent({ type: 'charge.dispute.closed', object: { id: dispute.id } }));
    await eventually(async () => (await jobPaymentState({ db: t.db, requestId })) === 'held');
    expect((await call(t, student, 'POST', `/api/requests/${requestId}/complete`)).statusCode).toBe(200);
    expect(await transferOf(requestId)).toMatchObject({ amountCents: 1_700 });
  });

  it("takes a chargeback lost after release from the tutor's waiting transfer, which never goes out", async () => {
    const tutor = await adultTeacher();
    const { student, requestId, paymentIntentId } = await createStripePaidJob(t, fake, { subjectId, tutor });
    expect((await call(t, student, 'POST', `/api/requests/${requestId}/complete`)).statusCode).toBe(200);
    expect(await transferOf(requestId)).toMatchObject({ status: 'waiting', amountCents: 1_700 });

    const disputeId = await loseChargeback(paymentIntentId);
    // The card holder's 2000 came back from the tutor's unsent 1700 and the platform's 300 commission.
    expect(await postingOf(`dispute:${disputeId}`)).toEqual({
      tutor_earnings_available: -1_700,
      platform_commission: -300,
      refunds: 2_000,
    });
    expect(await transferOf(requestId)).toMatchObject({ status: 'cancelled', stripeTransferId: null });
    expect(await available(tutor.user.id)).toBe(0);

    // Payouts enabled afterwards: nothing leaves for the job.
    await setUp(tutor);
    const accountId = await accountIdOf(tutor.user.id);
    fake.updateAccount(accountId, { payouts_enabled: true });
    await accountUpdated(accountId);
    await eventually(async () => (await accountOf(tutor.user.id))!.payoutsEnabled);
    const work = stripeTransferWork({ db: t.db, stripe: createStripeGateway(t.config.payments.stripe!) });
    expect(await runClaimedWorkOnce({ db: t.db, work, log: t.app.log })).toBe(0);
    expect(fake.requestsTo('POST', '/v1/transfers').filter((r) => r.form.destination === accountId)).toHaveLength(0);
    expect(await earnings(tutor)).toMatchObject({ availableCents: 0, paidOutCents: 0 });
  });

  it('leaves a tutor whose share was sent owing a chargeback lost after it, paid back from their next share', async () => {
    const tutor = await onboardedTeacher();
    const accountId = await accountIdOf(tutor.user.id);
    const work = stripeTransferWork({ db: t.db, stripe: createStripeGateway(t.config.payments.stripe!) });
    const first = await createStripePaidJob(t, fake, { subjectId, tutor });
    expect((await call(t, first.student, 'POST', `/api/requests/${first.requestId}/complete`)).statusCode).toBe(200);
    await runClaimedWorkOnce({ db: t.db, work, log: t.app.log });
    expect(await transferOf(first.requestId)).toMatchObject({ status: 'transferred' });

    const disputeId = await loseChargeback(first.paymentIntentId);
    expect(await postingOf(`dispute:${disputeId}`)).toMatchObject({ tutor_earnings_available: -1_700 });
    expect(await available(tutor.user.id)).toBe(-1_700);

    // The next job's 1700 pays the debt back: nothing is transferred for it; the one after goes out whole.
    const second = await createStripePaidJob(t, fake, { subjectId, tutor });
    expect((await call(t, second.student, 'POST', `/api/requests/${second.requestId}/complete`)).statusCode).toBe(200);
    expect(await transferOf(second.requestId)).toBeUndefined();
    expect(await available(tutor.user.id)).toBe(0);
    const third = await createStripePaidJob(t, fake, { subjectId, tutor });
    expect((await call(t, third.student, 'POST', `/api/requests/${third.requestId}/complete`)).statusCode).toBe(200);
    await runClaimedWorkOnce({ db: t.db, work, log: t.app.log });
    expect(await transferOf(third.requestId)).toMatchObject({ status: 'transferred', amountCents: 1_700 });
    const sent = fake.requestsTo('POST', '/v1/transfers').filter((r) => r.form.destination === accountId);
    expect(sent.map((r) => r.form.amount)).toEqual(['1700', '1700']);
    expect(await available(tutor.user.id)).toBe(0);
  });
});
