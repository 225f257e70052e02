import { and, desc, eq, inArray, or, sql } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { AI_USER_ID, CHAT_PREVIEW_LENGTH } from '#shared/constants.ts';
import { chatMessages, type ChatRoomSummary, type RoomPage } from '#shared/schemas/chat.ts';
import type { Database, Executor } from '../../db/client.ts';
import { cursorMicros, olderThan, toPage } from '../../db/keyset.ts';
import { users } from '../../db/schema/auth.ts';
import { chatRooms, messages, type ChatRoom } from '../../db/schema/chat.ts';
import { AppError, fieldError } from '../../http/errors.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import { toTutorTrust, tutorTrustColumns } from '../tutors/service.ts';

// Chat rooms: one per pair of users, found or created race-safely, listed with their last message.

const FOREIGN_KEY_VIOLATION = '23503';
/** PostgreSQL's error code of a failed query (drizzle wraps the driver's error as its cause). */
const pgErrorCode = (error: unknown) =>
  ((error as { cause?: { code?: string } }).cause ?? (error as { code?: string })).code;

// ---------------------------------------------------------------------------------------------------------------
// Rooms

/** The room of a pair, whichever of the two is participant1: served by the chat_rooms_pair_key index. */
export async function findRoomBetween({ db, userAId, userBId }: { db: Executor; userAId: string; userBId: string }) {
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
export const partnerOf = (room: ChatRoom, userId: string) =>
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
        ...tutorTrustColumns(partner),
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
    partner: { ...row.partner, ...toTutorTrust(row.partner) },
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
  // Each half reads its participant index in order and stops after one page; only that page's rooms are joined to
  // their partner, last message and unread count (an OR of the two participants read and joined every room).
  const half = (participant: AnyPgColumn) =>
    db
      .select({ id: chatRooms.id, lastMessageAt: chatRooms.lastMessageAt })
      .from(chatRooms)
      .where(and(eq(participant, userId), olderThan(chatRooms.lastMessageAt, chatRooms.id, cursor)))
      .orderBy(desc(chatRooms.lastMessageAt), desc(chatRooms.id))
      .limit(limit + 1);
  const pageIds = sql`(select id from (${half(chatRooms.participant1Id)} union all ${half(chatRooms.participant2Id)}
    order by last_message_at desc, id desc limit ${limit + 1}) as page)`;
  const rows = await selectRooms({ db, userId })
    .where(inArray(chatRooms.id, pageIds))
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
