import { sql } from 'drizzle-orm';
import { OPEN_REFUND_REQUEST_STATUSES } from '#shared/constants.ts';
import type { DeletionBlock } from '#shared/schemas/account-deletion.ts';
import type { Executor } from '../../db/client.ts';
import {
  checkouts,
  ledgerAccounts,
  ledgerEntries,
  paymentAdjustments,
  payouts,
  refundRequests,
} from '../../db/schema/payments.ts';
import { stripeDisputes } from '../../db/schema/stripe-connect.ts';

/**
 * What keeps a user's account from being erased, or null: an open refund request or chargeback of a job of theirs
 * ("open_case"), or money not settled ("money"): earnings of theirs not paid out (or owed by them, below zero), money
 * held for a job they pay or teach, a payout requested and not yet paid, or an adjustment of a job of theirs under
 * way. Their student payments, refunds and payouts are history, whose sums never come back to zero.
 */
export async function findDeletionBlock({
  db,
  userId,
}: {
  db: Executor;
  userId: string;
}): Promise<DeletionBlock | null> {
  const openStatuses = sql.join(
    OPEN_REFUND_REQUEST_STATUSES.map((status) => sql`${status}`),
    sql`, `,
  );
  const partyOf = (table: typeof checkouts | typeof refundRequests | typeof paymentAdjustments) =>
    sql`(${table.studentId} = ${userId} or ${table.tutorId} = ${userId})`;
  const balanceOf = (account: ReturnType<typeof sql>) =>
    sql`coalesce((select sum(${ledgerEntries.amountCents}) from ${ledgerEntries} where ${ledgerEntries.accountId} = ${account}), 0)`;
  const result = await db.execute<{ open_case: boolean; money: boolean }>(sql`
    select
      exists (select 1 from ${refundRequests} where ${partyOf(refundRequests)}
          and ${refundRequests.status} in (${openStatuses}))
        or exists (select 1 from ${stripeDisputes} join ${checkouts} on ${checkouts.id} = ${stripeDisputes.checkoutId}
          where ${stripeDisputes.closedAt} is null and ${partyOf(checkouts)}) as open_case,
      exists (select 1 from ${ledgerAccounts} where ${ledgerAccounts.ownerUserId} = ${userId}
          and ${ledgerAccounts.kind} in ('tutor_earnings_pending', 'tutor_earnings_available')
          and ${balanceOf(sql`${ledgerAccounts.id}`)} <> 0)
        or exists (select 1 from ${checkouts} join ${ledgerAccounts} on ${ledgerAccounts.kind} = 'held_funds'
            and ${ledgerAccounts.ownerRequestId} = ${checkouts.requestId}
          where ${checkouts.status} = 'paid' and ${partyOf(checkouts)} and ${balanceOf(sql`${ledgerAccounts.id}`)} <> 0)
        or exists (select 1 from ${payouts} where ${payouts.tutorId} = ${userId} and ${payouts.status} = 'requested')
        or exists (select 1 from ${paymentAdjustments} where ${partyOf(paymentAdjustments)}
          and ${paymentAdjustments.status} in ('refunding', 'reversing'))
        as money
  `);
  const [row] = result.rows;
  if (row?.open_case) return 'open_case';
  if (row?.money) return 'money';
  return null;
}
