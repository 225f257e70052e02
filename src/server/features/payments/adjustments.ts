import { and, eq, inArray, ne } from 'drizzle-orm';
import { adjustmentMessages, type Adjustment, type AdjustmentInput } from '#shared/schemas/admin-payments.ts';
import type { Database, Executor } from '../../db/client.ts';
import { users } from '../../db/schema/auth.ts';
import { checkouts, paymentAdjustments, type PaymentAdjustment } from '../../db/schema/payments.ts';
import { stripeDisputes } from '../../db/schema/stripe-connect.ts';
import { AppError, fieldError } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { runClaimedWorkOnce } from '../../platform/jobs/claimed-work.ts';
import { jobPaymentState } from './job-payment-state.ts';
import { lockJob } from './refund-jobs.ts';
import { adjustmentWork, recordRefund, type AdjustmentContext } from './adjustment-work.ts';
import { releasedSplitOf } from './release.ts';

// An admin's adjustment after release (docs/decisions/0066): money of a job already released goes back to the
// student. The provider refunds it first (under Stripe, a refund of the job's PaymentIntent); its posting takes the
// tutor's part from their available earnings and the commission on those cents from the platform's. Under Stripe a
// share already transferred is then reversed from the tutor's connected account; where Stripe refuses (its balance
// was paid out to the bank), the tutor's balance stays below zero and later shares pay it back first, as after a
// lost chargeback. Each provider call is claimed (adjustment-work.ts), made outside any transaction under a key of the adjustment's own,
// and recorded from its outcome (docs/decisions/0040).

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
  const { stripe } = ctx;
  if (!stripe) return null;
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
    const made = await stripe
      .refundMadeUnder({ paymentIntentId, idempotencyKey: `adjustment:${id}` })
      .catch((error: unknown) => {
        ctx.log.error({ err: error, adjustmentId: id }, 'an adjustment given up could not be looked up at Stripe');
        throw new AppError('PAYMENT_PROVIDER_FAILED', { message: adjustmentMessages.stripeUnavailable });
      });
    if (made && (await recordMadeRefund({ db, ctx, adjustmentId: id, providerRefundId: made.refundId }))) return id;
  }
  return null;
}

/**
 * Records the refund Stripe made for an adjustment given up, unless its job has been adjusted since (an erasure
 * would refuse the posting, another adjustment holds the job's one place): that is logged for an operator instead.
 */
function recordMadeRefund({
  db,
  ctx,
  adjustmentId,
  providerRefundId,
}: {
  db: Database;
  ctx: AdjustmentContext;
  adjustmentId: string;
  providerRefundId: string;
}) {
  return db.transaction(async (tx) => {
    const isGivenUp = and(eq(paymentAdjustments.id, adjustmentId), eq(paymentAdjustments.status, 'failed'));
    const [found] = await tx.select().from(paymentAdjustments).where(isGivenUp);
    if (!found) return false;
    // Held in the order an adjustment's creation holds them: its people, then its job.
    const erased = await anyErased(tx, [found.studentId, found.tutorId]);
    await lockJob(tx, found.requestId);
    const [other] = await tx
      .select({ id: paymentAdjustments.id })
      .from(paymentAdjustments)
      .where(and(eq(paymentAdjustments.requestId, found.requestId), ne(paymentAdjustments.status, 'failed')));
    const [row] = await tx.select().from(paymentAdjustments).where(isGivenUp).for('update');
    if (!row) return false;
    if (erased || other) {
      ctx.log.error(
        { adjustmentId, providerRefundId, otherAdjustmentId: other?.id, erased },
        'Stripe made the refund of an adjustment given up, which can no longer be recorded: reconcile it by hand',
      );
      return false;
    }
    // Its reversal, if one is due, gets the tries of a stage of its own: the refund's were all spent.
    await tx.update(paymentAdjustments).set({ claims: 0 }).where(eq(paymentAdjustments.id, adjustmentId));
    await recordRefund(tx, ctx, row, providerRefundId);
    return true;
  });
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
