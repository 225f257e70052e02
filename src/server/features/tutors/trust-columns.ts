import { eq, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { TutorTrust } from '#shared/schemas/reviews.ts';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema/auth.ts';

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
