import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, text, unique, uuid } from 'drizzle-orm/pg-core';
import { FLAG_STATUSES, MODERATION_CATEGORIES, REPORT_REASON_VALUES, REPORT_STATUSES } from '#shared/constants.ts';
import { users } from './auth.ts';
import { chatRooms } from './chat.ts';
import { createdAt, id, inList, timestamptz } from './columns.ts';

/** Who decided a report or flag, when, and why (set null: the decision stays when that admin account goes). */
const adminDecision = () => ({
  decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
  decidedAt: timestamptz('decided_at'),
  decisionNote: text('decision_note'),
});

export const userReports = pgTable(
  'user_reports',
  {
    id: id(),
    // Set null: a report stays for the admins when its author deletes the account.
    reporterId: uuid('reporter_id').references(() => users.id, { onDelete: 'set null' }),
    reportedUserId: uuid('reported_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reason: text('reason', { enum: REPORT_REASON_VALUES }).notNull(),
    description: text('description').notNull(),
    status: text('status', { enum: REPORT_STATUSES }).notNull().default('pending'),
    createdAt: createdAt(),
    ...adminDecision(),
  },
  (t) => [
    check('user_reports_reason_check', inList(t.reason, REPORT_REASON_VALUES)),
    check('user_reports_status_check', inList(t.status, REPORT_STATUSES)),
    check('user_reports_not_self_check', sql`${t.reporterId} <> ${t.reportedUserId}`),
    index('user_reports_created_idx').on(t.createdAt.desc().nullsFirst()),
    index('user_reports_reported_user_id_idx').on(t.reportedUserId),
    index('user_reports_reporter_id_idx').on(t.reporterId),
  ],
);

/** A blocked chat message, recorded for the admin panel's Illegal Content table. */
export const illegalContentFlags = pgTable(
  'illegal_content_flags',
  {
    id: id(),
    flagType: text('flag_type', { enum: MODERATION_CATEGORIES }).notNull(),
    content: text('content').notNull(),
    description: text('description'),
    senderId: uuid('sender_id').references(() => users.id, { onDelete: 'set null' }),
    chatRoomId: uuid('chat_room_id').references(() => chatRooms.id, { onDelete: 'set null' }),
    status: text('status', { enum: FLAG_STATUSES }).notNull().default('pending'),
    createdAt: createdAt(),
    ...adminDecision(),
  },
  (t) => [
    check('illegal_content_flags_flag_type_check', inList(t.flagType, MODERATION_CATEGORIES)),
    check('illegal_content_flags_status_check', inList(t.status, FLAG_STATUSES)),
    index('illegal_content_flags_created_idx').on(t.createdAt.desc().nullsFirst()),
    index('illegal_content_flags_sender_id_idx').on(t.senderId),
  ],
);

/**
 * Every refused attempt to send a text (contact details, a pattern), counted per user and hour: the admins see the
 * counts, while the flags of one user's hour stop at a few rows (features/moderation/refused-attempts.ts).
 */
export const moderationAttempts = pgTable(
  'moderation_attempts',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    hour: timestamptz('hour').notNull(),
    attempts: integer('attempts').notNull().default(1),
  },
  (t) => [primaryKey({ columns: [t.userId, t.hour] }), index('moderation_attempts_hour_idx').on(t.hour)],
);

/** Case-insensitive regular expressions (valid in JS and PostgreSQL) checked before a message is sent. */
export const moderationPatterns = pgTable(
  'moderation_patterns',
  {
    id: id(),
    pattern: text('pattern').notNull(),
    category: text('category', { enum: MODERATION_CATEGORIES }).notNull(),
    isActive: boolean('is_active').notNull().default(true),
    description: text('description'),
    createdAt: createdAt(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    check('moderation_patterns_category_check', inList(t.category, MODERATION_CATEGORIES)),
    unique('moderation_patterns_pattern_category_key').on(t.pattern, t.category),
  ],
);
