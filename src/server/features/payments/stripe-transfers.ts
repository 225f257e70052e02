import { and, desc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { StripeTransferView } from '#shared/schemas/earnings.ts';
import type { Executor } from '../../db/client.ts';
import { checkouts, paymentAdjustments } from '../../db/schema/payments.ts';
import {
  stripeConnectedAccounts,
  stripeDisputes,
  stripeTransfers,
  type StripeTransfer,
} from '../../db/schema/stripe-connect.ts';
import { tutoringRequests } from '../../db/schema/requests.ts';
import { subjects } from '../../db/schema/subjects.ts';
import { storableError, type ClaimedWork } from '../../platform/jobs/claimed-work.ts';
import { STRIPE_WORK_LEASE_MS, stripeRefused, type StripeGateway } from '../../platform/payments/stripe.ts';
import { ledgerAccountBalance, postLedgerTransaction } from './ledger.ts';

// Release under Stripe (docs/decisions/0053): the tutor's released share is transferred to their connected account
// with the job's charge as `source_transaction` and the job as `transfer_group`. The transfer is queued with the
// release and made by claimed work outside any transaction, once the tutor's payouts are enabled; until then the
// money stays on Earnings as available. Payouts from the connected account to the bank follow Stripe's schedule.

const TRANSFERS_SHOWN = 50;

/** Transfers still owed to the tutor: waiting for their call, or failed and waiting for an admin's Retry. */
const OWED: StripeTransfer['status'][] = ['waiting', 'failed'];

// A transfer's tries in one series: Stripe refusing it ends the series at once (the same key would only be answered
// the same refusal); any other failure (the network, Stripe's 5xx) is tried again after 1, 2, 4 … 64 minutes under
// the same key, so a try whose outcome was not heard is answered what Stripe did rather than made twice. The 8 tries
// span about 2 hours, well inside the 24 hours Stripe keeps a key. Then it waits, failed, for an admin's Retry.
const MAX_ATTEMPTS = 8;
const FIRST_RETRY_DELAY_S = 60;
/** Stripe's message, or what the network said, cut to a length for the admins' list. */
const MAX_ERROR_LENGTH = 500;

/** The key of a transfer's call: `transfer:<requestId>`, and `:retry-<n>` for the series an admin's n-th Retry began. */
export const transferCallKey = (row: Pick<StripeTransfer, 'requestId' | 'retries'>) =>
  row.retries === 0 ? `transfer:${row.requestId}` : `transfer:${row.requestId}:retry-${row.retries}`;

/**
 * One tutor's changes to what they may be transferred at a time, for the transaction: each reads what the others
 * have spoken for.
 */
export async function lockTutorPayouts(db: Executor, tutorId: string) {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`payouts:${tutorId}`}))`);
}

/**
 * What the tutor's transfers may take: their available balance, with the parts of adjustments whose reversal Stripe
 * is making counted back in (their postings took them out already; the reversal returns them), so a release or a
 * chargeback meanwhile does not cut the tutor's shares for money that is on its way back.
 */
async function transferableCentsOf(db: Executor, tutorId: string) {
  const availableCents = await ledgerAccountBalance({
    db,
    account: { kind: 'tutor_earnings_available', userId: tutorId },
  });
  const [reversing] = await db
    .select({ cents: sql<number>`coalesce(sum(${paymentAdjustments.tutorCents}), 0)`.mapWith(Number) })
    .from(paymentAdjustments)
    .where(and(eq(paymentAdjustments.tutorId, tutorId), eq(paymentAdjustments.status, 'reversing')));
  return availableCents + reversing!.cents;
}

/**
 * Queues the transfer of a job's released share, in the release's transaction: the share less what the tutor owes
 * (a negative available balance, left by a chargeback lost after their share was sent), so later earnings pay it
 * back; nothing when that leaves none.
 */
export async function queueStripeTransfer({
  db,
  requestId,
  tutorId,
  tutorCents,
}: {
  db: Executor;
  requestId: string;
  tutorId: string;
  tutorCents: number;
}) {
  await lockTutorPayouts(db, tutorId);
  const availableCents = await transferableCentsOf(db, tutorId);
  const [waiting] = await db
    .select({ cents: sql<number>`coalesce(sum(${stripeTransfers.amountCents}), 0)`.mapWith(Number) })
    .from(stripeTransfers)
    .where(and(eq(stripeTransfers.tutorId, tutorId), inArray(stripeTransfers.status, OWED)));
  const amountCents = Math.min(tutorCents, availableCents - waiting!.cents);
  if (amountCents <= 0) return;
  await db.insert(stripeTransfers).values({ requestId, tutorId, amountCents }).onConflictDoNothing();
}

/**
 * Cuts the tutor's waiting (and failed) transfers down to their available balance after it fell (a chargeback lost or
 * an adjustment after release took their share back), the job's own transfer first, then the newest: a transfer cut to nothing is
 * cancelled. In the caller's transaction, under the tutor's payouts lock.
 */
export async function fitWaitingTransfers({
  db,
  tutorId,
  requestId,
}: {
  db: Executor;
  tutorId: string;
  requestId: string;
}) {
  const availableCents = await transferableCentsOf(db, tutorId);
  const waiting = await db
    .select({ id: stripeTransfers.id, amountCents: stripeTransfers.amountCents })
    .from(stripeTransfers)
    .where(and(eq(stripeTransfers.tutorId, tutorId), inArray(stripeTransfers.status, OWED)))
    .orderBy(desc(eq(stripeTransfers.requestId, requestId)), desc(stripeTransfers.createdAt));
  let excessCents = waiting.reduce((sum, row) => sum + row.amountCents, 0) - Math.max(availableCents, 0);
  for (const row of waiting) {
    if (excessCents <= 0) break;
    const cutCents = Math.min(excessCents, row.amountCents);
    excessCents -= cutCents;
    await db
      .update(stripeTransfers)
      .set(cutCents === row.amountCents ? { status: 'cancelled' } : { amountCents: row.amountCents - cutCents })
      .where(eq(stripeTransfers.id, row.id));
  }
}

/**
 * Transfers whose tutor may be paid and whose job has no chargeback but won ones: an open one freezes the money,
 * and a lost one gave it back to the card holder.
 */
const transferable = and(
  eq(stripeTransfers.status, 'waiting'),
  lte(stripeTransfers.nextAttemptAt, sql`now()`),
  sql`exists (select 1 from ${stripeConnectedAccounts} where ${stripeConnectedAccounts.tutorId} = ${stripeTransfers.tutorId} and ${stripeConnectedAccounts.payoutsEnabled})`,
  sql`not exists (select 1 from ${stripeDisputes} where ${stripeDisputes.requestId} = ${stripeTransfers.requestId} and ${stripeDisputes.outcome} is distinct from 'won')`,
)!;

/** Where a transfer goes and which charge it comes from, read as it is made. */
async function transferRoute(db: Executor, row: StripeTransfer) {
  const [found] = await db
    .select({ paymentIntentId: checkouts.providerPaymentId, accountId: stripeConnectedAccounts.accountId })
    .from(checkouts)
    .innerJoin(stripeConnectedAccounts, eq(stripeConnectedAccounts.tutorId, row.tutorId))
    .where(and(eq(checkouts.requestId, row.requestId), eq(checkouts.status, 'paid')));
  if (!found?.paymentIntentId) throw new Error(`Job ${row.requestId} has no paid Stripe checkout`);
  if (!found.accountId) throw new Error(`Tutor ${row.tutorId} has no connected account yet`);
  return { paymentIntentId: found.paymentIntentId, accountId: found.accountId };
}

/**
 * Makes waiting transfers, each once: claimed, called under its key (`transferCallKey`) with no transaction open,
 * and recorded with the ledger's `transfer:<requestId>` (available → paid out). A failed call is tried again with
 * backoff, then left failed for an admin; a series an admin started again first looks for a transfer an earlier key
 * made, so it is recorded rather than made twice.
 */
export function stripeTransferWork({
  db,
  stripe,
}: {
  db: Executor;
  stripe: StripeGateway;
}): ClaimedWork<typeof stripeTransfers, { transferId: string; amountCents: number }> {
  return {
    name: 'stripe-transfers',
    table: stripeTransfers,
    due: transferable,
    order: stripeTransfers.nextAttemptAt,
    batchSize: 20,
    leaseMs: STRIPE_WORK_LEASE_MS,
    // Two spare claims, so a record lost to a passing database failure does not cost the transfer a try.
    maxClaims: MAX_ATTEMPTS + 2,
    async call(row) {
      const { paymentIntentId, accountId } = await transferRoute(db, row);
      const made = row.retries > 0 && (await stripe.transferMadeFor({ accountId, transferGroup: row.requestId }));
      if (made) return made;
      const { chargeId } = await stripe.chargeOf(paymentIntentId);
      return stripe.transfer({
        idempotencyKey: transferCallKey(row),
        amountCents: row.amountCents,
        accountId,
        chargeId,
        transferGroup: row.requestId,
      });
    },
    async record({ db: tx, row, outcome }) {
      if (!outcome.ok) {
        await recordFailedTry(tx, row, outcome.error);
        return;
      }
      // A chargeback lost while Stripe was making it may have cut or cancelled it meanwhile: what was sent is
      // recorded, and the tutor's available balance owes the difference.
      const [made] = await tx
        .update(stripeTransfers)
        .set({
          status: 'transferred',
          amountCents: outcome.value.amountCents,
          stripeTransferId: outcome.value.transferId,
          transferredAt: sql`now()`,
          attempts: row.attempts + 1,
          lastError: null,
        })
        .where(and(eq(stripeTransfers.id, row.id), inArray(stripeTransfers.status, ['waiting', 'cancelled'])))
        .returning();
      if (!made) return;
      await postLedgerTransaction({
        db: tx,
        idempotencyKey: `transfer:${made.requestId}`,
        kind: 'payout',
        requestId: made.requestId,
        entries: [
          { account: { kind: 'tutor_earnings_available', userId: made.tutorId }, amountCents: -made.amountCents },
          { account: { kind: 'payouts', userId: made.tutorId }, amountCents: made.amountCents },
        ],
      });
    },
    async giveUp({ db: tx, row }) {
      // Called but never recorded: whether Stripe made it is unknown, so an admin's Retry looks it up first.
      await tx
        .update(stripeTransfers)
        .set({ status: 'failed', lastError: `its outcome could not be recorded after ${row.claims - 1} claims` })
        .where(and(eq(stripeTransfers.id, row.id), eq(stripeTransfers.status, 'waiting')));
    },
  };
}

/** A failed try: tried again after the backoff, or failed for an admin once refused or out of tries. */
async function recordFailedTry(tx: Executor, row: StripeTransfer, error: unknown) {
  const attempts = row.attempts + 1;
  const failed = stripeRefused(error) || attempts >= MAX_ATTEMPTS;
  await tx
    .update(stripeTransfers)
    .set({
      attempts,
      status: failed ? 'failed' : 'waiting',
      nextAttemptAt: sql`now() + make_interval(secs => ${FIRST_RETRY_DELAY_S * 2 ** (attempts - 1)})`,
      lastError: storableError(error, MAX_ERROR_LENGTH),
    })
    .where(and(eq(stripeTransfers.id, row.id), eq(stripeTransfers.status, 'waiting')));
}

/** The tutor's transfers, newest first, as Earnings lists them. */
export async function listStripeTransfers(db: Executor, tutorId: string): Promise<StripeTransferView[]> {
  const rows = await db
    .select({
      requestId: stripeTransfers.requestId,
      subjectName: subjects.name,
      amountCents: stripeTransfers.amountCents,
      status: stripeTransfers.status,
      createdAt: stripeTransfers.createdAt,
      transferredAt: stripeTransfers.transferredAt,
      // Stripe refused it or a try failed: the tutor is told it is late, not that it waits for them.
      delayed: sql<boolean>`${stripeTransfers.status} = 'failed' or (${stripeTransfers.status} = 'waiting' and ${stripeTransfers.attempts} > 0)`,
    })
    .from(stripeTransfers)
    .innerJoin(tutoringRequests, eq(tutoringRequests.id, stripeTransfers.requestId))
    .innerJoin(subjects, eq(subjects.id, tutoringRequests.subjectId))
    .where(eq(stripeTransfers.tutorId, tutorId))
    .orderBy(desc(stripeTransfers.createdAt))
    .limit(TRANSFERS_SHOWN);
  return rows.map((row) => ({
    ...row,
    createdAt: row.createdAt.toISOString(),
    transferredAt: row.transferredAt?.toISOString() ?? null,
  }));
}
