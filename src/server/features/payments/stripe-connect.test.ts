import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signedInStudent, signedInTeacher, type Caller } from '../../../../tests/support/callers.ts';
import { createSessionCookie, createSubAdmin, createSubject } from '../../../../tests/support/factories.ts';
import { startStripeFake, type StripeFake } from '../../../../tests/support/stripe-fake.ts';
import { createStripePaidJob } from '../../../../tests/support/stripe-job.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { eventually } from '../../../../tests/support/time.ts';
import { adminAuditLog } from '../../db/schema/admin.ts';
import { users } from '../../db/schema/auth.ts';
import { ledgerTransactions, paymentAdjustments } from '../../db/schema/payments.ts';
import { stripeConnectedAccounts, stripeDisputes, stripeTransfers } from '../../db/schema/stripe-connect.ts';
import { runClaimedWorkOnce } from '../../platform/jobs/claimed-work.ts';
import { jobPaymentState, ledgerAccountBalance, postingCentsByKind } from './service.ts';
import { createStripeGateway } from '../../platform/payments/stripe.ts';
import { PAYOUT_SETUP_CHECKS, PAYOUT_SETUP_LINKS } from './stripe-connect.ts';
import { stripeTransferWork } from './stripe-transfers.ts';
import { adjustmentWork } from './adjustments.ts';
import { adjustmentMessages } from '#shared/schemas/admin-payments.ts';

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
  const postingOf = (idempotencyKey: string) => postingCentsByKind(t.db, idempotencyKey);
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
    // Told once, the state is kept: asked again, it is read from the database, not from Stripe.
    fake.updateAccount(account.accountId, { payouts_enabled: true });
    const reads = () => fake.requestsTo('GET', `/v1/accounts/${account.accountId}`).length;
    const readsBefore = reads();
    expect((await call(t, tutor, 'GET', '/api/earnings/payout-setup')).json()).toMatchObject({ payoutsEnabled: false });
    expect(reads()).toBe(readsBefore);
    // Back from onboarding, Stripe is asked now.
    const returned = await call(t, tutor, 'GET', '/api/earnings/payout-setup?from=onboarding');
    expect(returned.json()).toMatchObject({ payoutsEnabled: true });
    expect(reads()).toBe(readsBefore + 1);
    expect((await call(t, tutor, 'GET', '/api/earnings/payout-setup?from=elsewhere')).statusCode).toBe(400);
  });

  it('bounds the onboarding links and the returns that ask Stripe, per teacher', async () => {
    const tutor = await adultTeacher();
    const { max, message } = PAYOUT_SETUP_LINKS;
    for (let n = 0; n < max; n++) expect((await setUp(tutor)).statusCode).toBe(200);
    const links = () => fake.requestsTo('POST', '/v1/account_links').length;
    const linksBefore = links();
    const refused = await setUp(tutor);
    expect([refused.statusCode, refused.json().message]).toEqual([429, message]);
    expect(links()).toBe(linksBefore);
    // Another teacher is not held back.
    expect((await setUp(await adultTeacher())).statusCode).toBe(200);

    const accountId = await accountIdOf(tutor.user.id);
    const reads = () => fake.requestsTo('GET', `/v1/accounts/${accountId}`).length;
    const back = () => call(t, tutor, 'GET', '/api/earnings/payout-setup?from=onboarding');
    for (let n = 0; n < PAYOUT_SETUP_CHECKS.max; n++) expect((await back()).statusCode).toBe(200);
    const readsBefore = reads();
    // Past the bound a return answers what is stored, without asking Stripe.
    fake.updateAccount(accountId, { payouts_enabled: true });
    const stored = await back();
    expect([stored.statusCode, stored.json().payoutsEnabled]).toEqual([200, false]);
    expect(reads()).toBe(readsBefore);
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

  const transferPostings = (requestId: string) =>
    t.db.$count(
      ledgerTransactions,
      and(eq(ledgerTransactions.requestId, requestId), eq(ledgerTransactions.kind, 'payout')),
    );
  const transferCalls = (requestId: string) =>
    fake.requestsTo('POST', '/v1/transfers').filter((r) => r.form.transfer_group === requestId);
  /** The transfer's next try is due now (its backoff passed). */
  const dueNow = (requestId: string) =>
    t.db.update(stripeTransfers).set({ nextAttemptAt: new Date() }).where(eq(stripeTransfers.requestId, requestId));

  it('tries a transfer Stripe could not answer again after a backoff, under the same key, nothing posted meanwhile', async () => {
    const tutor = await onboardedTeacher();
    const { student, requestId } = await createStripePaidJob(t, fake, { subjectId, tutor, cents: 3_000 });
    const work = stripeTransferWork({ db: t.db, stripe: createStripeGateway(t.config.payments.stripe!) });
    // Stripe down: the call and the SDK's two retries of it fail.
    fake.failNext('/v1/transfers', { status: 500, times: 3 });
    expect((await call(t, student, 'POST', `/api/requests/${requestId}/complete`)).statusCode).toBe(200);
    expect(await runClaimedWorkOnce({ db: t.db, work, log: t.app.log })).toBe(1);
    const waiting = (await transferOf(requestId))!;
    expect(waiting).toMatchObject({ status: 'waiting', amountCents: 2_550, attempts: 1 });
    expect(waiting.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 50_000);
    expect(waiting.lastError).toBeTruthy();
    expect(await available(tutor.user.id)).toBe(2_550);
    expect(await transferPostings(requestId)).toBe(0);
    expect((await earnings(tutor)).transfers).toEqual([expect.objectContaining({ status: 'waiting', delayed: true })]);
    // Not due before its backoff has passed.
    expect(await runClaimedWorkOnce({ db: t.db, work, log: t.app.log })).toBe(0);

    await dueNow(requestId);
    await runClaimedWorkOnce({ db: t.db, work, log: t.app.log });
    expect(await transferOf(requestId)).toMatchObject({ status: 'transferred', attempts: 2, lastError: null });
    expect(new Set(transferCalls(requestId).map((r) => r.idempotencyKey))).toEqual(new Set([`transfer:${requestId}`]));
    expect(await available(tutor.user.id)).toBe(0);
    expect(await transferPostings(requestId)).toBe(1);
    expect((await earnings(tutor)).transfers).toEqual([
      expect.objectContaining({ status: 'transferred', delayed: false }),
    ]);
  });

  it('fails a transfer after its last try, which an admin retries (audited) under a new key, made at once', async () => {
    const tutor = await onboardedTeacher();
    const { student, requestId } = await createStripePaidJob(t, fake, { subjectId, tutor });
    const work = stripeTransferWork({ db: t.db, stripe: createStripeGateway(t.config.payments.stripe!) });
    expect((await call(t, student, 'POST', `/api/requests/${requestId}/complete`)).statusCode).toBe(200);
    // Seven tries failed already: the eighth is the last.
    await t.db.update(stripeTransfers).set({ attempts: 7 }).where(eq(stripeTransfers.requestId, requestId));
    fake.failNext('/v1/transfers', { status: 500, times: 3 });
    await runClaimedWorkOnce({ db: t.db, work, log: t.app.log });
    const failed = (await transferOf(requestId))!;
    expect(failed).toMatchObject({ status: 'failed', attempts: 8 });
    await dueNow(requestId);
    expect(await runClaimedWorkOnce({ db: t.db, work, log: t.app.log })).toBe(0);
    expect((await earnings(tutor)).transfers).toEqual([expect.objectContaining({ status: 'failed', delayed: true })]);
    expect((await earnings(tutor)).availableCents).toBe(1_700);

    const retry = (cookie?: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/admin/payments/failed-transfers/${failed.id}/retry`,
        headers: cookie ? { cookie } : {},
      });
    expect((await retry()).statusCode).toBe(401);
    expect((await call(t, tutor, 'POST', `/api/admin/payments/failed-transfers/${failed.id}/retry`)).statusCode).toBe(
      403,
    );
    expect(await transferOf(requestId)).toMatchObject({ status: 'failed', retries: 0 });
    expect((await retry(paymentsAdmin)).statusCode).toBe(204);
    expect((await retry(paymentsAdmin)).statusCode).toBe(409);
    const [audit] = await t.db
      .select()
      .from(adminAuditLog)
      .where(and(eq(adminAuditLog.action, 'payments.stripe_transfer_retried'), eq(adminAuditLog.objectId, failed.id)));
    expect(audit).toMatchObject({
      before: { status: 'failed', attempts: 8 },
      after: { status: 'waiting', retries: 1 },
    });

    // The Retry wakes the app's transfers at once: no pass of the minute's work is waited for.
    await eventually(async () => (await transferOf(requestId))!.status === 'transferred');
    expect(await transferOf(requestId)).toMatchObject({ status: 'transferred', attempts: 1 });
    expect(transferCalls(requestId).at(-1)!.idempotencyKey).toBe(`transfer:${requestId}:retry-1`);
    expect(await transferPostings(requestId)).toBe(1);
    expect(fake.object((await transferOf(requestId))!.stripeTransferId!)).toMatchObject({ amount: 1_700 });
  });

  it('fails a transfer Stripe refuses at once, lists it for admins, and a retry records one an earlier key made', async () => {
    const tutor = await onboardedTeacher();
    const accountId = await accountIdOf(tutor.user.id);
    const { student, requestId, paymentIntentId } = await createStripePaidJob(t, fake, { subjectId, tutor });
    const stripe = createStripeGateway(t.config.payments.stripe!);
    const work = stripeTransferWork({ db: t.db, stripe });
    fake.refuseTransfersTo(accountId, 'Your destination account needs to have at least one capability enabled.');
    expect((await call(t, student, 'POST', `/api/requests/${requestId}/complete`)).statusCode).toBe(200);
    await runClaimedWorkOnce({ db: t.db, work, log: t.app.log });
    const failed = (await transferOf(requestId))!;
    expect(failed).toMatchObject({ status: 'failed', attempts: 1, lastError: expect.stringContaining('capability') });
    expect(transferCalls(requestId)).toHaveLength(1);
    const listed = await t.app.inject({
      url: '/api/admin/payments/failed-transfers',
      headers: { cookie: paymentsAdmin },
    });
    expect(listed.json().items).toContainEqual(
      expect.objectContaining({
        id: failed.id,
        requestId,
        amountCents: 1_700,
        attempts: 1,
        tutor: expect.objectContaining({ id: tutor.user.id }),
      }),
    );

    // Stripe made it after all under the first key (say, support replayed it): a retry finds it instead of making one.
    fake.refuseTransfersTo(accountId, null);
    fake.expireIdempotencyKey(`transfer:${requestId}`);
    const { chargeId } = await stripe.chargeOf(paymentIntentId);
    const madeEarlier = await stripe.transfer({
      idempotencyKey: `transfer:${requestId}`,
      amountCents: 1_700,
      accountId,
      chargeId,
      transferGroup: requestId,
    });
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/admin/payments/failed-transfers/${failed.id}/retry`,
          headers: { cookie: paymentsAdmin },
        })
      ).statusCode,
    ).toBe(204);
    await eventually(async () => (await transferOf(requestId))!.status === 'transferred');
    expect(await transferOf(requestId)).toMatchObject({
      status: 'transferred',
      stripeTransferId: madeEarlier.transferId,
    });
    expect(transferCalls(requestId)).toHaveLength(2);
    expect(await transferPostings(requestId)).toBe(1);
    expect(await available(tutor.user.id)).toBe(0);
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

  it('keeps a chargeback on the job of a student erased since in the admins’ queue, its money left to them', async () => {
    const tutor = await onboardedTeacher();
    const { student, requestId, paymentIntentId } = await createStripePaidJob(t, fake, { subjectId, tutor });
    await t.db.update(users).set({ erasedAt: new Date() }).where(eq(users.id, student.user.id));
    const dispute = fake.openDispute(paymentIntentId, { feeCents: 1_500 });
    expect(
      (await sendEvent(fake.signedEvent({ type: 'charge.dispute.created', object: { id: dispute.id } }))).statusCode,
    ).toBe(200);
    await eventually(async () => (await disputeOf(dispute.id)) !== undefined);
    expect(await disputeOf(dispute.id)).toMatchObject({ requestId, stripeStatus: 'needs_response', outcome: null });
    // The fee's posting names the job of an erased person: refused, for the admins to settle by hand.
    expect(
      await t.db.$count(
        ledgerTransactions,
        and(eq(ledgerTransactions.requestId, requestId), eq(ledgerTransactions.kind, 'provider_fee')),
      ),
    ).toBe(0);
  });

  it("posts Stripe's dispute fee once from its balance transaction, and its return, whatever the events' order", async () => {
    const tutor = await onboardedTeacher();
    const { paymentIntentId, requestId } = await createStripePaidJob(t, fake, { subjectId, tutor });
    const feesOf = async () =>
      t.db
        .select({ key: ledgerTransactions.idempotencyKey, kind: ledgerTransactions.kind })
        .from(ledgerTransactions)
        .where(
          and(
            eq(ledgerTransactions.requestId, requestId),
            sql`${ledgerTransactions.idempotencyKey} like 'dispute-fee:%'`,
          ),
        );
    const platform = async () => ({
      fees: await ledgerAccountBalance({ db: t.db, account: { kind: 'provider_fees' } }),
      commission: await ledgerAccountBalance({ db: t.db, account: { kind: 'platform_commission' } }),
    });
    const before = await platform();
    const dispute = fake.openDispute(paymentIntentId, { feeCents: 1_900 });
    const created = fake.signedEvent({ type: 'charge.dispute.created', object: { id: dispute.id } });
    // Delivered twice, and once more under another event id: the fee is posted once.
    for (const event of [
      created,
      created,
      fake.signedEvent({ type: 'charge.dispute.created', object: { id: dispute.id } }),
    ])
      expect((await sendEvent(event)).statusCode).toBe(200);
    await eventually(async () => (await feesOf()).length === 1);
    const [withdrawal] = dispute.balance_transactions as { id: string }[];
    expect(await postingOf(`dispute-fee:${withdrawal!.id}`)).toEqual({
      provider_fees: 1_900,
      platform_commission: -1_900,
    });
    expect(await platform()).toEqual({ fees: before.fees + 1_900, commission: before.commission - 1_900 });

    // Won: Stripe gives the amount and the fee back. Its funds_reinstated comes before the closed event here.
    fake.closeDispute(dispute.id, 'won');
    const [, reinstatement] = dispute.balance_transactions as { id: string }[];
    await sendEvent(fake.signedEvent({ type: 'charge.dispute.funds_reinstated', object: { id: dispute.id } }));
    await eventually(async () => (await feesOf()).length === 2);
    await sendEvent(fake.signedEvent({ type: 'charge.dispute.closed', object: { id: dispute.id } }));
    await eventually(async () => (await jobPaymentState({ db: t.db, requestId })) === 'held');
    await eventually(async () => (await disputeOf(dispute.id))?.outcome === 'won');
    expect(await postingOf(`dispute-fee:${reinstatement!.id}`)).toEqual({
      provider_fees: -1_900,
      platform_commission: 1_900,
    });
    expect((await feesOf()).map((fee) => fee.kind)).toEqual(['provider_fee', 'provider_fee']);
    expect(await platform()).toEqual(before);
  });

  it('keeps the dispute fee spent when Stripe does not return it with a won chargeback', async () => {
    const tutor = await onboardedTeacher();
    const { paymentIntentId, requestId } = await createStripePaidJob(t, fake, { subjectId, tutor });
    const dispute = fake.openDispute(paymentIntentId);
    fake.closeDispute(dispute.id, 'won', { feeReturned: false });
    // Only the closing is heard: it reads both balance transactions, and posts the one fee there is.
    await sendEvent(fake.signedEvent({ type: 'charge.dispute.closed', object: { id: dispute.id } }));
    await eventually(async () => (await disputeOf(dispute.id))?.outcome === 'won');
    const [withdrawal] = dispute.balance_transactions as { id: string }[];
    expect(await postingOf(`dispute-fee:${withdrawal!.id}`)).toEqual({
      provider_fees: 1_500,
      platform_commission: -1_500,
    });
    expect(
      await t.db.$count(
        ledgerTransactions,
        and(eq(ledgerTransactions.requestId, requestId), eq(ledgerTransactions.kind, 'provider_fee')),
      ),
    ).toBe(1);
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

  const adjust = (requestId: string, amountCents: number) =>
    t.app.inject({
      method: 'POST',
      url: `/api/admin/payments/jobs/${requestId}/adjustment`,
      headers: { cookie: paymentsAdmin },
      payload: { amountCents, note: 'The last session never happened.' },
    });
  /** One run of the adjustments' periodic work, as the app makes it. */
  const runAdjustmentWork = () => {
    const ctx = {
      publicUrl: t.config.publicUrl,
      operator: t.config.operator,
      log: t.app.log,
      stripe: createStripeGateway(t.config.payments.stripe!),
    };
    return runClaimedWorkOnce({ db: t.db, work: adjustmentWork({ db: t.db, ctx }), log: t.app.log });
  };
  const reversalCalls = (transferId: string) => fake.requestsTo('POST', `/v1/transfers/${transferId}/reversals`);
  /** A job of the tutor's, completed, its share transferred to their account. */
  const transferredJob = async (tutor: Caller) => {
    const job = await createStripePaidJob(t, fake, { subjectId, tutor });
    expect((await call(t, job.student, 'POST', `/api/requests/${job.requestId}/complete`)).statusCode).toBe(200);
    const work = stripeTransferWork({ db: t.db, stripe: createStripeGateway(t.config.payments.stripe!) });
    await runClaimedWorkOnce({ db: t.db, work, log: t.app.log });
    const transfer = (await transferOf(job.requestId))!;
    expect(transfer).toMatchObject({ status: 'transferred', amountCents: 1_700 });
    return { ...job, transferId: transfer.stripeTransferId! };
  };

  it("refunds an adjustment after release and reverses the tutor's part of the transfer, each under its own key, once", async () => {
    const tutor = await onboardedTeacher();
    const { student, requestId, paymentIntentId, transferId } = await transferredJob(tutor);
    // Stripe down for the first reversal call and the SDK's two retries: made again under the same key.
    fake.failNext(`/v1/transfers/${transferId}/reversals`, { status: 500, times: 3 });
    const answer = await adjust(requestId, 1_000);
    expect(answer.statusCode).toBe(200);
    const made = answer.json();
    expect(made).toMatchObject({ amountCents: 1_000, tutorCents: 850, commissionCents: 150 });

    const refunds = fake.requestsTo('POST', '/v1/refunds').filter((r) => r.form.payment_intent === paymentIntentId);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({
      form: { payment_intent: paymentIntentId, amount: '1000' },
      idempotencyKey: `adjustment:${made.id}`,
      stripeVersion: '2026-10-28.endive',
    });
    // Refunded, the reversal is still to make: Stripe answered none of its three calls.
    expect(made).toMatchObject({ status: 'reversing', tutorOutcome: null, lastError: expect.any(String) });
    expect(reversalCalls(transferId)).toHaveLength(3);
    // Its claim is over: the periodic work makes it again, under the same key.
    const adjustmentRow = async () =>
      (await t.db.select().from(paymentAdjustments).where(eq(paymentAdjustments.id, made.id)))[0]!;
    await runAdjustmentWork();
    // (the app's own periodic work may have taken it first)
    await eventually(async () => (await adjustmentRow()).status === 'settled');
    expect(reversalCalls(transferId)).toHaveLength(4);
    expect(new Set(reversalCalls(transferId).map((r) => r.idempotencyKey))).toEqual(new Set([`reversal:${made.id}`]));
    expect(reversalCalls(transferId).at(-1)).toMatchObject({
      form: { amount: '850' },
      stripeVersion: '2026-10-28.endive',
    });
    const settled = await adjustmentRow();
    expect(settled).toMatchObject({ status: 'settled', tutorOutcome: 'reversed', stripeTransferId: transferId });
    expect(fake.object(settled.stripeReversalId!)).toMatchObject({ amount: 850, transfer: transferId });
    expect(fake.object(transferId)).toMatchObject({ amount_reversed: 850 });
    expect(await postingOf(`adjustment:${made.id}`)).toEqual({
      tutor_earnings_available: -850,
      platform_commission: -150,
      refunds: 1_000,
    });
    expect(await postingOf(`reversal:${made.id}`)).toEqual({ payouts: -850, tutor_earnings_available: 850 });
    expect(await available(tutor.user.id)).toBe(0);
    expect(await ledgerAccountBalance({ db: t.db, account: { kind: 'payouts', userId: tutor.user.id } })).toBe(850);
    expect(await ledgerAccountBalance({ db: t.db, account: { kind: 'refunds', userId: student.user.id } })).toBe(1_000);

    // Pressed again: refused, and nothing more reaches Stripe.
    expect((await adjust(requestId, 1_000)).statusCode).toBe(409);
    expect(
      fake.requestsTo('POST', '/v1/refunds').filter((r) => r.form.payment_intent === paymentIntentId),
    ).toHaveLength(1);
    expect(reversalCalls(transferId)).toHaveLength(4);
    expect(await runAdjustmentWork()).toBe(0);
  });

  it('records a refund Stripe made after all for an adjustment given up, before money goes back a second time', async () => {
    const tutor = await onboardedTeacher();
    const { student, requestId, paymentIntentId, transferId } = await transferredJob(tutor);
    // Stripe makes the refund, but its answer is lost, and it answers nothing more: the SDK's two retries fail, and
    // so do the three calls of the second run the adjustment makes at once.
    fake.failNext('/v1/refunds', { status: 500, afterSaving: true });
    fake.failNext('/v1/refunds', { status: 500, times: 5 });
    const first = (await adjust(requestId, 1_000)).json();
    expect(first).toMatchObject({ status: 'refunding', lastError: expect.any(String) });
    // As after the last of its claims whose answers were all lost: the next run gives it up.
    await t.db.update(paymentAdjustments).set({ claims: 10 }).where(eq(paymentAdjustments.id, first.id));
    await runAdjustmentWork();
    const rowOf = async (id: string) =>
      (await t.db.select().from(paymentAdjustments).where(eq(paymentAdjustments.id, id)))[0]!;
    expect(await rowOf(first.id)).toMatchObject({ status: 'failed' });
    expect(await postingOf(`adjustment:${first.id}`)).toEqual({});

    // The admin gives money back again: Stripe's refund under the first key is found and recorded, nothing more moves.
    const again = await adjust(requestId, 1_000);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(adjustmentMessages.refundedAfterAll);
    const refunds = fake.requestsTo('POST', '/v1/refunds').filter((r) => r.form.payment_intent === paymentIntentId);
    expect(new Set(refunds.map((r) => r.idempotencyKey))).toEqual(new Set([`adjustment:${first.id}`]));
    expect(fake.object(paymentIntentId)).toMatchObject({ amount_refunded: 1_000 });
    expect(await t.db.$count(paymentAdjustments, eq(paymentAdjustments.requestId, requestId))).toBe(1);
    expect(await rowOf(first.id)).toMatchObject({ status: 'settled', tutorOutcome: 'reversed', lastError: null });
    expect(await postingOf(`adjustment:${first.id}`)).toEqual({
      tutor_earnings_available: -850,
      platform_commission: -150,
      refunds: 1_000,
    });
    expect(fake.object(transferId)).toMatchObject({ amount_reversed: 850 });
    expect(await ledgerAccountBalance({ db: t.db, account: { kind: 'refunds', userId: student.user.id } })).toBe(1_000);
    // And again: the job is adjusted.
    expect((await adjust(requestId, 1_000)).json().message).toBe(adjustmentMessages.notReleased);
  });

  it('records the tutor as owing the part Stripe will not reverse, paid back from their next share', async () => {
    const tutor = await onboardedTeacher();
    const accountId = await accountIdOf(tutor.user.id);
    const { requestId, transferId } = await transferredJob(tutor);
    // Stripe paid the account's balance out to the tutor's bank: nothing is left to take back.
    fake.payOut(accountId);
    const answer = await adjust(requestId, 2_000);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({
      status: 'settled',
      tutorCents: 1_700,
      tutorOutcome: 'owed_by_tutor',
      lastError: expect.stringContaining('Insufficient funds'),
    });
    expect(reversalCalls(transferId)).toHaveLength(1);
    expect(reversalCalls(transferId)[0]!.idempotencyKey).toBe(`reversal:${answer.json().id}`);
    expect(await postingOf(`reversal:${answer.json().id}`)).toEqual({});
    expect(await available(tutor.user.id)).toBe(-1_700);

    // The next share pays the 1700 back: nothing goes out for it; the one after goes out whole.
    const second = await createStripePaidJob(t, fake, { subjectId, tutor });
    expect((await call(t, second.student, 'POST', `/api/requests/${second.requestId}/complete`)).statusCode).toBe(200);
    expect(await transferOf(second.requestId)).toBeUndefined();
    expect(await available(tutor.user.id)).toBe(0);
    const third = await transferredJob(tutor);
    expect(fake.object(third.transferId)).toMatchObject({ amount: 1_700 });
  });

  it("cuts a tutor's transfer not sent yet rather than reversing it", async () => {
    const tutor = await adultTeacher();
    const { student, requestId } = await createStripePaidJob(t, fake, { subjectId, tutor });
    expect((await call(t, student, 'POST', `/api/requests/${requestId}/complete`)).statusCode).toBe(200);
    expect(await transferOf(requestId)).toMatchObject({ status: 'waiting', amountCents: 1_700 });
    const answer = await adjust(requestId, 1_000);
    expect(answer.json()).toMatchObject({ status: 'settled', tutorCents: 850, tutorOutcome: 'from_earnings' });
    expect(await transferOf(requestId)).toMatchObject({ status: 'waiting', amountCents: 850 });
    expect(await available(tutor.user.id)).toBe(850);
  });
});
