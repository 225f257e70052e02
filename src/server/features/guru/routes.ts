import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client.ts';
import { requireRole } from '../../http/session.ts';
import { clearAssistantChat } from '../chat/service.ts';

const tags = ['guru'];

export const guruRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.delete(
    '/api/guru/messages',
    {
      schema: {
        summary: 'Clear chat: delete the conversation with Guru AI, both directions',
        description: 'Students only (teachers 403). 204 also when there was nothing to delete.',
        tags,
      },
    },
    async (request, reply) => {
      const user = await requireRole(request, 'student');
      await clearAssistantChat({ db, userId: user.id });
      return reply.status(204).send();
    },
  );
};
