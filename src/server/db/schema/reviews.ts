import { sql } from 'drizzle-orm';
import { boolean, check, foreignKey, index, pgTable, smallint, text, unique, uuid } from 'drizzle-orm/pg-core';
import { REVIEW } from '#shared/constants.ts';
import { users } from './auth.ts';
import { createdAt, id, timestamptz } from './columns.ts';
import { tutorBids, tutoringRequests } from './requests.ts';

/**
 * A student's rating of a completed job, one per job. The database itself allows only the job's student to review
 * only its tutor, and only once the job is completed: (request, student, accepted bid, true) must be a row of
 * tutoring_requests (whose `is_completed` is derived from its status), and (bid, tutor) a row of tutor_bids.
 */
export const reviews = pgTable(
  'reviews',
  {
    id: id(),
    requestId: uuid('request_id').notNull(),
    studentId: uuid('student_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    bidId: uuid('bid_id').notNull(),
    tutorId: uuid('tutor_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // Always true: the half of the foreign key that demands a completed job.
    jobCompleted: boolean('job_completed').notNull().default(true),
    rating: smallint('rating').notNull(),
    body: text('body'),
    createdAt: createdAt(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
    // The tutor's one public reply.
    reply: text('reply'),
    repliedAt: timestamptz('replied_at'),
    // The tutor's report, for the admins' reports page.
    reportReason: text('report_reason'),
    reportedAt: timestamptz('reported_at'),
    // Hidden by an admin: no longer shown or counted.
    hiddenAt: timestamptz('hidden_at'),
    // Whether its stars count in the tutor's rating: not for a job completed within an hour of its acceptance that
    // the tutor had not marked delivered (published all the same).
    countsTowardRating: boolean('counts_toward_rating').notNull().default(true),
    // Listed for the admins when written (a young account's review of a pair with several paid jobs together,
    // REVIEWS_TO_LOOK_AT), until an admin has looked at it.
    toLookAt: boolean('to_look_at').notNull().default(false),
    lookedAt: timestamptz('looked_at'),
  },
  (t) => [
    unique('reviews_request_key').on(t.requestId),
    foreignKey({
      name: 'reviews_completed_job_fk',
      columns: [t.requestId, t.studentId, t.bidId, t.jobCompleted],
      foreignColumns: [
        tutoringRequests.id,
        tutoringRequests.studentId,
        tutoringRequests.acceptedBidId,
        tutoringRequests.isCompleted,
      ],
    }).onDelete('cascade'),
    foreignKey({
      name: 'reviews_bid_tutor_fk',
      columns: [t.bidId, t.tutorId],
      foreignColumns: [tutorBids.id, tutorBids.tutorId],
    }).onDelete('cascade'),
    check('reviews_job_completed_check', sql`${t.jobCompleted}`),
    check('reviews_rating_check', sql`${t.rating} between 1 and 5`),
    check('reviews_body_length_check', sql`char_length(${t.body}) <= ${sql.raw(String(REVIEW.bodyMax))}`),
    check('reviews_reply_length_check', sql`char_length(${t.reply}) <= ${sql.raw(String(REVIEW.bodyMax))}`),
    // A tutor's visible reviews, newest first (the profile page).
    index('reviews_tutor_created_idx')
      .on(t.tutorId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.hiddenAt} is null`),
    // The admins' list of reported reviews.
    index('reviews_reported_idx')
      .on(t.reportedAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.reportedAt} is not null`),
    // The admins' list of reviews to look at, newest first.
    index('reviews_to_look_at_idx')
      .on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.toLookAt} and ${t.lookedAt} is null`),
  ],
);

export type ReviewRow = typeof reviews.$inferSelect;
