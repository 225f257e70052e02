import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import type { FanOutState } from '../../platform/realtime/realtime.ts';

const healthSchema = z.object({
  /** The database answers: the one thing a load balancer needs to know (503 otherwise). */
  ok: z.boolean(),
  /** `degraded` while any dependency is lost; the process reconnects by itself. */
  status: z.enum(['ok', 'degraded']),
  database: z.enum(['up', 'down']),
  realtime: z.enum(['up', 'reconnecting', 'single-node']),
});

export const healthRoutes: FastifyPluginAsyncZod<{ db: Database; realtimeFanOut: () => FanOutState }> = async (
  app,
  { db, realtimeFanOut },
) => {
  app.get(
    '/api/health',
    {
      schema: {
        summary: 'Answers 200 once the database answers; says which dependency is lost while degraded',
        tags: ['health'],
        response: { 200: healthSchema, 503: healthSchema },
      },
    },
    async (request, reply) => {
      const realtime = realtimeFanOut();
      let database: 'up' | 'down' = 'up';
      try {
        await db.execute(sql`select 1`);
      } catch (error) {
        request.log.warn({ err: error }, 'database not answering');
        database = 'down';
      }
      const ok = database === 'up';
      const status = ok && realtime !== 'reconnecting' ? 'ok' : 'degraded';
      return reply.status(ok ? 200 : 503).send({ ok, status, database, realtime });
    },
  );
};
