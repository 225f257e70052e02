import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { call, signedInStudent, signedInTeacher } from '../../../../tests/support/callers.ts';
import { useStripeConnectApp } from '../../../../tests/support/stripe-connect.ts';
import { eventually } from '../../../../tests/support/time.ts';
import { adminAuditLog } from '../../db/schema/admin.ts';
import { ledgerTransactions } from '../../db/schema/payments.ts';
import { stripeConnectedAccounts, stripeTransfers } from '../../db/schema/stripe-connect.ts';
import { runClaimedWorkOnce } from '../../platform/jobs/claimed-work.ts';
import { createStripeGateway } from '../../platform/payments/stripe.ts';
import { PAYOUT_SETUP_CHECKS, PAYOUT_SETUP_LINKS } from './stripe-connect.ts';
import { stripeTransferWork } from './stripe-transfers.ts';

describe('Stripe Connect payouts (PAYMENTS_PROVIDER=stripe, against a stand-in for Stripe)', () => {
  const {
    app,
    adultTeacher,
    setUp,
    accountOf,
    accountIdOf,
    earnings,
    sendEvent,
    accountUpdated,
    available,
    transferOf,
    onboardedTeacher,
    paidJob,
    complete,
  } = useStripeConnectApp();

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
      app.fake.requestsTo('POST', '/v1/accounts').filter((request) => request.form['metadata[tutor_id]'] === tutorId);
    expect(creationsOf(tutor.user.id).every((r) => r.idempotencyKey === `connect-account:${tutor.user.id}`)).toBe(true);
    // Pressed one after the other, the account is made by the first only.
    const other = await adultTeacher();
    expect((await setUp(other)).statusCode).toBe(200);
    expect((await setUp(other)).statusCode).toBe(200);
    const creations = creationsOf(other.user.id);
    expect(creations).toHaveLength(1);
    expect(creations[0]!.form).toMatchObject({ type: 'express', 'capabilities[transfers][requested]': 'true' });
    expect(creations[0]!.stripeVersion).toBe('2026-10-28.endive');
    const link = app.fake
      .requestsTo('POST', '/v1/account_links')
      .findLast((request) => request.form.account === account.accountId)!;
    expect(link.form).toMatchObject({
      account: account.accountId,
      type: 'account_onboarding',
      return_url: `${app.t.config.publicUrl}/earnings?payout-setup=return`,
      refresh_url: `${app.t.config.publicUrl}/earnings?payout-setup=refresh`,
    });

    // Earnings shows it started, not enabled; back from Stripe the tutor's state is asked of Stripe at once.
    expect((await earnings(tutor)).payoutSetup).toEqual({
      started: true,
      payoutsEnabled: false,
      requirementsDue: [],
    });
    const back = await call(app.t, tutor, 'GET', '/api/earnings/payout-setup');
    expect(back.json()).toEqual({
      started: true,
      payoutsEnabled: false,
      requirementsDue: ['external_account', 'individual.dob.day'],
    });
    // Told once, the state is kept: asked again, it is read from the database, not from Stripe.
    app.fake.updateAccount(account.accountId, { payouts_enabled: true });
    const reads = () => app.fake.requestsTo('GET', `/v1/accounts/${account.accountId}`).length;
    const readsBefore = reads();
    expect((await call(app.t, tutor, 'GET', '/api/earnings/payout-setup')).json()).toMatchObject({
      payoutsEnabled: false,
    });
    expect(reads()).toBe(readsBefore);
    // Back from onboarding, Stripe is asked now.
    const returned = await call(app.t, tutor, 'GET', '/api/earnings/payout-setup?from=onboarding');
    expect(returned.json()).toMatchObject({ payoutsEnabled: true });
    expect(reads()).toBe(readsBefore + 1);
    expect((await call(app.t, tutor, 'GET', '/api/earnings/payout-setup?from=elsewhere')).statusCode).toBe(400);
  });

  it('bounds the onboarding links and the returns that ask Stripe, per teacher', async () => {
    const tutor = await adultTeacher();
    const { max, message } = PAYOUT_SETUP_LINKS;
    for (let n = 0; n < max; n++) expect((await setUp(tutor)).statusCode).toBe(200);
    const links = () => app.fake.requestsTo('POST', '/v1/account_links').length;
    const linksBefore = links();
    const refused = await setUp(tutor);
    expect([refused.statusCode, refused.json().message]).toEqual([429, message]);
    expect(links()).toBe(linksBefore);
    // Another teacher is not held back.
    expect((await setUp(await adultTeacher())).statusCode).toBe(200);

    const accountId = await accountIdOf(tutor.user.id);
    const reads = () => app.fake.requestsTo('GET', `/v1/accounts/${accountId}`).length;
    const back = () => call(app.t, tutor, 'GET', '/api/earnings/payout-setup?from=onboarding');
    for (let n = 0; n < PAYOUT_SETUP_CHECKS.max; n++) expect((await back()).statusCode).toBe(200);
    const readsBefore = reads();
    // Past the bound a return answers what is stored, without asking Stripe.
    app.fake.updateAccount(accountId, { payouts_enabled: true });
    const stored = await back();
    expect([stored.statusCode, stored.json().payoutsEnabled]).toEqual([200, false]);
    expect(reads()).toBe(readsBefore);
  });

  it('finds the account a set-up made before its key expired, rather than making a second one', async () => {
    const tutor = await adultTeacher();
    const key = `connect-account:${tutor.user.id}`;
    // A set-up that made the account at Stripe, then crashed before writing its id, over a day ago.
    const made = await createStripeGateway(app.t.config.payments.stripe!).createConnectedAccount({
      idempotencyKey: key,
      tutorId: tutor.user.id,
    });
    await app.t.db.insert(stripeConnectedAccounts).values({
      tutorId: tutor.user.id,
      idempotencyKey: key,
      createdAt: new Date(Date.now() - 25 * 60 * 60 * 1000),
    });
    app.fake.expireIdempotencyKey(key);

    const answer = await setUp(tutor);
    expect(answer.json()).toEqual({ url: `https://connect.stripe.fake/setup/${made.accountId}` });
    expect(await accountOf(tutor.user.id)).toMatchObject({ accountId: made.accountId });
    expect(app.fake.requestsTo('POST', '/v1/accounts').filter((r) => r.idempotencyKey === key)).toHaveLength(1);
  });

  it('refuses set-up without a session, to students, without the adult confirmation, and when Stripe fails', async () => {
    expect((await setUp(undefined)).statusCode).toBe(401);
    expect((await call(app.t, undefined, 'GET', '/api/earnings/payout-setup')).statusCode).toBe(401);
    const student = await signedInStudent(app.t);
    expect((await setUp(student)).statusCode).toBe(403);
    expect((await call(app.t, student, 'GET', '/api/earnings/payout-setup')).statusCode).toBe(403);

    const minor = await signedInTeacher(app.t, [app.subjectId]);
    const refused = await setUp(minor);
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'ADULT_CONFIRMATION_REQUIRED']);
    expect((await call(app.t, minor, 'GET', '/api/earnings/payout-setup')).statusCode).toBe(404);

    const tutor = await adultTeacher();
    app.fake.failNext('/v1/accounts', { status: 400, message: 'Connect is not enabled on this platform.' });
    const failed = await setUp(tutor);
    expect([failed.statusCode, failed.json().code]).toEqual([502, 'PAYOUT_SETUP_FAILED']);
    expect(await accountOf(tutor.user.id)).toMatchObject({ accountId: null });
    expect((await earnings(tutor)).payoutSetup).toMatchObject({ started: false });
    expect((await call(app.t, tutor, 'GET', '/api/earnings/payout-setup')).statusCode).toBe(404);
    expect(await accountOf(minor.user.id)).toBeUndefined();
    expect((await setUp(tutor)).statusCode).toBe(200);
  });

  it('stores account.updated once per event, reading the account from Stripe', async () => {
    const tutor = await adultTeacher();
    await setUp(tutor);
    const accountId = await accountIdOf(tutor.user.id);
    app.fake.updateAccount(accountId, { payouts_enabled: true });
    const reads = app.fake.requestsTo('GET', `/v1/accounts/${accountId}`).length;
    expect((await accountUpdated(accountId, 'evt_account_once')).statusCode).toBe(200);
    expect((await accountUpdated(accountId, 'evt_account_once')).statusCode).toBe(200);
    await eventually(async () => (await accountOf(tutor.user.id))!.payoutsEnabled);
    expect(await accountOf(tutor.user.id)).toMatchObject({ chargesEnabled: true, requirementsDue: [] });
    expect(app.fake.requestsTo('GET', `/v1/accounts/${accountId}`).length).toBe(reads + 1);
    // An account no tutor here has is not ours: nothing is asked or kept.
    expect((await accountUpdated('acct_someone_else')).statusCode).toBe(200);
    // A signature by neither endpoint's secret is refused.
    const forged = app.fake.signedEvent(
      { type: 'account.updated', object: { id: accountId, object: 'account' } },
      { secret: 'whsec_someoneelse' },
    );
    expect((await sendEvent(forged)).statusCode).toBe(400);
  });

  it('keeps a released share available until payouts are enabled, then transfers it once from the charge', async () => {
    const tutor = await adultTeacher();
    const { student, requestId, paymentIntentId } = await paidJob(tutor);
    expect((await complete({ student, requestId })).statusCode).toBe(200);

    expect(await transferOf(requestId)).toMatchObject({ status: 'waiting', amountCents: 1_700 });
    const waiting = await earnings(tutor);
    expect(waiting).toMatchObject({
      availableCents: 1_700,
      paidOutCents: 0,
      payoutSetup: { started: false, payoutsEnabled: false },
      transfers: [{ requestId, amountCents: 1_700, status: 'waiting', transferredAt: null }],
    });
    const work = stripeTransferWork({ db: app.t.db, stripe: createStripeGateway(app.t.config.payments.stripe!) });
    expect(await runClaimedWorkOnce({ db: app.t.db, work, log: app.t.app.log })).toBe(0);
    // There is no payout to ask for under Stripe.
    const payout = await call(
      app.t,
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
    app.fake.updateAccount(accountId, { payouts_enabled: true });
    await accountUpdated(accountId);
    await eventually(async () => (await transferOf(requestId))!.status === 'transferred');

    const calls = app.fake
      .requestsTo('POST', '/v1/transfers')
      .filter((r) => r.idempotencyKey === `transfer:${requestId}`);
    expect(calls).toHaveLength(1);
    const chargeId = String(app.fake.object(paymentIntentId)!.latest_charge);
    expect(calls[0]!.form).toEqual({
      amount: '1700',
      currency: 'usd',
      destination: accountId,
      source_transaction: chargeId,
      transfer_group: requestId,
    });
    const made = (await transferOf(requestId))!;
    expect(app.fake.object(made.stripeTransferId!)).toMatchObject({ amount: 1_700, destination: accountId });
    expect(await earnings(tutor)).toMatchObject({
      availableCents: 0,
      paidOutCents: 1_700,
      transfers: [{ requestId, status: 'transferred' }],
    });
    expect(
      await app.t.db.$count(ledgerTransactions, eq(ledgerTransactions.idempotencyKey, `transfer:${requestId}`)),
    ).toBe(1);
    expect(await runClaimedWorkOnce({ db: app.t.db, work, log: app.t.app.log })).toBe(0);
  });

  const transferPostings = (requestId: string) =>
    app.t.db.$count(
      ledgerTransactions,
      and(eq(ledgerTransactions.requestId, requestId), eq(ledgerTransactions.kind, 'payout')),
    );
  const transferCalls = (requestId: string) =>
    app.fake.requestsTo('POST', '/v1/transfers').filter((r) => r.form.transfer_group === requestId);
  /** The transfer's next try is due now (its backoff passed). */
  const dueNow = (requestId: string) =>
    app.t.db.update(stripeTransfers).set({ nextAttemptAt: new Date() }).where(eq(stripeTransfers.requestId, requestId));

  it('tries a transfer Stripe could not answer again after a backoff, under the same key, nothing posted meanwhile', async () => {
    const tutor = await onboardedTeacher();
    const { student, requestId } = await paidJob(tutor, 3_000);
    const work = stripeTransferWork({ db: app.t.db, stripe: createStripeGateway(app.t.config.payments.stripe!) });
    // Stripe down: the call and the SDK's two retries of it fail.
    app.fake.failNext('/v1/transfers', { status: 500, times: 3 });
    expect((await complete({ student, requestId })).statusCode).toBe(200);
    expect(await runClaimedWorkOnce({ db: app.t.db, work, log: app.t.app.log })).toBe(1);
    const waiting = (await transferOf(requestId))!;
    expect(waiting).toMatchObject({ status: 'waiting', amountCents: 2_550, attempts: 1 });
    expect(waiting.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 50_000);
    expect(waiting.lastError).toBeTruthy();
    expect(await available(tutor.user.id)).toBe(2_550);
    expect(await transferPostings(requestId)).toBe(0);
    expect((await earnings(tutor)).transfers).toEqual([expect.objectContaining({ status: 'waiting', delayed: true })]);
    // Not due before its backoff has passed.
    expect(await runClaimedWorkOnce({ db: app.t.db, work, log: app.t.app.log })).toBe(0);

    await dueNow(requestId);
    await runClaimedWorkOnce({ db: app.t.db, work, log: app.t.app.log });
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
    const { student, requestId } = await paidJob(tutor);
    const work = stripeTransferWork({ db: app.t.db, stripe: createStripeGateway(app.t.config.payments.stripe!) });
    expect((await complete({ student, requestId })).statusCode).toBe(200);
    // Seven tries failed already: the eighth is the last.
    await app.t.db.update(stripeTransfers).set({ attempts: 7 }).where(eq(stripeTransfers.requestId, requestId));
    app.fake.failNext('/v1/transfers', { status: 500, times: 3 });
    await runClaimedWorkOnce({ db: app.t.db, work, log: app.t.app.log });
    const failed = (await transferOf(requestId))!;
    expect(failed).toMatchObject({ status: 'failed', attempts: 8 });
    await dueNow(requestId);
    expect(await runClaimedWorkOnce({ db: app.t.db, work, log: app.t.app.log })).toBe(0);
    expect((await earnings(tutor)).transfers).toEqual([expect.objectContaining({ status: 'failed', delayed: true })]);
    expect((await earnings(tutor)).availableCents).toBe(1_700);

    const retry = (cookie?: string) =>
      app.t.app.inject({
        method: 'POST',
        url: `/api/admin/payments/failed-transfers/${failed.id}/retry`,
        headers: cookie ? { cookie } : {},
      });
    expect((await retry()).statusCode).toBe(401);
    expect(
      (await call(app.t, tutor, 'POST', `/api/admin/payments/failed-transfers/${failed.id}/retry`)).statusCode,
    ).toBe(403);
    expect(await transferOf(requestId)).toMatchObject({ status: 'failed', retries: 0 });
    expect((await retry(app.paymentsAdmin)).statusCode).toBe(204);
    expect((await retry(app.paymentsAdmin)).statusCode).toBe(409);
    const [audit] = await app.t.db
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
    expect(app.fake.object((await transferOf(requestId))!.stripeTransferId!)).toMatchObject({ amount: 1_700 });
  });

  it('fails a transfer Stripe refuses at once, lists it for admins, and a retry records one an earlier key made', async () => {
    const tutor = await onboardedTeacher();
    const accountId = await accountIdOf(tutor.user.id);
    const { student, requestId, paymentIntentId } = await paidJob(tutor);
    const stripe = createStripeGateway(app.t.config.payments.stripe!);
    const work = stripeTransferWork({ db: app.t.db, stripe });
    app.fake.refuseTransfersTo(accountId, 'Your destination account needs to have at least one capability enabled.');
    expect((await complete({ student, requestId })).statusCode).toBe(200);
    await runClaimedWorkOnce({ db: app.t.db, work, log: app.t.app.log });
    const failed = (await transferOf(requestId))!;
    expect(failed).toMatchObject({ status: 'failed', attempts: 1, lastError: expect.stringContaining('capability') });
    expect(transferCalls(requestId)).toHaveLength(1);
    const listed = await app.t.app.inject({
      url: '/api/admin/payments/failed-transfers',
      headers: { cookie: app.paymentsAdmin },
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
    app.fake.refuseTransfersTo(accountId, null);
    app.fake.expireIdempotencyKey(`transfer:${requestId}`);
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
        await app.t.app.inject({
          method: 'POST',
          url: `/api/admin/payments/failed-transfers/${failed.id}/retry`,
          headers: { cookie: app.paymentsAdmin },
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
});
