import { and, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { REVIEW, REVIEW_EDITABLE_MS } from '#shared/constants.ts';
import { paths } from '#shared/paths.ts';
import type { AdminReview, Review, ReviewInput, ReviewsPage } from '#shared/schemas/reviews.ts';
import type { Database, Executor } from '../../db/client.ts';
import { cursorMicros, olderThan, toPage } from '../../db/keyset.ts';
import { users } from '../../db/schema/auth.ts';
import { tutorBids, tutoringRequests } from '../../db/schema/requests.ts';
import { reviews } from '../../db/schema/reviews.ts';
import { subjects } from '../../db/schema/subjects.ts';
import { AppError } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { enforceUserLimit } from '../../platform/limits/usage-limits.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import type { Moderation } from '../moderation/service.ts';
import { createNotification } from '../notifications/service.ts';
import { isJobPaid, jobCountsTowardTrust } from '../payments/service.ts';
import { assertTutorExists } from './profile.ts';
import { isReviewToLookAt } from './reviews-to-look-at.ts';
import { countReview } from './trust-columns.ts';

// The reviews of completed jobs: written by the student, answered or reported by the tutor, hidden by the admins.

const reviewNotFound = () => new AppError('NOT_FOUND', { message: 'Review not found' });

const author = alias(users, 'author');
const reviewColumns = {
  id: reviews.id,
  tutorId: reviews.tutorId,
  requestId: reviews.requestId,
  subjectName: subjects.name,
  authorId: author.id,
  authorName: author.username,
  authorImage: author.image,
  rating: reviews.rating,
  body: reviews.body,
  reply: reviews.reply,
  repliedAt: reviews.repliedAt,
  createdAt: reviews.createdAt,
  updatedAt: reviews.updatedAt,
  reportedAt: reviews.reportedAt,
};
type ReviewRow = {
  id: string;
  tutorId: string;
  requestId: string;
  subjectName: string;
  authorId: string;
  authorName: string;
  authorImage: string | null;
  rating: number;
  body: string | null;
  reply: string | null;
  repliedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  reportedAt: Date | null;
};

/** Reviews with their author and the job's subject; `extra` adds columns. */
function selectReviews<T extends Record<string, AnyPgColumn | ReturnType<typeof sql>>>(db: Executor, extra: T) {
  return db
    .select({ ...reviewColumns, ...extra })
    .from(reviews)
    .innerJoin(author, eq(author.id, reviews.studentId))
    .innerJoin(tutoringRequests, eq(tutoringRequests.id, reviews.requestId))
    .innerJoin(subjects, eq(subjects.id, tutoringRequests.subjectId));
}

function toReview(row: ReviewRow): Review {
  return {
    id: row.id,
    tutorId: row.tutorId,
    requestId: row.requestId,
    subjectName: row.subjectName,
    author: { id: row.authorId, username: row.authorName, image: row.authorImage },
    rating: row.rating,
    body: row.body,
    reply: row.reply,
    repliedAt: row.repliedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    editableUntil: new Date(row.createdAt.getTime() + REVIEW_EDITABLE_MS).toISOString(),
    isReported: row.reportedAt !== null,
  };
}

async function getReview(db: Executor, reviewId: string) {
  const [row] = await selectReviews(db, {}).where(eq(reviews.id, reviewId));
  if (!row) throw reviewNotFound();
  return toReview(row);
}

/** A tutor's visible reviews, newest first, a page at a time (served by the partial index on visible reviews). */
export async function listTutorReviews({
  db,
  tutorId,
  cursor,
}: {
  db: Executor;
  tutorId: string;
  cursor?: string;
}): Promise<ReviewsPage> {
  await assertTutorExists(db, tutorId);
  const rows = await selectReviews(db, { cursorMicros: cursorMicros(reviews.createdAt) })
    .where(
      and(eq(reviews.tutorId, tutorId), isNull(reviews.hiddenAt), olderThan(reviews.createdAt, reviews.id, cursor)),
    )
    .orderBy(desc(reviews.createdAt), desc(reviews.id))
    .limit(REVIEW.pageSize + 1);
  const { page, nextCursor } = toPage(rows, REVIEW.pageSize);
  return { reviews: page.map(toReview), nextCursor };
}

/**
 * The student's review of their completed job: one per job. The request must be the student's (else 404) and
 * completed (else 409); the database's foreign key refuses anything else too, and its unique key a second review.
 * The tutor's average changes in the same transaction; the tutor is notified.
 */
export async function createReview({
  db,
  realtime,
  moderation,
  publicUrl,
  student,
  requestId,
  input,
}: {
  db: Database;
  realtime: Realtime;
  moderation: Moderation;
  publicUrl: string;
  student: SessionUser;
  requestId: string;
  input: ReviewInput;
}): Promise<Review> {
  if (input.body)
    await moderation.assertAllowed({ text: input.body, field: 'body', senderId: student.id, roomId: null });
  const { reviewId, tutorId } = await db.transaction(async (tx) => {
    const [job] = await tx
      .select({ status: tutoringRequests.status, bidId: tutoringRequests.acceptedBidId, tutorId: tutorBids.tutorId })
      .from(tutoringRequests)
      .leftJoin(tutorBids, eq(tutorBids.id, tutoringRequests.acceptedBidId))
      .where(and(eq(tutoringRequests.id, requestId), eq(tutoringRequests.studentId, student.id)))
      .for('update', { of: tutoringRequests });
    if (!job) throw new AppError('NOT_FOUND', { message: 'Request not found' });
    if (job.status !== 'completed' || !job.bidId || !job.tutorId) throw new AppError('JOB_NOT_COMPLETED');
    if (!(await isJobPaid({ db: tx, requestId }))) throw new AppError('JOB_NOT_COMPLETED');
    const countsTowardRating = await jobCountsTowardTrust({ db: tx, requestId });
    const toLookAt = await isReviewToLookAt({ db: tx, studentId: student.id, tutorId: job.tutorId });
    const [review] = await tx
      .insert(reviews)
      .values({
        requestId,
        studentId: student.id,
        bidId: job.bidId,
        tutorId: job.tutorId,
        rating: input.rating,
        body: input.body,
        countsTowardRating,
        toLookAt,
      })
      .onConflictDoNothing({ target: reviews.requestId })
      .returning({ id: reviews.id });
    if (!review) throw new AppError('ALREADY_REVIEWED');
    if (countsTowardRating) await countReview(tx, job.tutorId, input.rating, 1);
    await createNotification({
      db: tx,
      publicUrl,
      userId: job.tutorId,
      message: `${student.username} rated your work ${input.rating} out of 5 stars.`,
      link: paths.tutor.getHref(job.tutorId),
      email: { type: 'new_review', sender: student.username },
    });
    return { reviewId: review.id, tutorId: job.tutorId };
  });
  realtime.toUsers([tutorId], 'notification:new', { kind: 'general', requestId: null });
  return getReview(db, reviewId);
}

/** The author changes their stars or text within 7 days of writing; a visible review moves the average with it. */
export async function updateReview({
  db,
  moderation,
  student,
  reviewId,
  input,
}: {
  db: Database;
  moderation: Moderation;
  student: SessionUser;
  reviewId: string;
  input: ReviewInput;
}): Promise<Review> {
  await enforceUserLimit(db, student.id, 'reviewEdits');
  if (input.body)
    await moderation.assertAllowed({ text: input.body, field: 'body', senderId: student.id, roomId: null });
  await db.transaction(async (tx) => {
    const [review] = await tx
      .select({
        rating: reviews.rating,
        tutorId: reviews.tutorId,
        createdAt: reviews.createdAt,
        hiddenAt: reviews.hiddenAt,
        countsTowardRating: reviews.countsTowardRating,
      })
      .from(reviews)
      .where(and(eq(reviews.id, reviewId), eq(reviews.studentId, student.id)))
      .for('update');
    if (!review) throw reviewNotFound();
    if (Date.now() - review.createdAt.getTime() > REVIEW_EDITABLE_MS) throw new AppError('REVIEW_EDIT_CLOSED');
    await tx
      .update(reviews)
      .set({ rating: input.rating, body: input.body, updatedAt: sql`now()` })
      .where(eq(reviews.id, reviewId));
    if (!review.hiddenAt && review.countsTowardRating && review.rating !== input.rating) {
      await countReview(tx, review.tutorId, review.rating, -1);
      await countReview(tx, review.tutorId, input.rating, 1);
    }
  });
  return getReview(db, reviewId);
}

/**
 * The reviewed tutor's one change to a review (`set`), allowed while `isOpen` holds (the column it fills is still
 * empty); another tutor's review is a 404, a second time `already`.
 */
async function changeOwnReview({
  db,
  tutor,
  reviewId,
  set,
  isOpen,
  already,
}: {
  db: Database;
  tutor: SessionUser;
  reviewId: string;
  set: Partial<typeof reviews.$inferInsert>;
  isOpen: ReturnType<typeof isNull>;
  already: AppError;
}) {
  const [changed] = await db
    .update(reviews)
    .set(set)
    .where(and(eq(reviews.id, reviewId), eq(reviews.tutorId, tutor.id), isOpen))
    .returning({ id: reviews.id });
  if (changed) return getReview(db, reviewId);
  const mine = await db.$count(reviews, and(eq(reviews.id, reviewId), eq(reviews.tutorId, tutor.id)));
  throw mine === 0 ? reviewNotFound() : already;
}

/** The tutor's one public reply to a review of them (moderated like chat). */
export async function replyToReview({
  db,
  moderation,
  tutor,
  reviewId,
  body,
}: {
  db: Database;
  moderation: Moderation;
  tutor: SessionUser;
  reviewId: string;
  body: string;
}): Promise<Review> {
  await moderation.assertAllowed({ text: body, field: 'body', senderId: tutor.id, roomId: null });
  return changeOwnReview({
    db,
    tutor,
    reviewId,
    set: { reply: body, repliedAt: new Date() },
    isOpen: isNull(reviews.reply),
    already: new AppError('ALREADY_REPLIED'),
  });
}

/** The tutor reports a review of them to the admins, once. */
export async function reportReview({
  db,
  tutor,
  reviewId,
  reason,
}: {
  db: Database;
  tutor: SessionUser;
  reviewId: string;
  reason: string;
}): Promise<Review> {
  return changeOwnReview({
    db,
    tutor,
    reviewId,
    set: { reportReason: reason, reportedAt: new Date() },
    isOpen: isNull(reviews.reportedAt),
    already: new AppError('ALREADY_REPORTED'),
  });
}

const tutor = alias(users, 'tutor');
const adminReviewColumns = {
  tutorName: tutor.username,
  reportReason: reviews.reportReason,
  hiddenAt: reviews.hiddenAt,
  cursorMicros: cursorMicros(reviews.reportedAt),
};

function toAdminReview(
  row: ReviewRow & { tutorName: string; reportReason: string | null; hiddenAt: Date | null },
): AdminReview {
  return {
    ...toReview(row),
    tutorName: row.tutorName,
    reportReason: row.reportReason,
    reportedAt: row.reportedAt?.toISOString() ?? null,
    hiddenAt: row.hiddenAt?.toISOString() ?? null,
  };
}

/** Reported reviews for the admins' reports page, newest report first. */
export async function listReportedReviews({ db, cursor }: { db: Executor; cursor?: string }) {
  const rows = await selectReviews(db, adminReviewColumns)
    .innerJoin(tutor, eq(tutor.id, reviews.tutorId))
    .where(and(isNotNull(reviews.reportedAt), olderThan(reviews.reportedAt, reviews.id, cursor)))
    .orderBy(desc(reviews.reportedAt), desc(reviews.id))
    .limit(REVIEW.pageSize + 1);
  const { page, nextCursor } = toPage(rows, REVIEW.pageSize);
  return { items: page.map(toAdminReview), nextCursor };
}

/**
 * Hides a review in the caller's transaction (the admin's, with its audit record): it is no longer listed or
 * counted. Unknown: 404; already hidden: 409. Returns the review before and after.
 */
export async function hideReview({ db, reviewId }: { db: Executor; reviewId: string }) {
  const [before] = await db
    .select({
      tutorId: reviews.tutorId,
      rating: reviews.rating,
      hiddenAt: reviews.hiddenAt,
      countsTowardRating: reviews.countsTowardRating,
    })
    .from(reviews)
    .where(eq(reviews.id, reviewId))
    .for('update');
  if (!before) throw reviewNotFound();
  if (before.hiddenAt) throw new AppError('CONFLICT', { message: 'This review is already hidden.' });
  await db
    .update(reviews)
    .set({ hiddenAt: sql`now()` })
    .where(eq(reviews.id, reviewId));
  if (before.countsTowardRating) await countReview(db, before.tutorId, before.rating, -1);
  const [row] = await selectReviews(db, adminReviewColumns)
    .innerJoin(tutor, eq(tutor.id, reviews.tutorId))
    .where(eq(reviews.id, reviewId));
  return { before: { hidden: false }, after: toAdminReview(row!) };
}

/** The reviews of these jobs (hidden ones included), one at most per job. */
export async function listJobReviews({ db, requestIds }: { db: Executor; requestIds: string[] }): Promise<Review[]> {
  if (requestIds.length === 0) return [];
  return (await selectReviews(db, {}).where(inArray(reviews.requestId, requestIds))).map(toReview);
}
