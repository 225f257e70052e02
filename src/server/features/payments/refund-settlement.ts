import { and, eq, lte, sql } from 'drizzle-orm';
import { formatCents } from '#shared/rules/money.ts';
import type { Database, Executor } from '../../db/client.ts';
import { users } from '../../db/schema/auth.ts';
import {
  checkouts,
  ledgerAccounts,
  ledgerEntries,
  refundRequests,
  type RefundRequest,
} from '../../db/schema/payments.ts';
import { runClaimedWorkOnce, type ClaimedWork } from '../../platform/jobs/claimed-work.ts';
import type { IntervalJob } from '../../platform/jobs/interval-jobs.ts';
import { STRIPE_WORK_LEASE_MS } from '../../platform/payments/stripe.ts';
import { postLedgerTransaction } from './ledger.ts';
import { paymentProvider, type RefundOutcome } from './provider.ts';
import { releaseHeldFunds } from './release.ts';
import { lockJob, REASON_LABELS, tell, toRefundRequestView, type RefundContext } from './refund-jobs.ts';

// A decided refund made (docs/decisions/0044): claimed, the provider called with no transaction open, the ledger
// posted from its outcome; and requests left unanswered, and held jobs of suspended tutors, sent to admins.

/** A decided refund is made at once (claim, call, record); the periodic work picks it up again if this fails. */
export async function settle({ db, ctx, row }: { db: Database; ctx: RefundContext; row: RefundRequest }) {
  if (row.status !== 'refunding') return toRefundRequestView(row);
  await runClaimedWorkOnce({ db, work: refundWork({ db, ctx }), log: ctx.log }).catch((error: unknown) =>
    ctx.log.error({ err: error, refundRequestId: row.id }, 'refund could not be made at once'),
  );
  const [settled] = await db.select().from(refundRequests).where(eq(refundRequests.id, row.id));
  return toRefundRequestView(settled!);
}

/**
 * Posts the decided refund from the provider's outcome, in the transaction that ends the claim: `refund:<id>` moves
 * the refunded cents from the job's held funds to the student's refunds, and a partial refund releases the rest to
 * the tutor (less commission, as any release) under the job's one `release:` key; a full refund closes the job.
 */
async function recordRefund({
  db,
  ctx,
  row,
  outcome,
}: {
  db: Executor;
  ctx: RefundContext;
  row: RefundRequest;
  outcome: RefundOutcome;
}) {
  await lockJob(db, row.requestId);
  const refundCents = row.refundCents!;
  const partial = refundCents < row.heldCents;
  await db
    .update(refundRequests)
    .set({
      status: partial ? 'partially_refunded' : 'refunded',
      providerRefundId: outcome.providerRefundId,
      refundedAt: sql`now()`,
    })
    .where(eq(refundRequests.id, row.id));
  await postLedgerTransaction({
    db,
    idempotencyKey: `refund:${row.id}`,
    kind: 'refund',
    requestId: row.requestId,
    entries: [
      { account: { kind: 'held_funds', requestId: row.requestId }, amountCents: -refundCents },
      { account: { kind: 'refunds', userId: row.studentId }, amountCents: refundCents },
    ],
  });
  // The rest goes to the tutor as any release does; the request is settled, so the job's money is held again.
  if (partial)
    await releaseHeldFunds({
      db,
      requestId: row.requestId,
      tutorId: row.tutorId,
      commissionBasisPoints: ctx.commissionBasisPoints,
    });
  // Nothing is left of a job refunded in full: it closes rather than wait to be completed.
  else await ctx.closeRefundedJob({ db, requestId: row.requestId });
  await tell(db, ctx, {
    userId: row.studentId,
    partnerId: row.tutorId,
    type: 'refund_issued',
    message: `Refund receipt: ${formatCents(refundCents)} of your payment of ${formatCents(row.heldCents)} was refunded (${REASON_LABELS[row.reason]}). Refund reference ${outcome.providerRefundId}.`,
  });
}

/** Decided refunds, each made once: claimed, the provider called outside any transaction, recorded from its outcome. */
export function refundWork({ db, ctx }: { db: Executor; ctx: RefundContext }) {
  return {
    name: 'refunds',
    table: refundRequests,
    due: eq(refundRequests.status, 'refunding'),
    order: refundRequests.createdAt,
    batchSize: 20,
    leaseMs: STRIPE_WORK_LEASE_MS,
    maxClaims: 5,
    async call(row) {
      const [checkout] = await db.select().from(checkouts).where(eq(checkouts.id, row.checkoutId));
      return paymentProvider(checkout!.provider, db, ctx.stripe).refund({
        providerPaymentId: checkout!.providerPaymentId,
        amountCents: row.refundCents!,
        idempotencyKey: `refund:${row.id}`,
      });
    },
    async record({ db: tx, row, outcome }) {
      // A failed call leaves the refund due: it is called again (the provider answers a retried key once).
      if (outcome.ok) await recordRefund({ db: tx, ctx, row, outcome: outcome.value });
    },
    async giveUp({ db: tx, row }) {
      await tx.update(refundRequests).set({ status: 'with_admins' }).where(eq(refundRequests.id, row.id));
    },
  } satisfies ClaimedWork<typeof refundRequests, RefundOutcome>;
}

/** Requests the tutor left unanswered for 3 days go to admins. */
export const unansweredRefundRequestsJob = {
  name: 'unanswered-refund-requests',
  intervalMs: 15 * 60_000,
  async run({ db }) {
    return db
      .update(refundRequests)
      .set({ status: 'with_admins' })
      .where(and(eq(refundRequests.status, 'awaiting_tutor'), lte(refundRequests.answerDueAt, sql`now()`)))
      .returning({ id: refundRequests.id });
  },
} satisfies IntervalJob;

/**
 * Each job still holding money whose tutor's account an admin suspended goes to admins once, to refund in full, in
 * part or not at all (a job they decided is not sent again).
 */
export const suspendedTutorsJobsJob = {
  name: 'suspended-tutors-jobs',
  intervalMs: 15 * 60_000,
  async run({ db }) {
    const heldCents = sql`(select coalesce(sum(${ledgerEntries.amountCents}), 0)::int from ${ledgerEntries}
      inner join ${ledgerAccounts} on ${ledgerAccounts.id} = ${ledgerEntries.accountId}
      where ${ledgerAccounts.kind} = 'held_funds' and ${ledgerAccounts.ownerRequestId} = ${checkouts.requestId})`;
    const opened = await db.execute<{ id: string }>(sql`
      insert into ${refundRequests} (request_id, checkout_id, student_id, tutor_id, reason, status, held_cents)
      select ${checkouts.requestId}, ${checkouts.id}, ${checkouts.studentId}, ${checkouts.tutorId},
        'tutor_suspended', 'with_admins', ${heldCents}
      from ${checkouts} inner join ${users} on ${users.id} = ${checkouts.tutorId}
      where ${checkouts.status} = 'paid' and ${users.suspendedAt} is not null and ${heldCents} > 0
        and not exists (select 1 from ${refundRequests} where ${refundRequests.requestId} = ${checkouts.requestId}
          and ${refundRequests.reason} = 'tutor_suspended')
      on conflict do nothing
      returning id`);
    return opened.rows.length;
  },
} satisfies IntervalJob;
