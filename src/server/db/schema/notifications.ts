import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, smallint, text, unique, uuid } from 'drizzle-orm/pg-core';
import { MAIL_OUTBOX_STATUSES } from '#shared/constants.ts';
import { NOTIFICATION_TOPICS } from '#shared/schemas/notification-settings.ts';
import { users } from './auth.ts';
import { claimColumns, createdAt, id, inList, timestamptz } from './columns.ts';
import { tutoringRequests } from './requests.ts';

/** Generic in-app notification (SPEC §3 "notifications"). */
export const notifications = pgTable(
  'notifications',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    message: text('message').notNull(),
    link: text('link'),
    read: boolean('read').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('notifications_user_created_idx').on(t.userId, t.createdAt.desc().nullsFirst())],
);

/** "New job" notice for a teacher whose subjects match a new request. */
export const teacherNotifications = pgTable(
  'teacher_notifications',
  {
    id: id(),
    teacherId: uuid('teacher_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    requestId: uuid('request_id')
      .notNull()
      .references(() => tutoringRequests.id, { onDelete: 'cascade' }),
    subjectTitle: text('subject_title').notNull(),
    // Display text such as "$5 - $100" or "$5+", frozen at notification time.
    budget: text('budget').notNull(),
    // First 100 characters of the request description, plus "..." when longer.
    description: text('description').notNull(),
    jobUrl: text('job_url').notNull(),
    read: boolean('read').notNull().default(false),
    teacherEmail: text('teacher_email'),
    createdAt: createdAt(),
  },
  (t) => [
    index('teacher_notifications_teacher_created_idx').on(t.teacherId, t.createdAt.desc().nullsFirst()),
    // A teacher is told about a request once, even if the fan-out is retried.
    unique('teacher_notifications_teacher_request_key').on(t.teacherId, t.requestId),
  ],
);

/** "New offer" notice for the student who owns the request; tutor details are a snapshot. */
export const studentNotifications = pgTable(
  'student_notifications',
  {
    id: id(),
    studentId: uuid('student_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    requestId: uuid('request_id')
      .notNull()
      .references(() => tutoringRequests.id, { onDelete: 'cascade' }),
    tutorId: uuid('tutor_id').references(() => users.id, { onDelete: 'set null' }),
    tutorName: text('tutor_name').notNull(),
    tutorAvatar: text('tutor_avatar'),
    tutorVhNumber: smallint('tutor_vh_number'),
    bidAmountCents: integer('bid_amount_cents').notNull(),
    bidMessage: text('bid_message'),
    read: boolean('read').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('student_notifications_student_created_idx').on(t.studentId, t.createdAt.desc().nullsFirst())],
);

/** Outcome of each notification e-mail (SPEC §7 send-notification-email). No FK: a log outlives its rows. */
export const emailLogs = pgTable(
  'email_logs',
  {
    id: id(),
    recipientEmail: text('recipient_email').notNull(),
    notificationType: text('notification_type').notNull(),
    status: text('status').notNull(),
    notificationId: uuid('notification_id'),
    error: text('error'),
    createdAt: createdAt(),
  },
  (t) => [index('email_logs_created_idx').on(t.createdAt.desc().nullsFirst())],
);

/** Mail written in the same transaction as its cause, sent and retried by a job. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: id(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body'),
    // An iCalendar invitation sent as invite.ics (meetings).
    calendar: text('calendar'),
    // Whose news of which kind the mail is: its one-click unsubscribe link is signed from these when it is sent.
    // Null for account mail (confirmation, reset…), which never offers one.
    unsubscribeUserId: uuid('unsubscribe_user_id'),
    unsubscribeTopic: text('unsubscribe_topic'),
    status: text('status', { enum: MAIL_OUTBOX_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamptz('next_attempt_at').notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: createdAt(),
    sentAt: timestamptz('sent_at'),
    ...claimColumns(),
  },
  (t) => [
    check('mail_outbox_status_check', inList(t.status, MAIL_OUTBOX_STATUSES)),
    check('mail_outbox_attempts_check', sql`${t.attempts} >= 0`),
    // The sender job's queue: due pending mail only.
    index('mail_outbox_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    // The per-recipient abuse limit counts the recent mail to one address.
    index('mail_outbox_recipient_created_idx').on(t.toAddress, t.createdAt),
  ],
);

/**
 * A user's choice of channels for one kind of news; a kind without a row has the defaults
 * (shared/schemas/notification-settings.ts: everything on but product news).
 */
export const notificationSettings = pgTable(
  'notification_settings',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    topic: text('topic').notNull(),
    inApp: boolean('in_app').notNull(),
    email: boolean('email').notNull(),
    push: boolean('push').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.topic] }),
    check('notification_settings_topic_check', inList(t.topic, NOTIFICATION_TOPICS)),
  ],
);

export type Notification = typeof notifications.$inferSelect;
