import { and, inArray } from 'drizzle-orm';
import { OPEN_REQUEST_STATUSES, REQUEST_EXPIRY_JOB_INTERVAL_MS } from '#shared/constants.ts';
import type { Executor } from '../../db/client.ts';
import type { IntervalJob } from '../../platform/jobs/interval-jobs.ts';
import { isExpired, r } from './request-columns.ts';

// Requests expire 48 hours after creation: a periodic job closes them in the database.

/** Closes every open (or pending) request older than 48 hours, in one update; returns how many. */
export async function closeExpiredRequests({ db }: { db: Executor }) {
  const result = await db
    .update(r)
    .set({ status: 'closed' })
    .where(and(inArray(r.status, [...OPEN_REQUEST_STATUSES]), isExpired));
  return result.rowCount ?? 0;
}

export const requestExpiryJob: IntervalJob = {
  name: 'close-expired-requests',
  intervalMs: REQUEST_EXPIRY_JOB_INTERVAL_MS,
  run: closeExpiredRequests,
};
