import { randomUUID } from 'node:crypto';
import { and, desc, eq, isNotNull, lte, or, sql } from 'drizzle-orm';
import { AI_USER_ID, USER_LIMITS, type ChatAttachmentType } from '#shared/constants.ts';
import { chatMessages, type ChatMessage, type MessagePage, type SendMessageInput } from '#shared/schemas/chat.ts';
import { guruMessages } from '#shared/schemas/guru.ts';
import type { Database, Executor } from '../../db/client.ts';
import { olderThan, toPage } from '../../db/keyset.ts';
import { chatRooms, messages, type NewMessage } from '../../db/schema/chat.ts';
import { AppError, fieldError } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { enforceLimit, enforceUserLimit, rateLimited } from '../../platform/limits/usage-limits.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import { cleanFilename } from '../../platform/storage/filenames.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import type { Moderation } from '../moderation/service.ts';
import { isOwnUpload } from './attachments.ts';
import { deliverMessage } from './delivery.ts';
import { messageFields, selectMessages, toChatMessage, type StoredMessage } from './message-columns.ts';
import type { MessageWriter } from './message-writer.ts';
import { findOrCreateRoom, findRoomBetween, getRoom } from './rooms.ts';

// Messages: history pages, idempotent sends with attachments, and the files they carry.

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
export async function insertMessage({
  db,
  values,
}: {
  db: Executor;
  values: NewMessage;
}): Promise<StoredMessage | null> {
  // After the room's last message even when the clock has not moved on since (the embedded database's ticks are
  // milliseconds), as the writer's batches do: a room's history keeps the order its messages were stored in.
  const createdAt = values.roomId
    ? sql`greatest(now(), (select ${chatRooms.lastMessageAt} from ${chatRooms} where ${chatRooms.id} = ${values.roomId}) + interval '1 microsecond')`
    : undefined;
  const inserted = db.$with('inserted').as(
    db
      .insert(messages)
      .values({ ...values, ...(createdAt && { createdAt }) })
      .onConflictDoNothing({ target: messages.clientId })
      .returning(messageFields),
  );
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

/** A message with the meeting it carries (features/meetings publishes it again once the meeting changes). */
export async function getMeetingMessage({ db, messageId }: { db: Executor; messageId: string }) {
  const [row] = await selectMessages(db).where(eq(messages.id, messageId));
  return row ? toChatMessage(row) : null;
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
  const file = isOwnUpload(attachment.fileKey, senderId) ? await storage.head(attachment.fileKey) : null;
  if (!file) throw fieldError('attachment.fileKey', chatMessages.unknownFile);
  const type = file.contentType as ChatAttachmentType;
  const extension = attachment.fileKey.split('.').pop()!;
  return {
    fileUrl: attachment.fileKey,
    fileType: type,
    fileSize: file.size,
    originalFilename: cleanFilename(attachment.originalFilename ?? '', { type, extension }),
  };
}

/**
 * Guru AI (features/guru): a question takes a turn before anything is written (or is refused in plain words), is told
 * to the assistant once stored, and is answered through `storeAssistantReply`.
 */
export type Assistant = { takeTurn(studentId: string, clientId: string): Promise<AssistantTurn> };
type AssistantTurn = { answer(question: ChatMessage): void; release(): Promise<void> };

/** The student's turn with Guru AI; a retry of a question already stored is answered as a retry, not refused. */
async function takeAssistantTurn({
  db,
  assistant,
  senderId,
  clientId,
}: {
  db: Executor;
  assistant: Assistant;
  senderId: string;
  clientId: string;
}): Promise<{ turn: AssistantTurn } | { retried: ChatMessage }> {
  try {
    return { turn: await assistant.takeTurn(senderId, clientId) };
  } catch (error) {
    const [earlier] = await selectMessages(db).where(
      and(eq(messages.clientId, clientId), eq(messages.senderId, senderId)),
    );
    if (earlier) return { retried: toChatMessage(earlier) };
    throw error;
  }
}

/** Stores Guru AI's reply to a student as a message from the AI pseudo-user, and delivers it like any message. */
export async function storeAssistantReply({
  db,
  realtime,
  studentId,
  content,
}: {
  db: Database;
  realtime: Realtime;
  studentId: string;
  content: string;
}): Promise<ChatMessage> {
  const stored = await insertMessage({
    db,
    values: { clientId: randomUUID(), senderId: AI_USER_ID, receiverId: studentId, content, roomId: null },
  });
  const message = toChatMessage({ ...stored!, meeting: null });
  await deliverMessage({ db, realtime, message });
  return message;
}

/** The conversation between a student and Guru AI, both directions (each served by messages_pair_created_idx). */
const assistantConversation = (userId: string) =>
  or(
    and(eq(messages.senderId, userId), eq(messages.receiverId, AI_USER_ID)),
    and(eq(messages.senderId, AI_USER_ID), eq(messages.receiverId, userId)),
  );

/** One page of the Guru AI conversation (it has no room), paged like a room's history. */
export async function listAssistantMessages({
  db,
  userId,
  before,
  limit,
}: {
  db: Executor;
  userId: string;
  before?: string;
  limit: number;
}): Promise<MessagePage> {
  const rows = await selectMessages(db)
    .where(and(assistantConversation(userId), olderThan(messages.createdAt, messages.id, before)))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(limit + 1);
  const { page, nextCursor } = toPage(rows, limit);
  return { messages: page.reverse().map(toChatMessage), nextCursor };
}

/** Clear chat, for the Guru AI conversation only: both directions deleted. */
export async function clearAssistantChat({ db, userId }: { db: Database; userId: string }) {
  await db.delete(messages).where(assistantConversation(userId));
}

type SendResult = { message: ChatMessage; created: boolean };
/** What a send needs besides the sender and the message: the same for every way in (HTTP and the socket). */
export type SendDependencies = {
  db: Database;
  storage: Storage;
  realtime: Realtime;
  moderation: Moderation;
  assistant?: Assistant;
  writer: MessageWriter;
};

/**
 * The usual send, a text to someone the sender already has a room with, through the writer's group commit; null
 * when it has to go the one-by-one way (no room yet, or the batch failed).
 */
async function sendThroughWriter({
  db,
  realtime,
  writer,
  sender,
  input,
}: {
  db: Database;
  realtime: Realtime;
  writer: MessageWriter;
  sender: SessionUser;
  input: SendMessageInput;
}): Promise<SendResult | null> {
  const outcome = await writer.write({
    clientId: input.clientId,
    senderId: sender.id,
    receiverId: input.receiverId,
    content: input.content.trim(),
  });
  switch (outcome.kind) {
    case 'stored': {
      const message = toChatMessage({ ...outcome.message, meeting: null });
      await deliverMessage({ db, realtime, message });
      return { message, created: true };
    }
    case 'stored-before':
      return {
        message: await getRetriedMessage({ db, senderId: sender.id, clientId: input.clientId }),
        created: false,
      };
    case 'rate-limited':
      throw rateLimited(outcome.resetsAt);
    case 'write-alone':
      return null;
  }
}

/**
 * Sends a message: moderation (not for Guru AI), the room created if absent (not for Guru AI), the message stored
 * and the room's last message updated atomically, then `message:new` and `room:updated` after the commit.
 * Idempotent per clientId: a retry returns the stored message with `created: false` and publishes nothing.
 * A text that passes moderation, to a person, goes through the writer's group commit.
 */
export async function sendMessage({
  db,
  storage,
  realtime,
  moderation,
  assistant,
  writer,
  sender,
  input,
}: SendDependencies & { sender: SessionUser; input: SendMessageInput }): Promise<SendResult> {
  if (input.receiverId === sender.id) throw fieldError('receiverId', chatMessages.self);
  const toAi = input.receiverId === AI_USER_ID;
  if (!toAi && !input.attachment && (await moderation.allows(input.content))) {
    const sent = await sendThroughWriter({ db, realtime, writer, sender, input });
    if (sent) return sent;
  }
  // Guru AI is for students (SPEC.md §7).
  if (toAi && sender.role !== 'student') throw new AppError('FORBIDDEN', { message: guruMessages.studentsOnly });
  const asked =
    toAi && assistant
      ? await takeAssistantTurn({ db, assistant, senderId: sender.id, clientId: input.clientId })
      : null;
  if (asked && 'retried' in asked) return { message: asked.retried, created: false };
  let sent: SendResult;
  try {
    sent = await storeMessage({ db, storage, realtime, moderation, sender, input });
  } catch (error) {
    await asked?.turn.release();
    throw error;
  }
  if (sent.created) asked?.turn.answer(sent.message);
  else await asked?.turn.release();
  return sent;
}

/** The one-by-one way: limits, moderation (not for Guru AI), the room created if absent, the message published. */
async function storeMessage({
  db,
  storage,
  realtime,
  moderation,
  sender,
  input,
}: Omit<SendDependencies, 'writer' | 'assistant'> & {
  sender: SessionUser;
  input: SendMessageInput;
}): Promise<SendResult> {
  const toAi = input.receiverId === AI_USER_ID;
  // Guru AI's questions have their own, lower, per-user limit.
  await enforceUserLimit(db, sender.id, 'chatMessages');
  if (toAi) await enforceLimit(db, `aiQuestions:${sender.id}`, USER_LIMITS.aiQuestions, guruMessages.tooManyQuestions);
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
  await deliverMessage({ db, realtime, message });
  return { message, created: true };
}

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
