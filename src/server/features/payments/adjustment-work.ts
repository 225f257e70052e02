import { and, eq, sql } from 'drizzle-orm';
import { formatCents } from '#shared/rules/money.ts';
import type { Executor } from '../../db/client.ts';
import { checkouts, paymentAdjustments, type PaymentAdjustment } from '../../db/schema/payments.ts';
import { stripeTransfers } from '../../db/schema/stripe-connect.ts';
import { storableError, type ClaimedWork } from '../../platform/jobs/claimed-work.ts';
import { STRIPE_WORK_LEASE_MS, stripeRefused } from '../../platform/payments/stripe.ts';
import { ledgerAccountBalance, postLedgerTransaction } from './ledger.ts';
import { paymentProvider } from './provider.ts';
import { tell, type RefundContext } from './refund-jobs.ts';
import { fitWaitingTransfers, lockTutorPayouts } from './stripe-transfers.ts';

// The provider calls of an admin's adjustment after release (docs/decisions/0066, adjustments.ts), each claimed, made
// outside any transaction under a key of the adjustment's own, and recorded from its outcome (docs/decisions/0040):
// the refund to the student, then under Stripe the reversal of the tutor's transfer.

/** What adjustments need of the refunds' context: who gives Stripe money back, and who tells the people. */
export type AdjustmentContext = Pick<RefundContext, 'publicUrl' | 'operator' | 'log' | 'stripe'>;

/** A refund or reversal the provider could not answer is tried again at the work's next run, this many times. */
const MAX_CLAIMS = 10;
const MAX_ERROR_LENGTH = 500;

type AdjustmentCall = { stage: 'refunded'; providerRefundId: string } | { stage: 'reversed'; reversalId: string };

/** The job's transfer to the tutor's Stripe account, if it was made. */
async function madeTransferOf(db: Executor, requestId: string) {
  const [made] = await db
    .select({ stripeTransferId: stripeTransfers.stripeTransferId, amountCents: stripeTransfers.amountCents })
    .from(stripeTransfers)
    .where(and(eq(stripeTransfers.requestId, requestId), eq(stripeTransfers.status, 'transferred')));
  return made ?? null;
}

/** What is reversed of the tutor's transfer: their part, or the whole transfer if less was sent. */
async function reversalCentsOf(db: Executor, row: PaymentAdjustment) {
  const made = await madeTransferOf(db, row.requestId);
  return Math.min(row.tutorCents, made?.amountCents ?? 0);
}

/**
 * Adjustments' provider calls, each made once: the refund to the student (`adjustment:<id>`), then under Stripe the
 * reversal of the tutor's transfer (`reversal:<id>`), each posted under its own key as its outcome is recorded.
 */
export function adjustmentWork({
  db,
  ctx,
}: {
  db: Executor;
  ctx: AdjustmentContext;
}): ClaimedWork<typeof paymentAdjustments, AdjustmentCall> {
  return {
    name: 'payment-adjustments',
    table: paymentAdjustments,
    due: sql`${paymentAdjustments.status} in ('refunding', 'reversing')`,
    order: paymentAdjustments.createdAt,
    batchSize: 20,
    leaseMs: STRIPE_WORK_LEASE_MS,
    maxClaims: MAX_CLAIMS,
    async call(row) {
      if (row.status === 'reversing') {
        if (!ctx.stripe) throw new Error('PAYMENTS_PROVIDER is not stripe: a Stripe transfer cannot be reversed');
        const { reversalId } = await ctx.stripe.reverseTransfer({
          idempotencyKey: `reversal:${row.id}`,
          transferId: row.stripeTransferId!,
          amountCents: await reversalCentsOf(db, row),
        });
        return { stage: 'reversed', reversalId };
      }
      const [checkout] = await db.select().from(checkouts).where(eq(checkouts.id, row.checkoutId));
      const { providerRefundId } = await paymentProvider(checkout!.provider, db, ctx.stripe).refund({
        providerPaymentId: checkout!.providerPaymentId,
        amountCents: row.amountCents,
        idempotencyKey: `adjustment:${row.id}`,
      });
      return { stage: 'refunded', providerRefundId };
    },
    async record({ db: tx, row, outcome }) {
      if (!outcome.ok) {
        await recordFailedCall(tx, row, outcome.error);
        return;
      }
      if (outcome.value.stage === 'refunded') await recordRefund(tx, ctx, row, outcome.value.providerRefundId);
      else await recordReversal(tx, row, outcome.value.reversalId);
    },
    async giveUp({ db: tx, row }) {
      // A refund never recorded moved nothing here; a reversal never recorded leaves the part taken from earnings.
      const lastError = `its outcome could not be recorded after ${row.claims - 1} claims`;
      if (row.status === 'reversing') await settleFromEarnings(tx, row, { lastError });
      else
        await tx
          .update(paymentAdjustments)
          .set({ status: 'failed', lastError })
          .where(eq(paymentAdjustments.id, row.id));
    },
  };
}

/**
 * The student's money is back: `adjustment:<id>` takes the tutor's part from their available earnings and the
 * commission's from the platform's. A share Stripe transferred already is reversed next; otherwise the part is
 * settled from the tutor's earnings now.
 */
export async function recordRefund(
  tx: Executor,
  ctx: AdjustmentContext,
  row: PaymentAdjustment,
  providerRefundId: string,
) {
  await lockTutorPayouts(tx, row.tutorId);
  await postLedgerTransaction({
    db: tx,
    idempotencyKey: `adjustment:${row.id}`,
    kind: 'adjustment',
    requestId: row.requestId,
    entries: [
      { account: { kind: 'tutor_earnings_available' as const, userId: row.tutorId }, amountCents: -row.tutorCents },
      { account: { kind: 'platform_commission' as const }, amountCents: -row.commissionCents },
      { account: { kind: 'refunds' as const, userId: row.studentId }, amountCents: row.amountCents },
    ].filter((entry) => entry.amountCents !== 0),
  });
  const made = row.tutorCents > 0 ? await madeTransferOf(tx, row.requestId) : null;
  if (made) {
    await tx
      .update(paymentAdjustments)
      .set({ status: 'reversing', providerRefundId, stripeTransferId: made.stripeTransferId, lastError: null })
      .where(eq(paymentAdjustments.id, row.id));
  } else {
    await settleFromEarnings(tx, row, { providerRefundId, lastError: null });
  }
  await tell(tx, ctx, {
    userId: row.studentId,
    partnerId: row.tutorId,
    type: 'refund_issued',
    message: `Refund receipt: ${formatCents(row.amountCents)} of your payment was refunded by an admin. Refund reference ${providerRefundId}.`,
  });
  await tell(tx, ctx, {
    userId: row.tutorId,
    partnerId: row.studentId,
    type: 'refund_update',
    message: `An admin gave ${formatCents(row.amountCents)} of a released job back to the student: ${formatCents(row.tutorCents)} of it comes from your earnings. ${row.note}`,
  });
}

/**
 * The tutor's part stays taken from their earnings (nothing was sent, or Stripe would not reverse what was): their
 * transfers still waiting are cut to what is left of their balance, under their payouts lock, so a share not sent
 * never goes out; a balance left below zero is owed, and later shares pay it back first (queueStripeTransfer).
 */
async function settleFromEarnings(
  tx: Executor,
  row: PaymentAdjustment,
  outcome: { providerRefundId?: string; lastError: string | null },
) {
  await lockTutorPayouts(tx, row.tutorId);
  let tutorOutcome: PaymentAdjustment['tutorOutcome'] = null;
  if (row.tutorCents > 0) {
    await fitWaitingTransfers({ db: tx, tutorId: row.tutorId, requestId: row.requestId });
    const availableCents = await ledgerAccountBalance({
      db: tx,
      account: { kind: 'tutor_earnings_available', userId: row.tutorId },
    });
    tutorOutcome = availableCents < 0 ? 'owed_by_tutor' : 'from_earnings';
  }
  await tx
    .update(paymentAdjustments)
    .set({ ...outcome, status: 'settled', tutorOutcome, settledAt: sql`now()` })
    .where(eq(paymentAdjustments.id, row.id));
}

/** Stripe took the tutor's part back from their account: `reversal:<id>` returns it from paid out to available. */
async function recordReversal(tx: Executor, row: PaymentAdjustment, reversalId: string) {
  const reversedCents = await reversalCentsOf(tx, row);
  await postLedgerTransaction({
    db: tx,
    idempotencyKey: `reversal:${row.id}`,
    kind: 'adjustment',
    requestId: row.requestId,
    entries: [
      { account: { kind: 'payouts', userId: row.tutorId }, amountCents: -reversedCents },
      { account: { kind: 'tutor_earnings_available', userId: row.tutorId }, amountCents: reversedCents },
    ],
  });
  await tx
    .update(paymentAdjustments)
    .set({
      status: 'settled',
      stripeReversalId: reversalId,
      tutorOutcome: 'reversed',
      lastError: null,
      settledAt: sql`now()`,
    })
    .where(eq(paymentAdjustments.id, row.id));
}

/**
 * A call that failed: one Stripe refused ends its stage (a refused refund: nothing moved, the adjustment failed; a
 * refused reversal: the tutor's part stays taken from their earnings); any other is made again at the work's next
 * run, under the same key.
 */
async function recordFailedCall(tx: Executor, row: PaymentAdjustment, error: unknown) {
  const lastError = storableError(error, MAX_ERROR_LENGTH);
  if (!stripeRefused(error)) {
    await tx.update(paymentAdjustments).set({ lastError }).where(eq(paymentAdjustments.id, row.id));
  } else if (row.status === 'reversing') {
    await settleFromEarnings(tx, row, { lastError });
  } else {
    await tx.update(paymentAdjustments).set({ status: 'failed', lastError }).where(eq(paymentAdjustments.id, row.id));
  }
}
