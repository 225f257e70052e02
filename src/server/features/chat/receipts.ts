import { and, eq, sql } from 'drizzle-orm';
import type { Receipt, ReceiptStatus } from '#shared/schemas/chat.ts';
import type { Database } from '../../db/client.ts';
import { messages } from '../../db/schema/chat.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import { getRoom, partnerOf } from './rooms.ts';

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
