import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  unique,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import {
  BID_STATUSES,
  DIRECT_REQUEST_STATES,
  EDUCATION_LEVELS,
  REQUEST_STATUSES,
  REQUEST_TYPES,
  SUPPORT_TYPES,
} from '#shared/constants.ts';
import { users } from './auth.ts';
import { createdAt, id, inList, timestamptz } from './columns.ts';
import { subjects } from './subjects.ts';

/** One uploaded file of a request, in SPEC §3's snake_case shape. */
export interface RequestAttachment {
  file_path: string;
  file_type: string;
  original_filename: string;
  file_size: number;
}

export const tutoringRequests = pgTable(
  'tutoring_requests',
  {
    id: id(),
    type: text('type', { enum: REQUEST_TYPES }).notNull(),
    // Restrict: a subject in use cannot be deleted from under its requests.
    subjectId: uuid('subject_id')
      .notNull()
      .references(() => subjects.id, { onDelete: 'restrict' }),
    description: text('description').notNull(),
    // Integer USD cents (docs/decisions/0038); a maximum of 99900 or 999900 means "no maximum".
    budgetMinCents: integer('budget_min_cents').notNull(),
    budgetMaxCents: integer('budget_max_cents').notNull(),
    studentId: uuid('student_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: REQUEST_STATUSES }).notNull().default('open'),
    deadline: timestamptz('deadline'),
    level: text('level', { enum: EDUCATION_LEVELS }),
    topic: text('topic'),
    requirements: text('requirements'),
    schedule: text('schedule'),
    // The wizard's "exam preparation or general support" answer (tutoring only).
    supportType: text('support_type', { enum: SUPPORT_TYPES }),
    attachments: jsonb('attachments')
      .$type<RequestAttachment[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    createdAt: createdAt(),
    // Circular with tutor_bids.request_id; see chat.ts for how drizzle-kit orders the FKs.
    acceptedBidId: uuid('accepted_bid_id').references((): AnyPgColumn => tutorBids.id, {
      onDelete: 'set null',
    }),
    // The Idempotency-Key the form sent: a second submit of the same form finds this request instead of a new one.
    idempotencyKey: uuid('idempotency_key'),
    // When the student marked the job (the accepted request) completed.
    completedAt: timestamptz('completed_at'),
    // When its tutor first marked it delivered: the held money is released some days later unless the student objects.
    deliveredAt: timestamptz('delivered_at'),
    // Derived, so that a review's foreign key can demand a completed job (see reviews.ts).
    isCompleted: boolean('is_completed')
      .notNull()
      .generatedAlwaysAs(sql`status = 'completed'`),
    // A direct request: the tutor it was sent to (kept once opened to all, for its card) and where it stands
    // (docs/decisions/0061); null for a request posted to every tutor of its subject.
    directTutorId: uuid('direct_tutor_id').references(() => users.id, { onDelete: 'set null' }),
    directState: text('direct_state', { enum: DIRECT_REQUEST_STATES }),
    directDeclinedAt: timestamptz('direct_declined_at'),
    directDeclineReason: text('direct_decline_reason'),
    // When a direct request was opened to all: its 48-hour expiry counts from then instead of from its creation.
    openedToAllAt: timestamptz('opened_to_all_at'),
  },
  (t) => [
    check('tutoring_requests_type_check', inList(t.type, REQUEST_TYPES)),
    check('tutoring_requests_status_check', inList(t.status, REQUEST_STATUSES)),
    check('tutoring_requests_level_check', sql`${t.level} is null or ${inList(t.level, EDUCATION_LEVELS)}`),
    check(
      'tutoring_requests_support_type_check',
      sql`${t.supportType} is null or ${inList(t.supportType, SUPPORT_TYPES)}`,
    ),
    check('tutoring_requests_budget_min_check', sql`${t.budgetMinCents} >= 0`),
    check('tutoring_requests_budget_range_check', sql`${t.budgetMaxCents} >= ${t.budgetMinCents}`),
    index('tutoring_requests_student_created_idx').on(t.studentId, t.createdAt.desc().nullsFirst()),
    uniqueIndex('tutoring_requests_student_idempotency_key').on(t.studentId, t.idempotencyKey),
    // Teachers' job lists: open requests in their subjects, newest first.
    index('tutoring_requests_open_subject_idx')
      .on(t.subjectId, t.createdAt.desc().nullsFirst())
      .where(sql`${t.status} = 'open'`),
    // The expiry job: open requests older than 48 hours.
    index('tutoring_requests_status_created_idx').on(t.status, t.createdAt),
    // What a review's foreign key points at: this student's completed job with this accepted offer.
    unique('tutoring_requests_job_key').on(t.id, t.studentId, t.acceptedBidId, t.isCompleted),
    check('tutoring_requests_completed_check', sql`(${t.status} = 'completed') = (${t.completedAt} is not null)`),
    check(
      'tutoring_requests_direct_state_check',
      sql`${t.directState} is null or ${inList(t.directState, DIRECT_REQUEST_STATES)}`,
    ),
    // A direct tutor's job list, and the job that marks unanswered direct requests.
    index('tutoring_requests_direct_tutor_idx')
      .on(t.directTutorId)
      .where(sql`${t.directTutorId} is not null`),
    index('tutoring_requests_direct_waiting_idx')
      .on(t.createdAt)
      .where(sql`${t.directState} = 'waiting'`),
    // The release job: delivered jobs whose days of waiting are over.
    index('tutoring_requests_delivered_idx')
      .on(t.deliveredAt)
      .where(sql`${t.deliveredAt} is not null and ${t.status} = 'accepted'`),
  ],
);

export const tutorBids = pgTable(
  'tutor_bids',
  {
    id: id(),
    requestId: uuid('request_id')
      .notNull()
      .references((): AnyPgColumn => tutoringRequests.id, { onDelete: 'cascade' }),
    tutorId: uuid('tutor_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // Integer USD cents (docs/decisions/0038).
    amountCents: integer('amount_cents').notNull(),
    message: text('message'),
    status: text('status', { enum: BID_STATUSES }).notNull().default('pending'),
    createdAt: createdAt(),
  },
  (t) => [
    check('tutor_bids_amount_check', sql`${t.amountCents} > 0`),
    check('tutor_bids_status_check', inList(t.status, BID_STATUSES)),
    // One bid per teacher per request; also serves "bids of this request".
    unique('tutor_bids_request_tutor_key').on(t.requestId, t.tutorId),
    // What a review's foreign key points at: the accepted offer and the tutor who made it.
    unique('tutor_bids_id_tutor_key').on(t.id, t.tutorId),
    index('tutor_bids_tutor_created_idx').on(t.tutorId, t.createdAt.desc().nullsFirst()),
    // At most one accepted bid per request, whatever races the application loses.
    uniqueIndex('tutor_bids_one_accepted_key')
      .on(t.requestId)
      .where(sql`${t.status} = 'accepted'`),
  ],
);

/** When a request's 48-hour expiry starts: its creation, or when a direct request was opened to all. */
export const requestOpenSince =
  sql<Date>`coalesce(${tutoringRequests.openedToAllAt}, ${tutoringRequests.createdAt})`.mapWith(
    tutoringRequests.createdAt,
  );

export type TutoringRequest = typeof tutoringRequests.$inferSelect;
export type NewTutoringRequest = typeof tutoringRequests.$inferInsert;
