import { and, eq, getTableName, inArray, isNull, sql } from 'drizzle-orm';
import { OPEN_REFUND_REQUEST_STATUSES, type JobPaymentState } from '#shared/constants.ts';
import type { Executor } from '../../db/client.ts';
import {
  checkouts,
  ledgerAccounts,
  ledgerEntries,
  ledgerTransactions,
  refundRequests,
} from '../../db/schema/payments.ts';
import { stripeDisputes } from '../../db/schema/stripe-connect.ts';
import { tutoringRequests } from '../../db/schema/requests.ts';

// A job's money state, derived from its live checkout and the job's ledger transactions (no state column to drift).

/** What the state is read from: the live checkout's status, the cents still held, and what left the held funds. */
export type JobMoney = {
  checkoutStatus: 'awaiting_payment' | 'paid' | null;
  heldCents: number;
  released: boolean;
  refunded: boolean;
  /** An open refund request or cancellation: the held money waits for its outcome. */
  frozen: boolean;
};

/** The state of one job's money, from what its checkout and ledger say. */
export function toJobPaymentState({
  checkoutStatus,
  heldCents,
  released,
  refunded,
  frozen,
}: JobMoney): JobPaymentState {
  if (checkoutStatus === null) return 'not_charged';
  if (checkoutStatus === 'awaiting_payment') return 'awaiting_payment';
  if (heldCents > 0) return frozen ? 'frozen' : 'held';
  if (refunded) return released ? 'partially_refunded' : 'refunded';
  return 'released';
}

// The outer row's request, table-qualified: drizzle leaves a single-table select's columns bare, and a bare
// "request_id" inside a subquery on ledger_transactions would name that table's own column.
const checkoutRequestId = sql`${sql.identifier(getTableName(checkouts))}.${sql.identifier(checkouts.requestId.name)}`;

const hasTransaction = (db: Executor, kinds: ('release' | 'refund' | 'adjustment')[]) =>
  sql<boolean>`exists (${db
    .select({ one: sql`1` })
    .from(ledgerTransactions)
    .where(and(eq(ledgerTransactions.requestId, checkoutRequestId), inArray(ledgerTransactions.kind, kinds)))})`;

/** The money state of each job (request) named, in one query; a request without a live checkout is not charged. */
export async function jobPaymentStates({
  db,
  requestIds,
}: {
  db: Executor;
  requestIds: string[];
}): Promise<Map<string, JobPaymentState>> {
  const states = new Map<string, JobPaymentState>(requestIds.map((id) => [id, 'not_charged']));
  if (requestIds.length === 0) return states;
  const rows = await db
    .select({
      requestId: checkouts.requestId,
      checkoutStatus: checkouts.status,
      heldCents: sql<number>`(${db
        .select({ cents: sql`coalesce(sum(${ledgerEntries.amountCents}), 0)` })
        .from(ledgerEntries)
        .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
        .where(
          and(eq(ledgerAccounts.kind, 'held_funds'), eq(ledgerAccounts.ownerRequestId, checkoutRequestId)),
        )})`.mapWith(Number),
      released: hasTransaction(db, ['release']),
      // An adjustment after release gives the student back what the tutor had been paid.
      refunded: hasTransaction(db, ['refund', 'adjustment']),
      // An open refund request, or an open chargeback at Stripe, freezes the job's money.
      frozen: sql<boolean>`exists (${db
        .select({ one: sql`1` })
        .from(refundRequests)
        .where(
          and(
            eq(refundRequests.requestId, checkoutRequestId),
            inArray(refundRequests.status, [...OPEN_REFUND_REQUEST_STATUSES]),
          ),
        )}) or exists (${db
        .select({ one: sql`1` })
        .from(stripeDisputes)
        .where(and(eq(stripeDisputes.requestId, checkoutRequestId), isNull(stripeDisputes.closedAt)))})`,
    })
    .from(checkouts)
    .where(and(inArray(checkouts.requestId, requestIds), inArray(checkouts.status, ['awaiting_payment', 'paid'])));
  for (const row of rows) {
    states.set(
      row.requestId,
      toJobPaymentState({ ...row, checkoutStatus: row.checkoutStatus as JobMoney['checkoutStatus'] }),
    );
  }
  return states;
}

/** The money state of one job (request). */
export async function jobPaymentState({ db, requestId }: { db: Executor; requestId: string }) {
  const states = await jobPaymentStates({ db, requestIds: [requestId] });
  return states.get(requestId)!;
}

/**
 * Whether the request is a paid job: an accepted offer with a paid checkout, or with no checkout at all (accepted
 * before payments existed, or under `none`, where every accepted job counts as paid). Only a paid checkout accepts
 * an offer, so an accepted request is paid unless a checkout still awaits its payment.
 */
export async function isJobPaid({ db, requestId }: { db: Executor; requestId: string }) {
  const [request] = await db
    .select({ acceptedBidId: tutoringRequests.acceptedBidId })
    .from(tutoringRequests)
    .where(eq(tutoringRequests.id, requestId));
  if (!request?.acceptedBidId) return false;
  const awaiting = await db
    .select({ id: checkouts.id })
    .from(checkouts)
    .where(and(eq(checkouts.requestId, requestId), eq(checkouts.status, 'awaiting_payment')));
  return awaiting.length === 0;
}
