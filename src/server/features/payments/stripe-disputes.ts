import { alias } from 'drizzle-orm/pg-core';
import { asc, desc, eq, isNull, sql } from 'drizzle-orm';
import { STRIPE_DISPUTE_OUTCOMES } from '#shared/constants.ts';
import type { Chargeback } from '#shared/schemas/refunds.ts';
import type { Database, Executor } from '../../db/client.ts';
import { users } from '../../db/schema/auth.ts';
import { checkouts } from '../../db/schema/payments.ts';
import { stripeDisputes } from '../../db/schema/stripe-connect.ts';
import { tutoringRequests } from '../../db/schema/requests.ts';
import { subjects } from '../../db/schema/subjects.ts';
import type { StripeGateway } from '../../platform/payments/stripe.ts';
import { ledgerAccountBalance, postLedgerTransaction } from './ledger.ts';
import { releasedSplitOf } from './release.ts';
import { fitWaitingTransfers, lockTutorPayouts } from './stripe-transfers.ts';

// Chargebacks (docs/decisions/0053): a card holder's bank disputes a job's charge at Stripe. While it is open the
// job's money is frozen (no release, no transfer) and it waits in the admins' disputes queue, where admins answer it
// in Stripe's dashboard; when Stripe closes it, a lost one gives the money back to the card holder in the ledger.

const DISPUTES_SHOWN = 100;

/**
 * Records the dispute as Stripe tells it now (whichever of its events comes, in whatever order): opened, it freezes
 * its job; closed, its outcome is kept and a lost one posts `dispute:<id>` once; Stripe's fee, taken and returned,
 * is posted under each of its balance transactions. A dispute on a charge no checkout here made is not ours.
 */
export async function recordStripeDispute({
  db,
  stripe,
  disputeId,
}: {
  db: Database;
  stripe: StripeGateway;
  disputeId: string;
}) {
  const dispute = await stripe.dispute(disputeId);
  if (!dispute.paymentIntentId) return;
  const [checkout] = await db
    .select({
      id: checkouts.id,
      requestId: checkouts.requestId,
      studentId: checkouts.studentId,
      tutorId: checkouts.tutorId,
    })
    .from(checkouts)
    .where(eq(checkouts.stripePaymentIntentId, dispute.paymentIntentId));
  if (!checkout) return;
  const outcome = STRIPE_DISPUTE_OUTCOMES.find((closed) => closed === dispute.status) ?? null;
  const row: typeof stripeDisputes.$inferInsert = {
    id: disputeId,
    requestId: checkout.requestId,
    checkoutId: checkout.id,
    amountCents: dispute.amountCents,
    reason: dispute.reason,
    stripeStatus: dispute.status,
    outcome,
    closedAt: outcome ? new Date() : null,
  };
  // Kept on its own, before its money: a posting refused (a person erased since) leaves the dispute in the admins'
  // queue, and this event's failure for them to settle by hand.
  await db
    .insert(stripeDisputes)
    .values(row)
    .onConflictDoUpdate({
      target: stripeDisputes.id,
      set: {
        stripeStatus: dispute.status,
        // A closed dispute stays closed as it first closed.
        outcome: sql`coalesce(${stripeDisputes.outcome}, excluded.outcome)`,
        closedAt: sql`coalesce(${stripeDisputes.closedAt}, excluded.closed_at)`,
      },
    });
  await db.transaction(async (tx) => {
    if (outcome === 'lost') {
      await postLostDispute(tx, { disputeId, ...checkout, amountCents: dispute.amountCents });
    }
    // Stripe's dispute fee, as its balance transactions say (never a figure of ours), each posted once whichever
    // event reads it first: the platform pays it from its commission, and gets it back if Stripe returns it.
    for (const { balanceTransactionId, feeCents } of dispute.fees) {
      if (feeCents === 0) continue;
      await postLedgerTransaction({
        db: tx,
        idempotencyKey: `dispute-fee:${balanceTransactionId}`,
        kind: 'provider_fee',
        requestId: checkout.requestId,
        entries: [
          { account: { kind: 'provider_fees' }, amountCents: feeCents },
          { account: { kind: 'platform_commission' }, amountCents: -feeCents },
        ],
      });
    }
  });
}

/**
 * The card holder got the disputed cents back: from the money still held for the job, then from the tutor's share
 * released for it, then from the platform's commission account. The tutor's share comes out of their available
 * balance under their payouts lock, and their waiting transfers are cut to match in the same transaction, so the
 * share never goes out as well; a share sent already leaves the balance below zero, netted against later shares.
 */
async function postLostDispute(
  db: Executor,
  input: { disputeId: string; requestId: string; studentId: string; tutorId: string; amountCents: number },
) {
  await lockTutorPayouts(db, input.tutorId);
  const heldCents = await ledgerAccountBalance({ db, account: { kind: 'held_funds', requestId: input.requestId } });
  const fromHeld = Math.min(heldCents, input.amountCents);
  const { tutorCents: releasedShare } = await releasedSplitOf(db, input.requestId);
  const fromTutor = Math.min(releasedShare, input.amountCents - fromHeld);
  const fromPlatform = input.amountCents - fromHeld - fromTutor;
  const posting = await postLedgerTransaction({
    db,
    idempotencyKey: `dispute:${input.disputeId}`,
    kind: 'refund',
    requestId: input.requestId,
    entries: [
      { account: { kind: 'held_funds' as const, requestId: input.requestId }, amountCents: -fromHeld },
      { account: { kind: 'tutor_earnings_available' as const, userId: input.tutorId }, amountCents: -fromTutor },
      { account: { kind: 'platform_commission' as const }, amountCents: -fromPlatform },
      { account: { kind: 'refunds' as const, userId: input.studentId }, amountCents: input.amountCents },
    ].filter((entry) => entry.amountCents !== 0),
  });
  if (posting.posted && fromTutor > 0) {
    await fitWaitingTransfers({ db, tutorId: input.tutorId, requestId: input.requestId });
  }
}

const students = alias(users, 'students');
const tutors = alias(users, 'tutors');

/** The chargebacks for the admins' disputes queue: the open ones first, each group oldest first. */
export async function listChargebacks(db: Executor): Promise<Chargeback[]> {
  const rows = await db
    .select({
      id: stripeDisputes.id,
      requestId: stripeDisputes.requestId,
      subjectName: subjects.name,
      studentName: students.username,
      tutorName: tutors.username,
      amountCents: stripeDisputes.amountCents,
      reason: stripeDisputes.reason,
      stripeStatus: stripeDisputes.stripeStatus,
      outcome: stripeDisputes.outcome,
      openedAt: stripeDisputes.openedAt,
      closedAt: stripeDisputes.closedAt,
    })
    .from(stripeDisputes)
    .innerJoin(checkouts, eq(checkouts.id, stripeDisputes.checkoutId))
    .innerJoin(tutoringRequests, eq(tutoringRequests.id, stripeDisputes.requestId))
    .innerJoin(subjects, eq(subjects.id, tutoringRequests.subjectId))
    .innerJoin(students, eq(students.id, checkouts.studentId))
    .innerJoin(tutors, eq(tutors.id, checkouts.tutorId))
    .orderBy(desc(isNull(stripeDisputes.closedAt)), asc(stripeDisputes.openedAt))
    .limit(DISPUTES_SHOWN);
  return rows.map((row) => ({
    ...row,
    openedAt: row.openedAt.toISOString(),
    closedAt: row.closedAt?.toISOString() ?? null,
  }));
}
