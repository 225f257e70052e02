import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listMessagesQuerySchema, messagePageSchema } from '#shared/schemas/chat.ts';
import type { Database } from '../../db/client.ts';
import { guruMessages } from '#shared/schemas/guru.ts';
import { AppError } from '../../http/errors.ts';
import { requireUser } from '../../http/session.ts';
import { clearAssistantChat, listAssistantMessages } from '../chat/service.ts';
import { noContentAnswer } from '../../http/openapi.ts';

const tags = ['guru'];

/** Guru AI is for students (SPEC.md §6): teachers are told so. */
async function requireStudent(request: FastifyRequest) {
  const user = await requireUser(request);
  if (user.role !== 'student') throw new AppError('FORBIDDEN', { message: guruMessages.studentsOnly });
  return user;
}

export const guruRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/guru/messages',
    {
      schema: {
        summary: 'One page of the conversation with Guru AI: the newest page first, then older ones with ?before=',
        description: 'Students only (teachers 403). Questions are sent with POST /api/chat/messages to the AI user.',
        tags,
        querystring: listMessagesQuerySchema,
        response: { 200: messagePageSchema },
      },
    },
    async (request) => {
      const user = await requireStudent(request);
      return listAssistantMessages({ db, userId: user.id, ...request.query });
    },
  );

  app.delete(
    '/api/guru/messages',
    {
      schema: {
        summary: 'Clear chat: delete the conversation with Guru AI, both directions',
        description: 'Students only (teachers 403). 204 also when there was nothing to delete.',
        tags,
        response: { 204: noContentAnswer },
      },
    },
    async (request, reply) => {
      const user = await requireStudent(request);
      await clearAssistantChat({ db, userId: user.id });
      return reply.status(204).send(null);
    },
  );
};
