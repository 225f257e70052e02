import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';

export const healthRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/health',
    {
      schema: {
        summary: 'Answers once the database answers',
        tags: ['health'],
        response: { 200: z.object({ ok: z.literal(true) }), 503: z.object({ ok: z.literal(false) }) },
      },
    },
    async (request, reply) => {
      try {
        await db.execute(sql`select 1`);
        return { ok: true as const };
      } catch (error) {
        request.log.warn({ err: error }, 'database not answering');
        return reply.status(503).send({ ok: false as const });
      }
    },
  );
};
