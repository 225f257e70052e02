import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, text, unique, uuid } from 'drizzle-orm/pg-core';
import { MEETING_REMINDER_KINDS } from '#shared/constants.ts';
import { users } from './auth.ts';
import { chatRooms, messages } from './chat.ts';
import { createdAt, id, inList, timestamptz } from './columns.ts';
import { tutoringRequests } from './requests.ts';

/** Video meetings scheduled by teachers in a chat (SQL name kept from SPEC: jitsi_meetings). */
export const meetings = pgTable(
  'jitsi_meetings',
  {
    id: id(),
    creatorId: uuid('creator_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description'),
    // The room name on the video service.
    meetingId: text('meeting_id').notNull(),
    joinUrl: text('join_url').notNull(),
    startTime: timestamptz('start_time').notNull(),
    isInstant: boolean('is_instant').notNull().default(false),
    // Set null rather than cascade: admin meeting statistics outlive the chat.
    chatRoomId: uuid('chat_room_id').references(() => chatRooms.id, { onDelete: 'set null' }),
    chatMessageId: uuid('chat_message_id').references(() => messages.id, { onDelete: 'set null' }),
    // The job (accepted request) of the chat's student and tutor the meeting is a session of, when they have one: a
    // refund for a missed session names one of its job's meetings.
    requestId: uuid('request_id').references(() => tutoringRequests.id, { onDelete: 'set null' }),
    // Set when the teacher who created it cancels it; its reminders are then never sent.
    cancelledAt: timestamptz('cancelled_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('jitsi_meetings_creator_id_idx').on(t.creatorId),
    index('jitsi_meetings_chat_message_id_idx').on(t.chatMessageId),
    index('jitsi_meetings_start_time_idx').on(t.startTime),
    index('jitsi_meetings_request_id_idx').on(t.requestId),
  ],
);

/**
 * Each press of Join by a participant, recorded before the meeting opens: whether the tutor joined within 15
 * minutes of the start decides a refund for a missed session.
 */
export const meetingJoins = pgTable(
  'meeting_joins',
  {
    id: id(),
    meetingId: uuid('meeting_id')
      .notNull()
      .references(() => meetings.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    joinedAt: timestamptz('joined_at').notNull().defaultNow(),
  },
  (t) => [index('meeting_joins_meeting_user_idx').on(t.meetingId, t.userId, t.joinedAt)],
);

/**
 * One reminder of a meeting for both participants, due at `dueAt`. The reminders job claims due rows by setting
 * `sentAt` in the transaction that writes the notifications and mails, so each is sent exactly once.
 */
export const meetingReminders = pgTable(
  'meeting_reminders',
  {
    id: id(),
    meetingId: uuid('meeting_id')
      .notNull()
      .references(() => meetings.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: MEETING_REMINDER_KINDS }).notNull(),
    dueAt: timestamptz('due_at').notNull(),
    sentAt: timestamptz('sent_at'),
  },
  (t) => [
    check('meeting_reminders_kind_check', inList(t.kind, MEETING_REMINDER_KINDS)),
    unique('meeting_reminders_meeting_kind_key').on(t.meetingId, t.kind),
    index('meeting_reminders_due_idx')
      .on(t.dueAt)
      .where(sql`${t.sentAt} is null`),
  ],
);

export type Meeting = typeof meetings.$inferSelect;
export type MeetingJoin = typeof meetingJoins.$inferSelect;
