import { and, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { REVIEWS_TO_LOOK_AT } from '#shared/constants.ts';
import type { ReviewToLookAt, ReviewsToLookAtPage } from '#shared/schemas/reviews.ts';
import type { Executor } from '../../db/client.ts';
import { cursorMicros, olderThan, toPage } from '../../db/keyset.ts';
import { users } from '../../db/schema/auth.ts';
import { checkouts } from '../../db/schema/payments.ts';
import { tutorBids, tutoringRequests } from '../../db/schema/requests.ts';
import { reviews } from '../../db/schema/reviews.ts';
import { subjects } from '../../db/schema/subjects.ts';
import { AppError } from '../../http/errors.ts';

// Reviews to look at: a young account's review of a tutor it has had several paid jobs with lately is published as
// any other, and listed for the admins (Report Management) until one of them has looked at it.

const { accountDays, windowDays, pairJobs, pageSize } = REVIEWS_TO_LOOK_AT;

/** A paid job: an accepted offer (only a paid checkout accepts one; under `none` every accepted job counts as paid). */
const PAID_JOB_STATUSES = ['accepted', 'completed'] as const;

/** The pair's paid jobs posted within the window before `at` (a timestamp expression). */
const pairJobsBefore = (studentId: SQL | string, tutorId: SQL | string, at: SQL) => sql<number>`(
  select count(*)::int from ${tutoringRequests}
  inner join ${tutorBids} on ${tutorBids.id} = ${tutoringRequests.acceptedBidId}
  where ${tutoringRequests.studentId} = ${studentId} and ${tutorBids.tutorId} = ${tutorId}
    and ${inArray(tutoringRequests.status, [...PAID_JOB_STATUSES])}
    and ${tutoringRequests.createdAt} > ${at} - make_interval(days => ${windowDays})
    and ${tutoringRequests.createdAt} <= ${at})`;

/**
 * Whether a review the student writes now of this tutor is one to look at: either account younger than 30 days,
 * and at least 2 paid jobs of the pair posted within the last 30 days. Read in the review's transaction.
 */
export async function isReviewToLookAt({
  db,
  studentId,
  tutorId,
}: {
  db: Executor;
  studentId: string;
  tutorId: string;
}) {
  const { rows } = await db.execute<{ young: boolean; pair_jobs: number }>(sql`select
    exists (select 1 from ${users} where ${inArray(users.id, [studentId, tutorId])}
      and ${users.createdAt} > now() - make_interval(days => ${accountDays})) as young,
    ${pairJobsBefore(studentId, tutorId, sql`now()`)} as pair_jobs`);
  return rows[0]!.young && rows[0]!.pair_jobs >= pairJobs;
}

const student = alias(users, 'student');
const tutor = alias(users, 'tutor');

/** Cents of paid checkouts of the account, on the `side` it stood on. */
const paidCentsOf = (side: typeof checkouts.studentId | typeof checkouts.tutorId, userId: SQL) =>
  sql<number>`(select coalesce(sum(${checkouts.amountCents}), 0)::int from ${checkouts}
    where ${side} = ${userId} and ${checkouts.status} = 'paid')`;

const paidJobsOf = (where: SQL) => sql<number>`(select count(*)::int from ${tutoringRequests}
  inner join ${tutorBids} on ${tutorBids.id} = ${tutoringRequests.acceptedBidId}
  where ${where} and ${inArray(tutoringRequests.status, [...PAID_JOB_STATUSES])})`;

const reviewsOf = (side: typeof reviews.studentId | typeof reviews.tutorId, userId: SQL) =>
  sql<number>`(select count(*)::int from ${reviews} as counted where counted.${sql.identifier(side.name)} = ${userId})`;

/** Outer-query columns, qualified by their alias, for the subqueries above. */
const outer = (table: string, column: string) => sql`${sql.identifier(table)}.${sql.identifier(column)}`;
const studentId = outer('student', 'id');
const tutorId = outer('tutor', 'id');

const toLookAtColumns = {
  id: reviews.id,
  requestId: reviews.requestId,
  subjectName: subjects.name,
  rating: reviews.rating,
  body: reviews.body,
  createdAt: reviews.createdAt,
  hiddenAt: reviews.hiddenAt,
  lookedAt: reviews.lookedAt,
  pairJobs: pairJobsBefore(studentId, tutorId, sql`${reviews.createdAt}`),
  studentName: student.username,
  studentCreatedAt: student.createdAt,
  studentJobs: paidJobsOf(sql`${tutoringRequests.studentId} = ${studentId}`),
  studentPaidCents: paidCentsOf(checkouts.studentId, studentId),
  studentReviews: reviewsOf(reviews.studentId, studentId),
  tutorName: tutor.username,
  tutorCreatedAt: tutor.createdAt,
  tutorJobs: paidJobsOf(sql`${tutorBids.tutorId} = ${tutorId}`),
  tutorPaidCents: paidCentsOf(checkouts.tutorId, tutorId),
  tutorReviews: reviewsOf(reviews.tutorId, tutorId),
  studentId: reviews.studentId,
  tutorId: reviews.tutorId,
  cursorMicros: cursorMicros(reviews.createdAt),
};

function selectToLookAt(db: Executor) {
  return db
    .select(toLookAtColumns)
    .from(reviews)
    .innerJoin(student, eq(student.id, reviews.studentId))
    .innerJoin(tutor, eq(tutor.id, reviews.tutorId))
    .innerJoin(tutoringRequests, eq(tutoringRequests.id, reviews.requestId))
    .innerJoin(subjects, eq(subjects.id, tutoringRequests.subjectId));
}

type ToLookAtRow = Awaited<ReturnType<ReturnType<typeof selectToLookAt>['execute']>>[number];

function toReviewToLookAt(row: ToLookAtRow): ReviewToLookAt {
  return {
    id: row.id,
    requestId: row.requestId,
    subjectName: row.subjectName,
    rating: row.rating,
    body: row.body,
    createdAt: row.createdAt.toISOString(),
    hiddenAt: row.hiddenAt?.toISOString() ?? null,
    lookedAt: row.lookedAt?.toISOString() ?? null,
    pairJobs: row.pairJobs,
    student: {
      id: row.studentId,
      username: row.studentName,
      createdAt: row.studentCreatedAt.toISOString(),
      jobs: row.studentJobs,
      paidCents: row.studentPaidCents,
      reviews: row.studentReviews,
    },
    tutor: {
      id: row.tutorId,
      username: row.tutorName,
      createdAt: row.tutorCreatedAt.toISOString(),
      jobs: row.tutorJobs,
      paidCents: row.tutorPaidCents,
      reviews: row.tutorReviews,
    },
  };
}

/** The reviews still to look at, newest first, a page at a time, each with both accounts' history: one query. */
export async function listReviewsToLookAt({
  db,
  cursor,
}: {
  db: Executor;
  cursor?: string;
}): Promise<ReviewsToLookAtPage> {
  const rows = await selectToLookAt(db)
    .where(and(eq(reviews.toLookAt, true), isNull(reviews.lookedAt), olderThan(reviews.createdAt, reviews.id, cursor)))
    .orderBy(desc(reviews.createdAt), desc(reviews.id))
    .limit(pageSize + 1);
  const { page, nextCursor } = toPage(rows, pageSize);
  return { items: page.map(toReviewToLookAt), nextCursor };
}

/**
 * An admin has looked at the review, in the caller's transaction (the admin's, with its audit record): it leaves the
 * list. Not a review to look at: 404; looked at already: 409.
 */
export async function markReviewLookedAt({ db, reviewId }: { db: Executor; reviewId: string }) {
  const [before] = await db
    .select({ toLookAt: reviews.toLookAt, lookedAt: reviews.lookedAt })
    .from(reviews)
    .where(eq(reviews.id, reviewId))
    .for('update');
  if (!before?.toLookAt) throw new AppError('NOT_FOUND', { message: 'Review not found' });
  if (before.lookedAt) throw new AppError('CONFLICT', { message: 'An admin has looked at this review already.' });
  await db
    .update(reviews)
    .set({ lookedAt: sql`now()` })
    .where(eq(reviews.id, reviewId));
  const [row] = await selectToLookAt(db).where(eq(reviews.id, reviewId));
  return { before: { lookedAt: null }, after: toReviewToLookAt(row!) };
}
