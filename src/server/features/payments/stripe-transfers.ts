import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { StripeTransferView } from '#shared/schemas/earnings.ts';
import type { Executor } from '../../db/client.ts';
import { checkouts } from '../../db/schema/payments.ts';
import {
  stripeConnectedAccounts,
  stripeDisputes,
  stripeTransfers,
  type StripeTransfer,
} from '../../db/schema/stripe-connect.ts';
import { tutoringRequests } from '../../db/schema/requests.ts';
import { subjects } from '../../db/schema/subjects.ts';
import type { ClaimedWork } from '../../platform/jobs/claimed-work.ts';
import type { StripeGateway } from '../../platform/payments/stripe.ts';
import { ledgerAccountBalance, postLedgerTransaction } from './ledger.ts';

// Release under Stripe (docs/decisions/0053): the tutor's released share is transferred to their connected account
// with the job's charge as `source_transaction` and the job as `transfer_group`. The transfer is queued with the
// release and made by claimed work outside any transaction, once the tutor's payouts are enabled; until then the
// money stays on Earnings as available. Payouts from the connected account to the bank follow Stripe's schedule.

const TRANSFERS_SHOWN = 50;

/**
 * One tutor's changes to what they may be transferred at a time, for the transaction: each reads what the others
 * have spoken for.
 */
export async function lockTutorPayouts(db: Executor, tutorId: string) {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`payouts:${tutorId}`}))`);
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
  const availableCents = await ledgerAccountBalance({
    db,
    account: { kind: 'tutor_earnings_available', userId: tutorId },
  });
  const [waiting] = await db
    .select({ cents: sql<number>`coalesce(sum(${stripeTransfers.amountCents}), 0)`.mapWith(Number) })
    .from(stripeTransfers)
    .where(and(eq(stripeTransfers.tutorId, tutorId), eq(stripeTransfers.status, 'waiting')));
  const amountCents = Math.min(tutorCents, availableCents - waiting!.cents);
  if (amountCents <= 0) return;
  await db.insert(stripeTransfers).values({ requestId, tutorId, amountCents }).onConflictDoNothing();
}

/**
 * Cuts the tutor's waiting transfers down to their available balance after it fell (a chargeback lost after
 * release took their share back), the job's own transfer first, then the newest: a transfer cut to nothing is
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
  const availableCents = await ledgerAccountBalance({
    db,
    account: { kind: 'tutor_earnings_available', userId: tutorId },
  });
  const waiting = await db
    .select({ id: stripeTransfers.id, amountCents: stripeTransfers.amountCents })
    .from(stripeTransfers)
    .where(and(eq(stripeTransfers.tutorId, tutorId), eq(stripeTransfers.status, 'waiting')))
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
 * Makes waiting transfers, each once: claimed, called under `transfer:<requestId>` with no transaction open, and
 * recorded with the ledger's `transfer:<requestId>` (available → paid out). A call that fails leaves the transfer
 * waiting for the next claim; one given up after its claims is tried again from the start, since the money is owed.
 */
export function stripeTransferWork({
  db,
  stripe,
}: {
  db: Executor;
  stripe: StripeGateway;
}): ClaimedWork<typeof stripeTransfers, { transferId: string }> {
  return {
    name: 'stripe-transfers',
    table: stripeTransfers,
    due: transferable,
    order: stripeTransfers.createdAt,
    batchSize: 20,
    leaseMs: 60_000,
    maxClaims: 10,
    async call(row) {
      const { paymentIntentId, accountId } = await transferRoute(db, row);
      const { chargeId } = await stripe.chargeOf(paymentIntentId);
      return stripe.transfer({
        idempotencyKey: `transfer:${row.requestId}`,
        amountCents: row.amountCents,
        accountId,
        chargeId,
        transferGroup: row.requestId,
      });
    },
    async record({ db: tx, row, outcome }) {
      if (!outcome.ok) return;
      // A chargeback lost while Stripe was making it may have cut or cancelled it meanwhile: what was sent (the
      // claimed amount) is recorded, and the tutor's available balance owes the difference.
      const [made] = await tx
        .update(stripeTransfers)
        .set({
          status: 'transferred',
          amountCents: row.amountCents,
          stripeTransferId: outcome.value.transferId,
          transferredAt: sql`now()`,
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
      await tx.update(stripeTransfers).set({ claims: 0 }).where(eq(stripeTransfers.id, row.id));
    },
  };
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
