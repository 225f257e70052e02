import { boolean, index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth.ts';
import { chatRooms, messages } from './chat.ts';
import { createdAt, id, timestamptz } from './columns.ts';

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
    createdAt: createdAt(),
  },
  (t) => [
    index('jitsi_meetings_creator_id_idx').on(t.creatorId),
    index('jitsi_meetings_chat_message_id_idx').on(t.chatMessageId),
    index('jitsi_meetings_start_time_idx').on(t.startTime),
  ],
);

export type Meeting = typeof meetings.$inferSelect;
export type NewMeeting = typeof meetings.$inferInsert;
