import { and, eq, sql } from 'drizzle-orm';
import { splitReleasedCents } from '#shared/rules/commission.ts';
import type { Executor } from '../../db/client.ts';
import { checkouts, ledgerAccounts, ledgerEntries } from '../../db/schema/payments.ts';
import { tutorBids, tutoringRequests } from '../../db/schema/requests.ts';
import type { IntervalJob } from '../../platform/jobs/interval-jobs.ts';
import { jobPaymentState } from './job-payment-state.ts';
import { ledgerAccountBalance, postingCentsByKind, postLedgerTransaction, type LedgerEntryInput } from './ledger.ts';
import { queueStripeTransfer } from './stripe-transfers.ts';

// Release (docs/decisions/0042): a job's held money goes to its tutor's available earnings, less the platform's
// commission, when the student marks the job completed or some days after the tutor marked it delivered. Under
// Stripe the share is then transferred to the tutor's connected account (docs/decisions/0053).

/** How many delivered jobs one run of the release job releases; the next run takes the rest. */
const RELEASE_BATCH_SIZE = 100;

/**
 * Releases all the money held for the job, once (`release:<requestId>`): the tutor gets the released cents less the
 * commission, rounded half up. Runs in the caller's transaction, which holds the job's row locked, so no refund of
 * the same cents races it. Only money in the `held` state moves: a job without a payment, released or refunded
 * already, or frozen by an open refund request posts nothing.
 */
export async function releaseHeldFunds({
  db,
  requestId,
  tutorId,
  commissionBasisPoints,
}: {
  db: Executor;
  requestId: string;
  tutorId: string;
  commissionBasisPoints: number;
}) {
  if ((await jobPaymentState({ db, requestId })) !== 'held') return null;
  const heldCents = await ledgerAccountBalance({ db, account: { kind: 'held_funds', requestId } });
  const { commissionCents, tutorCents } = splitReleasedCents({ releasedCents: heldCents, commissionBasisPoints });
  const entries: LedgerEntryInput[] = [
    { account: { kind: 'held_funds', requestId }, amountCents: -heldCents },
    { account: { kind: 'tutor_earnings_available', userId: tutorId }, amountCents: tutorCents },
    { account: { kind: 'platform_commission' }, amountCents: commissionCents },
  ];
  const posting = await postLedgerTransaction({
    db,
    idempotencyKey: `release:${requestId}`,
    kind: 'release',
    requestId,
    // A 0 % or 100 % commission leaves one side empty: a ledger entry is never zero.
    entries: entries.filter((entry) => entry.amountCents !== 0),
  });
  // Under Stripe the tutor's share goes on to their connected account (stripe-transfers.ts).
  if (posting.posted && tutorCents > 0 && (await providerOf(db, requestId)) === 'stripe') {
    await queueStripeTransfer({ db, requestId, tutorId, tutorCents });
  }
  return posting;
}

/**
 * What the job's release moved (`release:<requestId>`): all the cents it took from the held funds, and the tutor's
 * share of them; both 0 before release.
 */
export async function releasedSplitOf(db: Executor, requestId: string) {
  const moved = await postingCentsByKind(db, `release:${requestId}`);
  return { releasedCents: -(moved.held_funds ?? 0), tutorCents: moved.tutor_earnings_available ?? 0 };
}

async function providerOf(db: Executor, requestId: string) {
  const [paid] = await db
    .select({ provider: checkouts.provider })
    .from(checkouts)
    .where(and(eq(checkouts.requestId, requestId), eq(checkouts.status, 'paid')));
  return paid?.provider;
}

/** Cents held for the request (the held_funds account of the outer query's row). */
const heldCentsOf = (requestId: typeof tutoringRequests.id) =>
  sql`(select coalesce(sum(${ledgerEntries.amountCents}), 0) from ${ledgerEntries}
    inner join ${ledgerAccounts} on ${ledgerAccounts.id} = ${ledgerEntries.accountId}
    where ${and(eq(ledgerAccounts.kind, 'held_funds'), eq(ledgerAccounts.ownerRequestId, requestId))})`;

/**
 * Releases the money of jobs delivered `releaseAfterDays` ago or more that the student has not marked completed,
 * oldest delivery first; returns how many. Each job's row is locked as completion locks it.
 */
export async function releaseDeliveredJobs({
  db,
  releaseAfterDays,
  commissionBasisPoints,
}: {
  db: Executor;
  releaseAfterDays: number;
  commissionBasisPoints: number;
}) {
  const due = await db
    .select({ requestId: tutoringRequests.id, tutorId: tutorBids.tutorId })
    .from(tutoringRequests)
    .innerJoin(tutorBids, eq(tutorBids.id, tutoringRequests.acceptedBidId))
    .where(
      and(
        eq(tutoringRequests.status, 'accepted'),
        sql`${tutoringRequests.deliveredAt} <= now() - make_interval(days => ${releaseAfterDays})`,
        // Frozen jobs (an open refund request) are held too: releaseHeldFunds leaves them.
        sql`${heldCentsOf(tutoringRequests.id)} > 0`,
      ),
    )
    .orderBy(tutoringRequests.deliveredAt)
    .limit(RELEASE_BATCH_SIZE)
    .for('update', { of: tutoringRequests, skipLocked: true });
  let released = 0;
  for (const job of due) {
    if (await releaseHeldFunds({ db, ...job, commissionBasisPoints })) released++;
  }
  return released;
}

export const RELEASE_JOB_INTERVAL_MS = 60 * 60_000;

/** The periodic release of delivered jobs' money: every hour, since it waits for days. */
export const deliveredJobsReleaseJob = (options: { releaseAfterDays: number; commissionBasisPoints: number }) =>
  ({
    name: 'release-delivered-jobs',
    intervalMs: RELEASE_JOB_INTERVAL_MS,
    run: ({ db }) => releaseDeliveredJobs({ db, ...options }),
  }) satisfies IntervalJob;
