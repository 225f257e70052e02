import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { formatCents } from '#shared/rules/money.ts';
import { adjustmentMessages, type Adjustment, type AdjustmentInput } from '#shared/schemas/admin-payments.ts';
import type { Database, Executor } from '../../db/client.ts';
import { users } from '../../db/schema/auth.ts';
import { checkouts, paymentAdjustments, type PaymentAdjustment } from '../../db/schema/payments.ts';
import { stripeDisputes, stripeTransfers } from '../../db/schema/stripe-connect.ts';
import { AppError, fieldError } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { runClaimedWorkOnce, storableError, type ClaimedWork } from '../../platform/jobs/claimed-work.ts';
import { stripeRefused } from '../../platform/payments/stripe.ts';
import { jobPaymentState } from './job-payment-state.ts';
import { ledgerAccountBalance, postLedgerTransaction } from './ledger.ts';
import { paymentProvider } from './provider.ts';
import { lockJob, tell, type RefundContext } from './refund-jobs.ts';
import { releasedSplitOf } from './release.ts';
import { fitWaitingTransfers, lockTutorPayouts } from './stripe-transfers.ts';

/** What adjustments need of the refunds' context: who gives Stripe money back, and who tells the people. */
type AdjustmentContext = Pick<RefundContext, 'publicUrl' | 'operator' | 'log' | 'stripe'>;

// An admin's adjustment after release (docs/decisions/0066): money of a job already released goes back to the
// student. The provider refunds it first (under Stripe, a refund of the job's PaymentIntent); its posting takes the
// tutor's part from their available earnings and the commission on those cents from the platform's. Under Stripe a
// share already transferred is then reversed from the tutor's connected account; where Stripe refuses (its balance
// was paid out to the bank), the tutor's balance stays below zero and later shares pay it back first, as after a
// lost chargeback. Each provider call is claimed, made outside any transaction under a key of the adjustment's own,
// and recorded from its outcome (docs/decisions/0040).

/** A refund or reversal the provider could not answer is tried again after its claim's lease, this many times. */
const MAX_CLAIMS = 10;
const MAX_ERROR_LENGTH = 500;

/** Whether any of these people was erased; their rows stay locked against an erasure until the transaction ends. */
async function anyErased(tx: Executor, userIds: string[]) {
  const people = await tx
    .select({ erasedAt: users.erasedAt })
    .from(users)
    .where(inArray(users.id, userIds))
    .orderBy(users.id)
    .for('key share');
  return people.some((person) => person.erasedAt !== null);
}

/** The tutor's part of cents given back, in the proportion the release gave them, rounded half up. */
function tutorPartOf(
  amountCents: number,
  { releasedCents, tutorCents }: { releasedCents: number; tutorCents: number },
) {
  const released = BigInt(releasedCents);
  return Number((BigInt(amountCents) * BigInt(tutorCents) * 2n + released) / (2n * released));
}

/**
 * Records the adjustment with its split and the admin's audit row, then has the provider give the money back at
 * once (any call that fails is made again by the periodic work). Unknown job: 404; a job whose money is not released
 * in full, or is adjusted already (an earlier refund Stripe made after all included), or has a chargeback: 409; more
 * than was paid: 400.
 */
export async function adjustReleasedJob({
  db,
  ctx,
  admin,
  requestId,
  input,
  audit,
}: {
  db: Database;
  ctx: AdjustmentContext;
  admin: SessionUser;
  requestId: string;
  input: AdjustmentInput;
  audit: (options: { db: Executor; adjustment: PaymentAdjustment }) => Promise<void>;
}) {
  const madeAfterAll = await recordRefundMadeAfterAll({ db, ctx, requestId });
  if (madeAfterAll) {
    await workAtOnce({ db, ctx, adjustmentId: madeAfterAll });
    throw new AppError('CONFLICT', { message: adjustmentMessages.refundedAfterAll });
  }
  const created = await db.transaction(async (tx) => {
    // The refund's posting would be refused for an erased person after the provider made it. Their rows are held
    // until this commits, as a posting holds them, so an erasure waits for the adjustment and then finds it under
    // way; held before the job's row, in the order an erasure takes them (the person, then their jobs).
    const [checkout] = await tx
      .select({ id: checkouts.id, studentId: checkouts.studentId, tutorId: checkouts.tutorId })
      .from(checkouts)
      .where(and(eq(checkouts.requestId, requestId), eq(checkouts.status, 'paid')));
    if (checkout && (await anyErased(tx, [checkout.studentId, checkout.tutorId]))) {
      throw new AppError('CONFLICT', { message: adjustmentMessages.erasedPerson });
    }
    const job = await lockJob(tx, requestId);
    if (!job) throw new AppError('NOT_FOUND');
    if ((await jobPaymentState({ db: tx, requestId })) !== 'released') {
      throw new AppError('CONFLICT', { message: adjustmentMessages.notReleased });
    }
    if ((await tx.$count(stripeDisputes, eq(stripeDisputes.requestId, requestId))) > 0) {
      throw new AppError('CONFLICT', { message: adjustmentMessages.chargeback });
    }
    // One per job (but a failed one): read rather than left to the unique index, whose check would wait for the
    // row's record to end while this holds the job's lock, which that record's ledger posting waits for.
    const [adjusted] = await tx
      .select({ id: paymentAdjustments.id })
      .from(paymentAdjustments)
      .where(and(eq(paymentAdjustments.requestId, requestId), ne(paymentAdjustments.status, 'failed')));
    if (adjusted) throw new AppError('CONFLICT', { message: adjustmentMessages.notReleased });
    const split = await releasedSplitOf(tx, requestId);
    if (input.amountCents > split.releasedCents) throw fieldError('amountCents', adjustmentMessages.tooMuch);
    const tutorCents = tutorPartOf(input.amountCents, split);
    const [row] = await tx
      .insert(paymentAdjustments)
      .values({
        requestId,
        checkoutId: checkout!.id,
        studentId: job.studentId,
        tutorId: job.tutorId,
        adminId: admin.id,
        note: input.note,
        amountCents: input.amountCents,
        tutorCents,
        commissionCents: input.amountCents - tutorCents,
      })
      .returning();
    await audit({ db: tx, adjustment: row! });
    return row!;
  });
  await workAtOnce({ db, ctx, adjustmentId: created.id });
  const [settled] = await db.select().from(paymentAdjustments).where(eq(paymentAdjustments.id, created.id));
  return toAdjustmentView(settled!);
}

/** Makes an adjustment's calls now rather than at the next periodic run; whatever fails is made again by that. */
async function workAtOnce({ db, ctx, adjustmentId }: { db: Database; ctx: AdjustmentContext; adjustmentId: string }) {
  // A second stage (the reversal) becomes due as the first is recorded: two runs take both.
  const work = adjustmentWork({ db, ctx });
  for (let stage = 0; stage < 2; stage++) {
    await runClaimedWorkOnce({ db, work, log: ctx.log }).catch((error: unknown) =>
      ctx.log.error({ err: error, adjustmentId }, 'adjustment could not be made at once'),
    );
  }
}

/**
 * An adjustment given up because Stripe never answered its refund (decision 0066) may have been refunded all the
 * same. Before money of the job goes back under a new key, each is looked up at Stripe by its key; one Stripe made
 * is recorded now, as if its answer had come, and is the job's adjustment. Returns its id, or null if none was made.
 */
async function recordRefundMadeAfterAll({
  db,
  ctx,
  requestId,
}: {
  db: Database;
  ctx: AdjustmentContext;
  requestId: string;
}) {
  if (!ctx.stripe) return null;
  const givenUp = await db
    .select({ id: paymentAdjustments.id, paymentIntentId: checkouts.providerPaymentId })
    .from(paymentAdjustments)
    .innerJoin(checkouts, eq(checkouts.id, paymentAdjustments.checkoutId))
    .where(
      and(
        eq(paymentAdjustments.requestId, requestId),
        eq(paymentAdjustments.status, 'failed'),
        eq(checkouts.provider, 'stripe'),
      ),
    );
  for (const { id, paymentIntentId } of givenUp) {
    if (!paymentIntentId) continue;
    const made = await ctx.stripe.refundMadeUnder({ paymentIntentId, idempotencyKey: `adjustment:${id}` });
    if (!made) continue;
    const recorded = await db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(paymentAdjustments)
        .where(and(eq(paymentAdjustments.id, id), eq(paymentAdjustments.status, 'failed')))
        .for('update');
      if (!row) return false;
      // Its reversal, if one is due, gets the tries of a stage of its own: the refund's were all spent.
      await tx.update(paymentAdjustments).set({ claims: 0 }).where(eq(paymentAdjustments.id, id));
      await recordRefund(tx, ctx, row, made.refundId);
      return true;
    });
    if (recorded) return id;
  }
  return null;
}

export function toAdjustmentView(row: PaymentAdjustment): Adjustment {
  return {
    id: row.id,
    requestId: row.requestId,
    amountCents: row.amountCents,
    tutorCents: row.tutorCents,
    commissionCents: row.commissionCents,
    status: row.status,
    tutorOutcome: row.tutorOutcome,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
  };
}

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
    leaseMs: 60_000,
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
async function recordRefund(tx: Executor, ctx: AdjustmentContext, row: PaymentAdjustment, providerRefundId: string) {
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
 * refused reversal: the tutor's part stays taken from their earnings); any other is made again after the claim's
 * lease, under the same key.
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
