import { eq, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { TutorTrust } from '#shared/schemas/reviews.ts';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema/auth.ts';
import { messages } from '../../db/schema/chat.ts';
import { tutorBids, tutoringRequests } from '../../db/schema/requests.ts';

// A tutor's trust: rating average, review count and completed jobs, kept as counters on the tutor's users row. They
// change in the same transaction as the review (or the completion), so no page ever recounts them.

/** The trust columns of a user row (the users table or an alias of it), for offers, searches and the chat header. */
export const tutorTrustColumns = (table: Record<'reviewCount' | 'reviewRatingSum' | 'jobsCompleted', AnyPgColumn>) => ({
  ratingAverage: sql<
    number | null
  >`case when ${table.reviewCount} > 0 then round(${table.reviewRatingSum}::numeric / ${table.reviewCount}, 2)::float8 end`,
  reviewCount: sql<number>`${table.reviewCount}`,
  jobsCompleted: sql<number>`${table.jobsCompleted}`,
});

/** The same three values from a row that may be null (an outer join). */
export const toTutorTrust = (row: {
  ratingAverage: number | null;
  reviewCount: number | null;
  jobsCompleted: number | null;
}): TutorTrust => ({
  ratingAverage: row.ratingAverage === null ? null : Number(row.ratingAverage),
  reviewCount: row.reviewCount ?? 0,
  jobsCompleted: row.jobsCompleted ?? 0,
});

/** The counters' change for a review's stars entering (+1) or leaving (-1) the tutor's average. */
export async function countReview(db: Executor, tutorId: string, rating: number, sign: 1 | -1) {
  await db
    .update(users)
    .set({
      reviewCount: sql`${users.reviewCount} + ${sign}`,
      reviewRatingSum: sql`${users.reviewRatingSum} + ${sign * rating}`,
    })
    .where(eq(users.id, tutorId));
}

/** One more completed job on the tutor's page (called in the transaction that completes it). */
export async function countCompletedJob(db: Executor, tutorId: string) {
  await db
    .update(users)
    .set({ jobsCompleted: sql`${users.jobsCompleted} + 1` })
    .where(eq(users.id, tutorId));
}

/** How many of a tutor's latest bids the median first-response time looks at. */
const FIRST_RESPONSE_SAMPLE = 100;

/**
 * Keeps the tutor's median time from a new job to their first answer to its student (the bid, or a chat message to
 * that student if one came first) over their latest bids; called in the transaction that places a bid.
 */
export async function refreshResponseMinutes(db: Executor, tutorId: string) {
  // Written with aliases: the subquery's tables would otherwise be ambiguous with the updated row.
  await db
    .update(users)
    .set({
      responseMinutes: sql`(select round(percentile_cont(0.5) within group (order by minutes)) from (
        select extract(epoch from least(bid.created_at, coalesce((
            select min(message.created_at) from ${messages} message
            where message.sender_id = bid.tutor_id and message.receiver_id = job.student_id and message.created_at >= job.created_at
          ), bid.created_at)) - job.created_at) / 60 as minutes
        from ${tutorBids} bid inner join ${tutoringRequests} job on job.id = bid.request_id
        where bid.tutor_id = ${tutorId}
        order by bid.created_at desc limit ${FIRST_RESPONSE_SAMPLE}) as responses)`,
    })
    .where(eq(users.id, tutorId));
}
