import { randomBytes, randomUUID } from 'node:crypto';
import { and, desc, eq, isNotNull, lte, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { AI_USER_ID, CHAT_PREVIEW_LENGTH, type ChatAttachmentType } from '#shared/constants.ts';
import {
  chatMessages,
  type ChatMessage,
  type ChatRoomSummary,
  type CreateMeetingInput,
  type MessagePage,
  type Receipt,
  type ReceiptStatus,
  type RoomPage,
  type SendMessageInput,
} from '#shared/schemas/chat.ts';
import type { Database, Executor } from '../../db/client.ts';
import { users } from '../../db/schema/auth.ts';
import { chatRooms, messages, type ChatRoom, type Message, type NewMessage } from '../../db/schema/chat.ts';
import { meetings, type Meeting } from '../../db/schema/meetings.ts';
import { cursorMicros, olderThan, toPage } from '../../db/keyset.ts';
import { AppError, fieldError } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import { cleanFilename } from '../../platform/storage/filenames.ts';
import { isOwnUpload } from './attachments.ts';
import { enforceUserLimit } from '../../platform/limits/usage-limits.ts';
import type { Moderation } from '../moderation/moderation.ts';

const FOREIGN_KEY_VIOLATION = '23503';
/** PostgreSQL's error code of a failed query (drizzle wraps the driver's error as its cause). */
const pgErrorCode = (error: unknown) =>
  ((error as { cause?: { code?: string } }).cause ?? (error as { code?: string })).code;

// ---------------------------------------------------------------------------------------------------------------
// Rooms

/** The room of a pair, whichever of the two is participant1: served by the chat_rooms_pair_key index. */
async function findRoomBetween({ db, userAId, userBId }: { db: Executor; userAId: string; userBId: string }) {
  const [room] = await db
    .select()
    .from(chatRooms)
    .where(
      sql`least(${chatRooms.participant1Id}, ${chatRooms.participant2Id}) = least(${userAId}::uuid, ${userBId}::uuid)
        and greatest(${chatRooms.participant1Id}, ${chatRooms.participant2Id}) = greatest(${userAId}::uuid, ${userBId}::uuid)`,
    );
  return room ?? null;
}

/**
 * The one room of two users (in either order), created when absent. Race-safe: a concurrent creator makes our
 * insert do nothing on the pair's unique index, and the select after it sees that committed room.
 * Not for the Guru AI conversation, which has no room. An unknown user is a 404.
 * Callers inside a transaction publish `room:updated` to both users after their commit when `created`.
 */
export async function findOrCreateRoom({
  db,
  userAId,
  userBId,
}: {
  db: Executor;
  userAId: string;
  userBId: string;
}): Promise<{ room: ChatRoom; created: boolean }> {
  if (userAId === userBId) throw fieldError('partnerId', chatMessages.self);
  if (userAId === AI_USER_ID || userBId === AI_USER_ID) throw new AppError('NOT_FOUND');
  const existing = await findRoomBetween({ db, userAId, userBId });
  if (existing) return { room: existing, created: false };
  try {
    const [created] = await db
      .insert(chatRooms)
      .values({ participant1Id: userAId, participant2Id: userBId })
      .onConflictDoNothing()
      .returning();
    if (created) return { room: created, created: true };
  } catch (error) {
    if (pgErrorCode(error) === FOREIGN_KEY_VIOLATION) throw new AppError('NOT_FOUND');
    throw error;
  }
  const raced = await findRoomBetween({ db, userAId, userBId });
  if (!raced) throw new Error('chat room vanished right after a conflicting insert');
  return { room: raced, created: false };
}

const isParticipant = (userId: string) =>
  or(eq(chatRooms.participant1Id, userId), eq(chatRooms.participant2Id, userId));
const partnerOf = (room: ChatRoom, userId: string) =>
  room.participant1Id === userId ? room.participant2Id : room.participant1Id;

/** A room the user takes part in; anyone else gets 404, as if it did not exist. */
export async function getRoom({ db, userId, roomId }: { db: Executor; userId: string; roomId: string }) {
  const [room] = await db
    .select()
    .from(chatRooms)
    .where(and(eq(chatRooms.id, roomId), isParticipant(userId)));
  if (!room) throw new AppError('NOT_FOUND');
  return room;
}

const partner = alias(users, 'partner');
const lastMessage = alias(messages, 'last_message');

/**
 * The user's rooms, most recent activity first, in one query: partner profile, a preview of the last message
 * (through chat_rooms.last_message_id) and the unread count (the partial index messages_unread_idx).
 */
function selectRooms({ db, userId }: { db: Executor; userId: string }) {
  return db
    .select({
      id: chatRooms.id,
      lastMessageAt: chatRooms.lastMessageAt,
      cursorMicros: cursorMicros(chatRooms.lastMessageAt),
      partner: {
        id: partner.id,
        username: partner.username,
        image: partner.image,
        vhNumber: partner.vhNumber,
        role: partner.role,
      },
      lastMessageId: lastMessage.id,
      lastMessageSenderId: lastMessage.senderId,
      lastMessageContent: sql<string>`left(${lastMessage.content}, ${CHAT_PREVIEW_LENGTH})`,
      lastMessageCreatedAt: lastMessage.createdAt,
      lastMessageFileType: lastMessage.fileType,
      lastMessageOriginalFilename: lastMessage.originalFilename,
      lastMessageIsDelivered: lastMessage.isDelivered,
      lastMessageIsRead: lastMessage.isRead,
      unreadCount: sql<number>`(
        select count(*)::int from ${messages}
        where ${messages.receiverId} = ${userId} and ${messages.senderId} = ${partner.id} and ${messages.isRead} = false
      )`,
    })
    .from(chatRooms)
    .innerJoin(
      partner,
      eq(
        partner.id,
        sql`case when ${chatRooms.participant1Id} = ${userId} then ${chatRooms.participant2Id} else ${chatRooms.participant1Id} end`,
      ),
    )
    .leftJoin(lastMessage, eq(lastMessage.id, chatRooms.lastMessageId))
    .$dynamic();
}

type RoomRow = Awaited<ReturnType<ReturnType<typeof selectRooms>['execute']>>[number];

function toRoomSummary(row: RoomRow): ChatRoomSummary {
  return {
    id: row.id,
    partner: row.partner,
    lastMessageAt: row.lastMessageAt.toISOString(),
    lastMessage:
      row.lastMessageId === null
        ? null
        : {
            id: row.lastMessageId,
            senderId: row.lastMessageSenderId!,
            content: row.lastMessageContent,
            createdAt: row.lastMessageCreatedAt!.toISOString(),
            fileType: row.lastMessageFileType,
            originalFilename: row.lastMessageOriginalFilename,
            isDelivered: row.lastMessageIsDelivered!,
            isRead: row.lastMessageIsRead!,
          },
    unreadCount: row.unreadCount,
  };
}

export async function listRooms({
  db,
  userId,
  cursor,
  limit,
}: {
  db: Executor;
  userId: string;
  cursor?: string;
  limit: number;
}): Promise<RoomPage> {
  const rows = await selectRooms({ db, userId })
    .where(and(isParticipant(userId), olderThan(chatRooms.lastMessageAt, chatRooms.id, cursor)))
    .orderBy(desc(chatRooms.lastMessageAt), desc(chatRooms.id))
    .limit(limit + 1);
  const { page, nextCursor } = toPage(rows, limit);
  return { rooms: page.map(toRoomSummary), nextCursor };
}

/** One room as the room list shows it; 404 for anyone but its participants. */
export async function getRoomSummary({ db, userId, roomId }: { db: Executor; userId: string; roomId: string }) {
  const [row] = await selectRooms({ db, userId }).where(and(eq(chatRooms.id, roomId), isParticipant(userId)));
  if (!row) throw new AppError('NOT_FOUND');
  return toRoomSummary(row);
}

/** "Connect" and "open chat with tutor": the room with this partner, created when absent. */
export async function openRoom({
  db,
  realtime,
  userId,
  partnerId,
}: {
  db: Database;
  realtime: Realtime;
  userId: string;
  partnerId: string;
}) {
  const { room, created } = await findOrCreateRoom({ db, userAId: userId, userBId: partnerId });
  if (created) realtime.toUsers([userId, partnerId], 'room:updated', { roomId: room.id });
  return { room: await getRoomSummary({ db, userId, roomId: room.id }), created };
}

// ---------------------------------------------------------------------------------------------------------------
// Messages

const messageFields = {
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
const meetingFields = {
  id: meetings.id,
  title: meetings.title,
  description: meetings.description,
  meetingId: meetings.meetingId,
  joinUrl: meetings.joinUrl,
  startTime: meetings.startTime,
  creatorId: meetings.creatorId,
  cancelledAt: meetings.cancelledAt,
};

type StoredMessage = Pick<Message, keyof typeof messageFields>;
type StoredMeeting = Pick<Meeting, keyof typeof meetingFields>;

const toMeetingAnswer = (meeting: StoredMeeting) => ({
  ...meeting,
  startTime: meeting.startTime.toISOString(),
  cancelledAt: meeting.cancelledAt?.toISOString() ?? null,
});

/** Messages with their meeting (jitsi_meetings.chat_message_id is indexed). */
const selectMessages = (db: Executor) =>
  db
    .select({ ...messageFields, cursorMicros: cursorMicros(messages.createdAt), meeting: meetingFields })
    .from(messages)
    .leftJoin(meetings, eq(meetings.chatMessageId, messages.id))
    .$dynamic();

const fileUrlOf = (messageId: string) => `/api/chat/files/${messageId}`;

function toChatMessage(row: StoredMessage & { meeting: StoredMeeting | null }): ChatMessage {
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
    meeting: row.meeting ? toMeetingAnswer(row.meeting) : null,
  };
}

/** One page of a room's history, newest page first, oldest first within the page; never more than `limit` rows. */
export async function listMessages({
  db,
  userId,
  roomId,
  before,
  limit,
}: {
  db: Executor;
  userId: string;
  roomId: string;
  before?: string;
  limit: number;
}): Promise<MessagePage> {
  await getRoom({ db, userId, roomId });
  const rows = await selectMessages(db)
    .where(and(eq(messages.roomId, roomId), olderThan(messages.createdAt, messages.id, before)))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(limit + 1);
  const { page, nextCursor } = toPage(rows, limit);
  return { messages: page.reverse().map(toChatMessage), nextCursor };
}

/**
 * Inserts a message and makes it its room's last one, in one statement (so atomic without a transaction). A message
 * with this clientId already stored makes it do nothing (also when a concurrent retry committed first): null then.
 */
async function insertMessage({ db, values }: { db: Executor; values: NewMessage }): Promise<StoredMessage | null> {
  const inserted = db
    .$with('inserted')
    .as(db.insert(messages).values(values).onConflictDoNothing({ target: messages.clientId }).returning(messageFields));
  const touched = db.$with('touched').as(
    db
      .update(chatRooms)
      .set({ lastMessageAt: sql`${inserted.createdAt}`, lastMessageId: sql`${inserted.id}` })
      .from(inserted)
      // Of two concurrent sends the later message wins, whichever commits last.
      .where(and(eq(chatRooms.id, inserted.roomId), lte(chatRooms.lastMessageAt, inserted.createdAt)))
      .returning({ id: chatRooms.id }),
  );
  const [row] = await db.with(inserted, touched).select().from(inserted);
  return row ?? null;
}

/** The message stored under a clientId, if its sender is this user (a clientId is unique across all senders). */
async function getRetriedMessage({ db, senderId, clientId }: { db: Executor; senderId: string; clientId: string }) {
  const [row] = await selectMessages(db).where(eq(messages.clientId, clientId));
  if (!row) throw new Error('a conflicting clientId vanished');
  if (row.senderId !== senderId)
    throw new AppError('CONFLICT', { fields: { clientId: 'This clientId is already used by another message' } });
  return toChatMessage(row);
}

/** The stored upload named by the sender, as message columns; only the sender's own uploads can be attached. */
async function resolveAttachment({
  storage,
  senderId,
  attachment,
}: {
  storage: Storage;
  senderId: string;
  attachment: NonNullable<SendMessageInput['attachment']>;
}) {
  const file = isOwnUpload(attachment.fileKey, senderId) ? await storage.get(attachment.fileKey) : null;
  if (!file) throw fieldError('attachment.fileKey', chatMessages.unknownFile);
  file.stream.destroy();
  const type = file.contentType as ChatAttachmentType;
  const extension = attachment.fileKey.split('.').pop()!;
  return {
    fileUrl: attachment.fileKey,
    fileType: type,
    fileSize: file.size,
    originalFilename: cleanFilename(attachment.originalFilename ?? '', { type, extension }),
  };
}

/** After the commit: the message to both participants' sockets (Guru AI has none), and their room lists are stale. */
function publishMessage({ realtime, message }: { realtime: Realtime; message: ChatMessage }) {
  const participants = [message.senderId, message.receiverId].filter((id) => id !== AI_USER_ID);
  realtime.toUsers(participants, 'message:new', message);
  if (message.roomId) realtime.toUsers(participants, 'room:updated', { roomId: message.roomId });
}

/**
 * Sends a message: moderation (not for Guru AI), the room created if absent (not for Guru AI), the message stored
 * and the room's last message updated atomically, then `message:new` and `room:updated` after the commit.
 * Idempotent per clientId: a retry returns the stored message with `created: false` and publishes nothing.
 */
export async function sendMessage({
  db,
  storage,
  realtime,
  moderation,
  sender,
  input,
}: {
  db: Database;
  storage: Storage;
  realtime: Realtime;
  moderation: Moderation;
  sender: SessionUser;
  input: SendMessageInput;
}): Promise<{ message: ChatMessage; created: boolean }> {
  if (input.receiverId === sender.id) throw fieldError('receiverId', chatMessages.self);
  await enforceUserLimit(db, sender.id, 'chatMessages');
  const toAi = input.receiverId === AI_USER_ID;
  const room = toAi ? null : await findRoomBetween({ db, userAId: sender.id, userBId: input.receiverId });
  if (!toAi) {
    await moderation.assertAllowed({
      text: input.content,
      field: 'content',
      senderId: sender.id,
      roomId: room?.id ?? null,
    });
    // The receiver reads the file's name too.
    if (input.attachment?.originalFilename) {
      await moderation.assertAllowed({
        text: input.attachment.originalFilename,
        field: 'attachment.originalFilename',
        senderId: sender.id,
        roomId: room?.id ?? null,
      });
    }
  }
  const file = input.attachment
    ? await resolveAttachment({ storage, senderId: sender.id, attachment: input.attachment })
    : {};
  const values = {
    clientId: input.clientId,
    senderId: sender.id,
    receiverId: input.receiverId,
    content: input.content.trim(),
    ...file,
  };

  // The usual case, an existing room (or Guru AI), is one statement; a first message creates the room with it.
  const stored =
    room || toAi
      ? await insertMessage({ db, values: { ...values, roomId: room?.id ?? null } })
      : await db.transaction(async (tx) => {
          const created = await findOrCreateRoom({ db: tx, userAId: sender.id, userBId: input.receiverId });
          return insertMessage({ db: tx, values: { ...values, roomId: created.room.id } });
        });
  if (!stored)
    return { message: await getRetriedMessage({ db, senderId: sender.id, clientId: input.clientId }), created: false };

  const message = toChatMessage({ ...stored, meeting: null });
  publishMessage({ realtime, message });
  return { message, created: true };
}

// ---------------------------------------------------------------------------------------------------------------
// Receipts

/**
 * Marks every message the partner sent the user in this room as delivered, or as read (which implies delivered),
 * in one update; the partner gets `message:status` with the newest such message's time, the user's other tabs
 * `room:updated` (the unread count changed).
 */
export async function markRoom({
  db,
  realtime,
  userId,
  roomId,
  status,
}: {
  db: Database;
  realtime: Realtime;
  userId: string;
  roomId: string;
  status: ReceiptStatus;
}): Promise<Receipt> {
  const room = await getRoom({ db, userId, roomId });
  const partnerId = partnerOf(room, userId);
  const pending = status === 'read' ? eq(messages.isRead, false) : eq(messages.isDelivered, false);
  const updated = db.$with('updated').as(
    db
      .update(messages)
      .set(status === 'read' ? { isRead: true, isDelivered: true } : { isDelivered: true })
      .where(
        and(eq(messages.receiverId, userId), eq(messages.senderId, partnerId), eq(messages.roomId, roomId), pending),
      )
      .returning({ createdAt: messages.createdAt }),
  );
  const [result] = await db
    .with(updated)
    .select({
      count: sql<number>`count(*)::int`,
      upTo: sql<Date | null>`max(${updated.createdAt})`.mapWith(messages.createdAt),
    })
    .from(updated);
  const count = result?.count ?? 0;
  if (count === 0 || !result?.upTo) return { updated: 0, upTo: null };

  const upTo = result.upTo.toISOString();
  realtime.toUsers([partnerId], 'message:status', { roomId, status, upTo });
  realtime.toUsers([userId], 'room:updated', { roomId });
  return { updated: count, upTo };
}

// ---------------------------------------------------------------------------------------------------------------
// Files

/** The attachment of a message, for its sender and receiver only (anyone else: 404). */
export async function getMessageFile({
  db,
  storage,
  userId,
  messageId,
}: {
  db: Executor;
  storage: Storage;
  userId: string;
  messageId: string;
}) {
  const [row] = await db
    .select({ key: messages.fileUrl, fileType: messages.fileType, originalFilename: messages.originalFilename })
    .from(messages)
    .where(
      and(
        eq(messages.id, messageId),
        isNotNull(messages.fileUrl),
        or(eq(messages.senderId, userId), eq(messages.receiverId, userId)),
      ),
    );
  const file = row?.key ? await storage.get(row.key) : null;
  if (!row || !file) throw new AppError('NOT_FOUND');
  return {
    ...file,
    contentType: row.fileType ?? file.contentType,
    originalFilename: row.originalFilename ?? 'attachment',
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Meetings

const MEETING_MESSAGE_PREFIX = '📹 Scheduled meeting: ';

/**
 * A teacher schedules a video meeting in a room: the jitsi_meetings row and a chat message that carries it, in
 * one transaction. The join URL names a random room on the video service; the client adds the display name and
 * disables the service's own chat with URL config parameters.
 */
export async function createMeeting({
  db,
  realtime,
  moderation,
  jitsiDomain,
  user,
  roomId,
  input,
  followUp,
}: {
  db: Database;
  realtime: Realtime;
  moderation: Moderation;
  jitsiDomain: string;
  user: SessionUser;
  roomId: string;
  input: CreateMeetingInput;
  /** Runs in the creating transaction (notifications, reminders). */
  followUp?: (options: { db: Executor; meetingId: string; participantId: string }) => Promise<unknown>;
}): Promise<ChatMessage> {
  const room = await getRoom({ db, userId: user.id, roomId });
  if (user.role !== 'teacher') throw new AppError('FORBIDDEN', { message: 'Only teachers can schedule meetings.' });
  await moderation.assertAllowed({ text: input.title, field: 'title', senderId: user.id, roomId });
  if (input.description)
    await moderation.assertAllowed({ text: input.description, field: 'description', senderId: user.id, roomId });

  const meetingId = `VirtualHelp-${randomBytes(12).toString('hex')}`;
  const message = await db.transaction(async (tx) => {
    const stored = await insertMessage({
      db: tx,
      values: {
        clientId: randomUUID(),
        roomId,
        senderId: user.id,
        receiverId: partnerOf(room, user.id),
        content: [`${MEETING_MESSAGE_PREFIX}${input.title}`, input.description].filter(Boolean).join('\n'),
      },
    });
    const [meeting] = await tx
      .insert(meetings)
      .values({
        creatorId: user.id,
        title: input.title,
        description: input.description || null,
        meetingId,
        joinUrl: `https://${jitsiDomain}/${meetingId}`,
        startTime: new Date(input.startTime),
        chatRoomId: roomId,
        chatMessageId: stored!.id,
      })
      .returning(meetingFields);
    await followUp?.({ db: tx, meetingId: meeting!.id, participantId: partnerOf(room, user.id) });
    return toChatMessage({ ...stored!, meeting: meeting! });
  });
  publishMessage({ realtime, message });
  return message;
}

/** The chat message that carries a meeting, as the message list shows it. */
export async function getMeetingMessage({ db, messageId }: { db: Executor; messageId: string }) {
  const [row] = await selectMessages(db).where(eq(messages.id, messageId));
  return row ? toChatMessage(row) : null;
}

export { publishMessage };
