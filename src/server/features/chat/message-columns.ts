import { eq } from 'drizzle-orm';
import { REMOVED_FILE_TYPE, type ChatMessage } from '#shared/schemas/chat.ts';
import type { Executor } from '../../db/client.ts';
import { cursorMicros } from '../../db/keyset.ts';
import { messages, type Message } from '../../db/schema/chat.ts';
import { meetings, type Meeting } from '../../db/schema/meetings.ts';

// The column sets of a message and its meeting, and their answer shape: one module for every chat query.

export const messageFields = {
  id: messages.id,
  clientId: messages.clientId,
  roomId: messages.roomId,
  senderId: messages.senderId,
  receiverId: messages.receiverId,
  content: messages.content,
  createdAt: messages.createdAt,
  isDelivered: messages.isDelivered,
  isRead: messages.isRead,
  actionType: messages.actionType,
  fileUrl: messages.fileUrl,
  fileType: messages.fileType,
  originalFilename: messages.originalFilename,
  fileSize: messages.fileSize,
};
export const meetingFields = {
  id: meetings.id,
  title: meetings.title,
  description: meetings.description,
  meetingId: meetings.meetingId,
  joinUrl: meetings.joinUrl,
  startTime: meetings.startTime,
  creatorId: meetings.creatorId,
  cancelledAt: meetings.cancelledAt,
};

export type StoredMessage = Pick<Message, keyof typeof messageFields>;
type StoredMeeting = Pick<Meeting, keyof typeof meetingFields>;

const toMeetingAnswer = (meeting: StoredMeeting) => ({
  ...meeting,
  startTime: meeting.startTime.toISOString(),
  cancelledAt: meeting.cancelledAt?.toISOString() ?? null,
});

/** Messages with their meeting (jitsi_meetings.chat_message_id is indexed). */
export const selectMessages = (db: Executor) =>
  db
    .select({ ...messageFields, cursorMicros: cursorMicros(messages.createdAt), meeting: meetingFields })
    .from(messages)
    .leftJoin(meetings, eq(meetings.chatMessageId, messages.id))
    .$dynamic();

const fileUrlOf = (messageId: string) => `/api/chat/files/${messageId}`;

export function toChatMessage(row: StoredMessage & { meeting: StoredMeeting | null }): ChatMessage {
  return {
    id: row.id,
    clientId: row.clientId,
    roomId: row.roomId,
    senderId: row.senderId,
    receiverId: row.receiverId,
    content: row.content,
    createdAt: row.createdAt.toISOString(),
    isDelivered: row.isDelivered,
    isRead: row.isRead,
    actionType: row.actionType,
    attachment: row.fileUrl
      ? {
          url: fileUrlOf(row.id),
          fileType: row.fileType!,
          originalFilename: row.originalFilename!,
          fileSize: row.fileSize!,
        }
      : null,
    ...(!row.fileUrl && row.fileType === REMOVED_FILE_TYPE ? { isFileRemoved: true } : {}),
    meeting: row.meeting ? toMeetingAnswer(row.meeting) : null,
  };
}
