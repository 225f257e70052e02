import { and, eq, sql } from 'drizzle-orm';
import { QUICK_COMPLETION_MS } from '#shared/constants.ts';
import type { Executor } from '../../db/client.ts';
import { checkouts } from '../../db/schema/payments.ts';
import { tutoringRequests } from '../../db/schema/requests.ts';

// Ratings backed by money (docs/decisions/0042): what a completed job may count for on the tutor's page.

/**
 * Whether the completed (or completing) job counts toward the tutor's completed jobs and rating: unless it was
 * completed within an hour of its acceptance without the tutor's mark of delivery. The acceptance is the paid
 * checkout's time; a job without one (before payments, or under `none`) is judged from its posting, which came
 * before its acceptance. Completion is now when the job is not completed yet.
 */
export async function jobCountsTowardTrust({ db, requestId }: { db: Executor; requestId: string }) {
  const [job] = await db
    .select({
      counts: sql<boolean>`${tutoringRequests.deliveredAt} is not null
        or coalesce(${tutoringRequests.completedAt}, now()) - coalesce(${checkouts.paidAt}, ${tutoringRequests.createdAt})
          >= make_interval(secs => ${QUICK_COMPLETION_MS / 1000})`,
    })
    .from(tutoringRequests)
    .leftJoin(checkouts, and(eq(checkouts.requestId, tutoringRequests.id), eq(checkouts.status, 'paid')))
    .where(eq(tutoringRequests.id, requestId));
  return job?.counts ?? false;
}
