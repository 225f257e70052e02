import { and, inArray, not, sql } from 'drizzle-orm';
import { OPEN_REQUEST_STATUSES, REQUEST_EXPIRY_JOB_INTERVAL_MS } from '#shared/constants.ts';
import type { Executor } from '../../db/client.ts';
import type { IntervalJob } from '../../platform/jobs/interval-jobs.ts';
import { checkouts } from '../../db/schema/payments.ts';
import { isExpired, outer, r } from './request-columns.ts';

// Requests expire 48 hours after creation: a periodic job closes them in the database.

/** A checkout awaiting payment holds its request: the expiry waits until it is paid or lapses. */
const heldByCheckout = sql`exists (select 1 from ${checkouts} where ${checkouts.requestId} = ${outer(r.id)}
  and ${checkouts.status} = 'awaiting_payment')`;

/** Closes every open (or pending) request older than 48 hours and not held by a checkout, in one update. */
export async function closeExpiredRequests({ db }: { db: Executor }) {
  const result = await db
    .update(r)
    .set({ status: 'closed' })
    .where(and(inArray(r.status, [...OPEN_REQUEST_STATUSES]), isExpired, not(heldByCheckout)));
  return result.rowCount ?? 0;
}

export const requestExpiryJob: IntervalJob = {
  name: 'close-expired-requests',
  intervalMs: REQUEST_EXPIRY_JOB_INTERVAL_MS,
  run: closeExpiredRequests,
};
