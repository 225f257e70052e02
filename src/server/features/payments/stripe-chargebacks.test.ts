import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../../tests/support/callers.ts';
import { startStripeConnectApp, stripeConnectKit } from '../../../../tests/support/stripe-connect.ts';
import type { StripeFake } from '../../../../tests/support/stripe-fake.ts';
import { createStripePaidJob } from '../../../../tests/support/stripe-job.ts';
import type { TestApp } from '../../../../tests/support/test-app.ts';
import { eventually } from '../../../../tests/support/time.ts';
import { users } from '../../db/schema/auth.ts';
import { ledgerTransactions } from '../../db/schema/payments.ts';
import { runClaimedWorkOnce } from '../../platform/jobs/claimed-work.ts';
import { createStripeGateway } from '../../platform/payments/stripe.ts';
import { jobPaymentState, ledgerAccountBalance } from './service.ts';
import { stripeTransferWork } from './stripe-transfers.ts';

describe('Stripe chargebacks (PAYMENTS_PROVIDER=stripe, against a stand-in for Stripe)', () => {
  let t: TestApp;
  let fake: StripeFake;
  let subjectId: string;
  let paymentsAdmin: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ t, fake, subjectId, paymentsAdmin, close } = await startStripeConnectApp());
  });
  afterAll(() => close());
  const {
    adultTeacher,
    setUp,
    accountOf,
    accountIdOf,
    earnings,
    sendEvent,
    accountUpdated,
    available,
    transferOf,
    disputeOf,
    postingOf,
    loseChargeback,
    onboardedTeacher,
  } = stripeConnectKit(() => ({ t, fake, subjectId, paymentsAdmin }));

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
});
