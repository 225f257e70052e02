import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useStripeConnectApp } from '../../../../tests/support/stripe-connect.ts';
import { eventually } from '../../../../tests/support/time.ts';
import { users } from '../../db/schema/auth.ts';
import { ledgerTransactions } from '../../db/schema/payments.ts';
import { runClaimedWorkOnce } from '../../platform/jobs/claimed-work.ts';
import { createStripeGateway } from '../../platform/payments/stripe.ts';
import { jobPaymentState, ledgerAccountBalance } from './service.ts';
import { stripeTransferWork } from './stripe-transfers.ts';

describe('Stripe chargebacks (PAYMENTS_PROVIDER=stripe, against a stand-in for Stripe)', () => {
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
    disputeOf,
    postingOf,
    loseChargeback,
    onboardedTeacher,
    paidJob,
    complete,
  } = useStripeConnectApp();

  it('freezes a job on a chargeback, lists it for admins, and gives the money back when it is lost', async () => {
    const tutor = await onboardedTeacher();
    const { student, requestId, paymentIntentId } = await paidJob(tutor);
    const dispute = app.fake.openDispute(paymentIntentId, { reason: 'fraudulent' });
    const opened = app.fake.signedEvent({
      type: 'charge.dispute.created',
      object: { id: dispute.id, object: 'dispute' },
    });
    expect((await sendEvent(opened)).statusCode).toBe(200);
    await eventually(async () => (await jobPaymentState({ db: app.t.db, requestId })) === 'frozen');

    // Frozen: the job cannot be completed, and nothing is released.
    expect((await complete({ student, requestId })).statusCode).toBe(409);
    expect(await available(tutor.user.id)).toBe(0);
    expect(await transferOf(requestId)).toBeUndefined();
    const queue = await app.t.app.inject({
      method: 'GET',
      url: '/api/admin/payments/disputes',
      headers: { cookie: app.paymentsAdmin },
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

    app.fake.closeDispute(dispute.id, 'lost');
    const closed = app.fake.signedEvent({
      type: 'charge.dispute.closed',
      object: { id: dispute.id, object: 'dispute' },
    });
    expect((await sendEvent(closed)).statusCode).toBe(200);
    // A repeat of the opening, arriving late, changes nothing.
    expect(
      (await sendEvent(app.fake.signedEvent({ type: 'charge.dispute.created', object: { id: dispute.id } })))
        .statusCode,
    ).toBe(200);
    await eventually(async () => (await jobPaymentState({ db: app.t.db, requestId })) === 'refunded');
    // The late repeat of the opening has been processed too (its event is kept once done).
    await eventually(async () => (await disputeOf(dispute.id))?.outcome === 'lost');
    expect(await ledgerAccountBalance({ db: app.t.db, account: { kind: 'held_funds', requestId } })).toBe(0);
    expect(await ledgerAccountBalance({ db: app.t.db, account: { kind: 'refunds', userId: student.user.id } })).toBe(
      2_000,
    );
    expect(
      await app.t.db.$count(ledgerTransactions, eq(ledgerTransactions.idempotencyKey, `dispute:${dispute.id}`)),
    ).toBe(1);
    expect(await transferOf(requestId)).toBeUndefined();
  });

  it('keeps a chargeback on the job of a student erased since in the admins’ queue, its money left to them', async () => {
    const tutor = await onboardedTeacher();
    const { student, requestId, paymentIntentId } = await paidJob(tutor);
    await app.t.db.update(users).set({ erasedAt: new Date() }).where(eq(users.id, student.user.id));
    const dispute = app.fake.openDispute(paymentIntentId, { feeCents: 1_500 });
    expect(
      (await sendEvent(app.fake.signedEvent({ type: 'charge.dispute.created', object: { id: dispute.id } })))
        .statusCode,
    ).toBe(200);
    await eventually(async () => (await disputeOf(dispute.id)) !== undefined);
    expect(await disputeOf(dispute.id)).toMatchObject({ requestId, stripeStatus: 'needs_response', outcome: null });
    // The fee's posting names the job of an erased person: refused, for the admins to settle by hand.
    expect(
      await app.t.db.$count(
        ledgerTransactions,
        and(eq(ledgerTransactions.requestId, requestId), eq(ledgerTransactions.kind, 'provider_fee')),
      ),
    ).toBe(0);
  });

  it("posts Stripe's dispute fee once from its balance transaction, and its return, whatever the events' order", async () => {
    const tutor = await onboardedTeacher();
    const { paymentIntentId, requestId } = await paidJob(tutor);
    const feesOf = async () =>
      app.t.db
        .select({ key: ledgerTransactions.idempotencyKey, kind: ledgerTransactions.kind })
        .from(ledgerTransactions)
        .where(
          and(
            eq(ledgerTransactions.requestId, requestId),
            sql`${ledgerTransactions.idempotencyKey} like 'dispute-fee:%'`,
          ),
        );
    const platform = async () => ({
      fees: await ledgerAccountBalance({ db: app.t.db, account: { kind: 'provider_fees' } }),
      commission: await ledgerAccountBalance({ db: app.t.db, account: { kind: 'platform_commission' } }),
    });
    const before = await platform();
    const dispute = app.fake.openDispute(paymentIntentId, { feeCents: 1_900 });
    const created = app.fake.signedEvent({ type: 'charge.dispute.created', object: { id: dispute.id } });
    // Delivered twice, and once more under another event id: the fee is posted once.
    for (const event of [
      created,
      created,
      app.fake.signedEvent({ type: 'charge.dispute.created', object: { id: dispute.id } }),
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
    app.fake.closeDispute(dispute.id, 'won');
    const [, reinstatement] = dispute.balance_transactions as { id: string }[];
    await sendEvent(app.fake.signedEvent({ type: 'charge.dispute.funds_reinstated', object: { id: dispute.id } }));
    await eventually(async () => (await feesOf()).length === 2);
    await sendEvent(app.fake.signedEvent({ type: 'charge.dispute.closed', object: { id: dispute.id } }));
    await eventually(async () => (await jobPaymentState({ db: app.t.db, requestId })) === 'held');
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
    const { paymentIntentId, requestId } = await paidJob(tutor);
    const dispute = app.fake.openDispute(paymentIntentId);
    app.fake.closeDispute(dispute.id, 'won', { feeReturned: false });
    // Only the closing is heard: it reads both balance transactions, and posts the one fee there is.
    await sendEvent(app.fake.signedEvent({ type: 'charge.dispute.closed', object: { id: dispute.id } }));
    await eventually(async () => (await disputeOf(dispute.id))?.outcome === 'won');
    const [withdrawal] = dispute.balance_transactions as { id: string }[];
    expect(await postingOf(`dispute-fee:${withdrawal!.id}`)).toEqual({
      provider_fees: 1_500,
      platform_commission: -1_500,
    });
    expect(
      await app.t.db.$count(
        ledgerTransactions,
        and(eq(ledgerTransactions.requestId, requestId), eq(ledgerTransactions.kind, 'provider_fee')),
      ),
    ).toBe(1);
  });

  it('releases a job again once the chargeback is won', async () => {
    const tutor = await onboardedTeacher();
    const { student, requestId, paymentIntentId } = await paidJob(tutor);
    const dispute = app.fake.openDispute(paymentIntentId);
    await sendEvent(app.fake.signedEvent({ type: 'charge.dispute.created', object: { id: dispute.id } }));
    await eventually(async () => (await jobPaymentState({ db: app.t.db, requestId })) === 'frozen');
    app.fake.closeDispute(dispute.id, 'won');
    await sendEvent(app.fake.signedEvent({ type: 'charge.dispute.closed', object: { id: dispute.id } }));
    await eventually(async () => (await jobPaymentState({ db: app.t.db, requestId })) === 'held');
    expect((await complete({ student, requestId })).statusCode).toBe(200);
    expect(await transferOf(requestId)).toMatchObject({ amountCents: 1_700 });
  });

  it("takes a chargeback lost after release from the tutor's waiting transfer, which never goes out", async () => {
    const tutor = await adultTeacher();
    const { student, requestId, paymentIntentId } = await paidJob(tutor);
    expect((await complete({ student, requestId })).statusCode).toBe(200);
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
    app.fake.updateAccount(accountId, { payouts_enabled: true });
    await accountUpdated(accountId);
    await eventually(async () => (await accountOf(tutor.user.id))!.payoutsEnabled);
    const work = stripeTransferWork({ db: app.t.db, stripe: createStripeGateway(app.t.config.payments.stripe!) });
    expect(await runClaimedWorkOnce({ db: app.t.db, work, log: app.t.app.log })).toBe(0);
    expect(app.fake.requestsTo('POST', '/v1/transfers').filter((r) => r.form.destination === accountId)).toHaveLength(
      0,
    );
    expect(await earnings(tutor)).toMatchObject({ availableCents: 0, paidOutCents: 0 });
  });

  it('leaves a tutor whose share was sent owing a chargeback lost after it, paid back from their next share', async () => {
    const tutor = await onboardedTeacher();
    const accountId = await accountIdOf(tutor.user.id);
    const work = stripeTransferWork({ db: app.t.db, stripe: createStripeGateway(app.t.config.payments.stripe!) });
    const first = await paidJob(tutor);
    expect((await complete(first)).statusCode).toBe(200);
    await runClaimedWorkOnce({ db: app.t.db, work, log: app.t.app.log });
    expect(await transferOf(first.requestId)).toMatchObject({ status: 'transferred' });

    const disputeId = await loseChargeback(first.paymentIntentId);
    expect(await postingOf(`dispute:${disputeId}`)).toMatchObject({ tutor_earnings_available: -1_700 });
    expect(await available(tutor.user.id)).toBe(-1_700);

    // The next job's 1700 pays the debt back: nothing is transferred for it; the one after goes out whole.
    const second = await paidJob(tutor);
    expect((await complete(second)).statusCode).toBe(200);
    expect(await transferOf(second.requestId)).toBeUndefined();
    expect(await available(tutor.user.id)).toBe(0);
    const third = await paidJob(tutor);
    expect((await complete(third)).statusCode).toBe(200);
    await runClaimedWorkOnce({ db: app.t.db, work, log: app.t.app.log });
    expect(await transferOf(third.requestId)).toMatchObject({ status: 'transferred', amountCents: 1_700 });
    const sent = app.fake.requestsTo('POST', '/v1/transfers').filter((r) => r.form.destination === accountId);
    expect(sent.map((r) => r.form.amount)).toEqual(['1700', '1700']);
    expect(await available(tutor.user.id)).toBe(0);
  });
});
