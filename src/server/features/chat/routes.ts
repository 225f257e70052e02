import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type pg from 'pg';
import { z } from 'zod';
import { CHAT_ATTACHMENT } from '#shared/constants.ts';
import {
  chatErrorSchema,
  listMessagesQuerySchema,
  listRoomsQuerySchema,
  messagePageSchema,
  messageParamsSchema,
  messageSchema,
  openRoomSchema,
  receiptSchema,
  roomPageSchema,
  roomParamsSchema,
  roomSchema,
  sendMessageSchema,
  uploadedFileSchema,
  type ReceiptStatus,
} from '#shared/schemas/chat.ts';
import type { Database } from '../../db/client.ts';
import { sendStoredFile } from '../../http/send-file.ts';
import { requireSession, requireUser } from '../../http/session.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import { uploadLimits, uploadSchema } from '../../http/upload.ts';
import { storeChatUpload } from './attachments.ts';
import { createMessageWriter } from './message-writer.ts';
import { enforceUserLimit } from '../../platform/limits/usage-limits.ts';
import type { Moderation } from '../moderation/service.ts';
import type { Assistant } from './service.ts';
import { getMessageFile, getRoomSummary, listMessages, listRooms, markRoom, openRoom, sendMessage } from './service.ts';
import { registerChatSocketHandlers } from './socket.ts';
import { fileAnswer } from '../../http/openapi.ts';

const tags = ['chat'];

export const chatRoutes: FastifyPluginAsyncZod<{
  db: Database;
  /** The pool behind `db`: the message writer prepares its statement on its connections. */
  pool: pg.Pool;
  storage: Storage;
  realtime: Realtime;
  moderation: Moderation;
  assistant: Assistant;
  /** Told of each message stored (metrics). */
  onMessageSent?: () => void;
}> = async (app, { db, pool, storage, realtime, moderation, assistant, onMessageSent }) => {
  // One writer for both ways in, so sends over HTTP and sockets share its batches.
  const send = { db, storage, realtime, moderation, assistant, writer: createMessageWriter({ pool, log: app.log }) };
  registerChatSocketHandlers({ send, log: app.log, onMessageSent });

  app.get(
    '/api/chat/rooms',
    {
      schema: {
        summary:
          'The signed-in user’s chat rooms, most recent activity first, with partner, last message and unread count',
        tags,
        querystring: listRoomsQuerySchema,
        response: { 200: roomPageSchema },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return listRooms({ db, userId: user.id, ...request.query });
    },
  );

  app.post(
    '/api/chat/rooms',
    {
      schema: {
        summary: 'Open the room with a partner, creating it when absent (Connect, chat with a tutor)',
        description:
          '201 when the room was created ("Connected!"), 200 when it existed ("Already connected"). Unknown partner: 404.',
        tags,
        body: openRoomSchema,
        response: {
          200: z.object({ room: roomSchema, created: z.boolean() }),
          201: z.object({ room: roomSchema, created: z.boolean() }),
        },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const opened = await openRoom({ db, realtime, userId: user.id, partnerId: request.body.partnerId });
      return reply.status(opened.created ? 201 : 200).send(opened);
    },
  );

  app.get(
    '/api/chat/rooms/:roomId/messages',
    {
      schema: {
        summary: 'One page of a room’s messages: the newest page first, then older pages with ?before=nextCursor',
        tags,
        params: roomParamsSchema,
        querystring: listMessagesQuerySchema,
        response: { 200: messagePageSchema },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return listMessages({ db, userId: user.id, roomId: request.params.roomId, ...request.query });
    },
  );

  app.post(
    '/api/chat/messages',
    {
      schema: {
        summary: 'Send a message (the same as the socket event message:send)',
        description:
          'The answer is the acknowledgement: the message is committed. Retry with the same clientId until answered; a retry returns the stored message with 200 instead of 201. ' +
          'The room is created on the first message (not for Guru AI, receiverId all zeros, whose messages have roomId null and skip moderation). ' +
          'Blocked by moderation: 400 MESSAGE_BLOCKED with the category text as message and details { category, matches: [{ start, end }] } (offsets into content); nothing is stored. ' +
          'An attachment is a fileKey from POST /api/chat/uploads by the same user.',
        tags,
        body: sendMessageSchema,
        response: { 200: messageSchema, 201: messageSchema, 400: chatErrorSchema },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const { message, created } = await sendMessage({ ...send, sender: user, input: request.body });
      if (created) onMessageSent?.();
      return reply.status(created ? 201 : 200).send(message);
    },
  );

  for (const status of ['delivered', 'read'] as const satisfies ReceiptStatus[]) {
    app.post(
      `/api/chat/rooms/:roomId/${status}`,
      {
        schema: {
          summary: `Mark every message the partner sent in this room as ${status}`,
          description: `The partner's sockets get message:status { roomId, status: '${status}', upTo }.`,
          tags,
          params: roomParamsSchema,
          response: { 200: receiptSchema },
        },
      },
      async (request) => {
        const user = await requireUser(request);
        return markRoom({ db, realtime, userId: user.id, roomId: request.params.roomId, status });
      },
    );
  }

  app.post(
    '/api/chat/uploads',
    {
      config: { multipartOptions: uploadLimits({ maxBytes: CHAT_ATTACHMENT.maxBytes }) },
      schema: {
        summary: 'Upload a chat attachment (multipart field "file"); send it with POST /api/chat/messages',
        description: `Types are detected from the bytes: ${CHAT_ATTACHMENT.types.join(', ')}; at most ${CHAT_ATTACHMENT.maxBytes / 1024 / 1024} MB.`,
        tags,
        consumes: ['multipart/form-data'],
        body: z.object({ file: uploadSchema }),
        response: { 201: uploadedFileSchema },
      },
      // Signed-out uploads, and uploads past the user's ceiling, are refused before their bytes are read.
      onRequest: async (request) => {
        await enforceUserLimit(db, (await requireUser(request)).id, 'uploads');
      },
    },
    async (request, reply) => {
      const { user, sessionId } = await requireSession(request);
      return reply
        .status(201)
        .send(await storeChatUpload({ db, storage, uploaderId: user.id, sessionId, upload: request.body.file }));
    },
  );

  app.get(
    '/api/chat/files/:messageId',
    {
      schema: {
        summary: 'Download a message’s attachment (sender and receiver only)',
        description:
          'Served with its detected type; raster images inline, everything else (SVG included) as a download, sandboxed.',
        tags,
        params: messageParamsSchema,
        response: { 200: fileAnswer },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const file = await getMessageFile({ db, storage, userId: user.id, messageId: request.params.messageId });
      const inline = (CHAT_ATTACHMENT.inlineTypes as readonly string[]).includes(file.contentType);
      // A message's file never changes, but it is private.
      return sendStoredFile(reply, file, {
        disposition: inline ? 'inline' : 'attachment',
        filename: file.originalFilename,
        cacheControl: 'private, max-age=86400',
      });
    },
  );

  app.get(
    '/api/chat/rooms/:roomId',
    {
      schema: {
        summary: 'One room of the signed-in user (as in the room list)',
        tags,
        params: roomParamsSchema,
        response: { 200: roomSchema },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return getRoomSummary({ db, userId: user.id, roomId: request.params.roomId });
    },
  );
};
