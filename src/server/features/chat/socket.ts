import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { errorMessages } from '#shared/errors.ts';
import type { SendMessageAck } from '#shared/realtime-events.ts';
import { sendMessageSchema, type ChatError } from '#shared/schemas/chat.ts';
import { AppError, validationFailure } from '../../http/errors.ts';
import { assertStorableText } from '../../http/storable-text.ts';
import { sendMessage, type SendDependencies } from './service.ts';

/** The failure answer of an acknowledgement, shaped like the HTTP error body (5xx details stay in the log). */
function failureAck(error: unknown, log: FastifyBaseLogger): SendMessageAck {
  if (error instanceof z.ZodError) {
    return { ok: false, ...validationFailure(error.issues) };
  }
  if (error instanceof AppError && error.statusCode < 500) {
    return {
      ok: false,
      code: error.code,
      message: error.message,
      fields: error.fields,
      details: error.details as ChatError['details'],
    };
  }
  log.error({ err: error }, 'socket message:send failed');
  return { ok: false, code: 'INTERNAL', message: errorMessages.INTERNAL };
}

/** `message:send` over the socket: the same service as POST /api/chat/messages, answered through the ack. */
export function registerChatSocketHandlers({
  send,
  log,
  onMessageSent,
}: {
  send: SendDependencies;
  log: FastifyBaseLogger;
  onMessageSent?: () => void;
}) {
  send.realtime.onConnection((socket) => {
    socket.on('message:send', async (payload, ack) => {
      // Without a callback the sender could never learn the outcome, and a send must be acknowledged to count.
      if (typeof ack !== 'function') return;
      try {
        assertStorableText(payload);
        const input = sendMessageSchema.parse(payload);
        const { message, created } = await sendMessage({ ...send, sender: socket.data.user, input });
        if (created) onMessageSent?.();
        ack({ ok: true, message });
      } catch (error) {
        ack(failureAck(error, log));
      }
    });
  });
}
