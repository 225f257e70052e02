import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { adjustmentMessages } from '#shared/schemas/admin-payments.ts';
import type { Caller } from '../../../../tests/support/callers.ts';
import { useStripeConnectApp } from '../../../../tests/support/stripe-connect.ts';
import { eventually } from '../../../../tests/support/time.ts';
import { paymentAdjustments } from '../../db/schema/payments.ts';
import { runClaimedWorkOnce } from '../../platform/jobs/claimed-work.ts';
import { createStripeGateway } from '../../platform/payments/stripe.ts';
import { adjustmentWork } from './adjustment-work.ts';
import { ledgerAccountBalance } from './service.ts';
import { stripeTransferWork } from './stripe-transfers.ts';

describe('Adjustments after release under Stripe (PAYMENTS_PROVIDER=stripe, against a stand-in for Stripe)', () => {
  const { app, adultTeacher, accountIdOf, available, transferOf, postingOf, onboardedTeacher, paidJob, complete } =
    useStripeConnectApp();

  const adjust = (requestId: string, amountCents: number) =>
    app.t.app.inject({
      method: 'POST',
      url: `/api/admin/payments/jobs/${requestId}/adjustment`,
      headers: { cookie: app.paymentsAdmin },
      payload: { amountCents, note: 'The last session never happened.' },
    });
  /** One run of the adjustments' periodic work, as the app makes it. */
  const runAdjustmentWork = () => {
    const ctx = {
      publicUrl: app.t.config.publicUrl,
      operator: app.t.config.operator,
      log: app.t.app.log,
      stripe: createStripeGateway(app.t.config.payments.stripe!),
    };
    return runClaimedWorkOnce({ db: app.t.db, work: adjustmentWork({ db: app.t.db, ctx }), log: app.t.app.log });
  };
  const reversalCalls = (transferId: string) => app.fake.requestsTo('POST', `/v1/transfers/${transferId}/reversals`);
  /** A job of the tutor's, completed, its share transferred to their account. */
  const transferredJob = async (tutor: Caller) => {
    const job = await paidJob(tutor);
    expect((await complete(job)).statusCode).toBe(200);
    const work = stripeTransferWork({ db: app.t.db, stripe: createStripeGateway(app.t.config.payments.stripe!) });
    await runClaimedWorkOnce({ db: app.t.db, work, log: app.t.app.log });
    const transfer = (await transferOf(job.requestId))!;
    expect(transfer).toMatchObject({ status: 'transferred', amountCents: 1_700 });
    return { ...job, transferId: transfer.stripeTransferId! };
  };

  it("refunds an adjustment after release and reverses the tutor's part of the transfer, each under its own key, once", async () => {
    const tutor = await onboardedTeacher();
    const { student, requestId, paymentIntentId, transferId } = await transferredJob(tutor);
    // Stripe down for the first reversal call and the SDK's two retries: made again under the same key.
    app.fake.failNext(`/v1/transfers/${transferId}/reversals`, { status: 500, times: 3 });
    const answer = await adjust(requestId, 1_000);
    expect(answer.statusCode).toBe(200);
    const made = answer.json();
    expect(made).toMatchObject({ amountCents: 1_000, tutorCents: 850, commissionCents: 150 });

    const refunds = app.fake.requestsTo('POST', '/v1/refunds').filter((r) => r.form.payment_intent === paymentIntentId);
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
      (await app.t.db.select().from(paymentAdjustments).where(eq(paymentAdjustments.id, made.id)))[0]!;
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
    expect(app.fake.object(settled.stripeReversalId!)).toMatchObject({ amount: 850, transfer: transferId });
    expect(app.fake.object(transferId)).toMatchObject({ amount_reversed: 850 });
    expect(await postingOf(`adjustment:${made.id}`)).toEqual({
      tutor_earnings_available: -850,
      platform_commission: -150,
      refunds: 1_000,
    });
    expect(await postingOf(`reversal:${made.id}`)).toEqual({ payouts: -850, tutor_earnings_available: 850 });
    expect(await available(tutor.user.id)).toBe(0);
    expect(await ledgerAccountBalance({ db: app.t.db, account: { kind: 'payouts', userId: tutor.user.id } })).toBe(850);
    expect(await ledgerAccountBalance({ db: app.t.db, account: { kind: 'refunds', userId: student.user.id } })).toBe(
      1_000,
    );

    // Pressed again: refused, and nothing more reaches Stripe.
    expect((await adjust(requestId, 1_000)).statusCode).toBe(409);
    expect(
      app.fake.requestsTo('POST', '/v1/refunds').filter((r) => r.form.payment_intent === paymentIntentId),
    ).toHaveLength(1);
    expect(reversalCalls(transferId)).toHaveLength(4);
    expect(await runAdjustmentWork()).toBe(0);
  });

  const adjustmentOf = async (id: string) =>
    (await app.t.db.select().from(paymentAdjustments).where(eq(paymentAdjustments.id, id)))[0]!;
  /** An adjustment whose refund Stripe made, but whose answer was lost, and that was given up after its claims. */
  const givenUpAdjustment = async (requestId: string) => {
    // Stripe makes the refund, but its answer is lost, and it answers no refund after that (nor the app's own
    // periodic run, which may take the adjustment meanwhile).
    app.fake.failNext('/v1/refunds', { method: 'POST', afterSaving: true });
    app.fake.failNext('/v1/refunds', { method: 'POST', times: 100 });
    const made = (await adjust(requestId, 1_000)).json();
    expect(made).toMatchObject({ status: 'refunding', lastError: expect.any(String) });
    // As after the last of its claims whose answers were all lost: the next run gives it up.
    await app.t.db.update(paymentAdjustments).set({ claims: 10 }).where(eq(paymentAdjustments.id, made.id));
    await runAdjustmentWork();
    await eventually(async () => (await adjustmentOf(made.id)).status === 'failed');
    app.fake.stopFailing();
    expect(await postingOf(`adjustment:${made.id}`)).toEqual({});
    return adjustmentOf(made.id);
  };

  it('records a refund Stripe made after all for an adjustment given up, before money goes back a second time', async () => {
    const tutor = await onboardedTeacher();
    const { student, requestId, paymentIntentId, transferId } = await transferredJob(tutor);
    const first = await givenUpAdjustment(requestId);

    // Stripe cannot be asked: nothing is given back, in plain words.
    app.fake.failNext('/v1/refunds', { method: 'GET', times: 3 });
    const unanswered = await adjust(requestId, 1_000);
    expect(unanswered.statusCode).toBe(502);
    expect(unanswered.json().message).toBe(adjustmentMessages.stripeUnavailable);
    expect(await app.t.db.$count(paymentAdjustments, eq(paymentAdjustments.requestId, requestId))).toBe(1);

    // Asked again: Stripe's refund under the first key is found and recorded, and nothing more moves.
    const again = await adjust(requestId, 1_000);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(adjustmentMessages.refundedAfterAll);
    const refunds = app.fake.requestsTo('POST', '/v1/refunds').filter((r) => r.form.payment_intent === paymentIntentId);
    expect(new Set(refunds.map((r) => r.idempotencyKey))).toEqual(new Set([`adjustment:${first.id}`]));
    expect(app.fake.object(paymentIntentId)).toMatchObject({ amount_refunded: 1_000 });
    expect(await app.t.db.$count(paymentAdjustments, eq(paymentAdjustments.requestId, requestId))).toBe(1);
    // Its reversal had tries of its own.
    expect(await adjustmentOf(first.id)).toMatchObject({
      status: 'settled',
      tutorOutcome: 'reversed',
      lastError: null,
    });
    expect(await postingOf(`adjustment:${first.id}`)).toEqual({
      tutor_earnings_available: -850,
      platform_commission: -150,
      refunds: 1_000,
    });
    expect(app.fake.object(transferId)).toMatchObject({ amount_reversed: 850 });
    expect(await ledgerAccountBalance({ db: app.t.db, account: { kind: 'refunds', userId: student.user.id } })).toBe(
      1_000,
    );
    // And again: the job is adjusted.
    expect((await adjust(requestId, 1_000)).json().message).toBe(adjustmentMessages.notReleased);
  });

  it('leaves a refund Stripe made after all unrecorded when another adjustment of the job holds its place', async () => {
    const tutor = await onboardedTeacher();
    const { requestId } = await transferredJob(tutor);
    const givenUp = await givenUpAdjustment(requestId);
    // Another adjustment, made while the first's last call was still under way.
    const { id: _, ...rest } = givenUp;
    await app.t.db.insert(paymentAdjustments).values({ ...rest, status: 'settled', tutorOutcome: 'reversed' });

    const answer = await adjust(requestId, 1_000);
    expect(answer.statusCode).toBe(409);
    expect(answer.json().message).toBe(adjustmentMessages.notReleased);
    expect(await adjustmentOf(givenUp.id)).toMatchObject({ status: 'failed' });
    expect(await postingOf(`adjustment:${givenUp.id}`)).toEqual({});
  });

  it('records the tutor as owing the part Stripe will not reverse, paid back from their next share', async () => {
    const tutor = await onboardedTeacher();
    const accountId = await accountIdOf(tutor.user.id);
    const { requestId, transferId } = await transferredJob(tutor);
    // Stripe paid the account's balance out to the tutor's bank: nothing is left to take back.
    app.fake.payOut(accountId);
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
    const second = await paidJob(tutor);
    expect((await complete(second)).statusCode).toBe(200);
    expect(await transferOf(second.requestId)).toBeUndefined();
    expect(await available(tutor.user.id)).toBe(0);
    const third = await transferredJob(tutor);
    expect(app.fake.object(third.transferId)).toMatchObject({ amount: 1_700 });
  });

  it("cuts a tutor's transfer not sent yet rather than reversing it", async () => {
    const tutor = await adultTeacher();
    const { student, requestId } = await paidJob(tutor);
    expect((await complete({ student, requestId })).statusCode).toBe(200);
    expect(await transferOf(requestId)).toMatchObject({ status: 'waiting', amountCents: 1_700 });
    const answer = await adjust(requestId, 1_000);
    expect(answer.json()).toMatchObject({ status: 'settled', tutorCents: 850, tutorOutcome: 'from_earnings' });
    expect(await transferOf(requestId)).toMatchObject({ status: 'waiting', amountCents: 850 });
    expect(await available(tutor.user.id)).toBe(850);
  });
});
