import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import type { FanOutState } from '../../platform/realtime/realtime.ts';

const dependencies = {
  database: z.enum(['up', 'down']),
  realtime: z.enum(['up', 'reconnecting', 'single-node']),
  storage: z.enum(['up', 'down']),
};

const healthSchema = z.object({
  /** The database answers: the one thing a load balancer needs to know (503 otherwise). */
  ok: z.boolean(),
  /** `degraded` while any dependency is lost; the process reconnects by itself. */
  status: z.enum(['ok', 'degraded']),
  ...dependencies,
});
const livenessSchema = z.object({ alive: z.literal(true) });
const readinessSchema = z.object({
  ready: z.boolean(),
  ...dependencies,
  /** Shutting down: finishing what it has, taking nothing new. */
  draining: z.boolean(),
  /** How late the event loop has run lately; past the configured bound the process is too busy for more. */
  eventLoopLagMs: z.number(),
});

// Probes are asked every few seconds and must never answer from a cache on the way.
const NO_STORE = 'no-store';

export const healthRoutes: FastifyPluginAsyncZod<{
  db: Database;
  storage: Storage;
  realtimeFanOut: () => FanOutState;
  readiness: { isDraining: () => boolean; eventLoopLagMs: () => number; maxEventLoopLagMs: number };
}> = async (app, { db, storage: store, realtimeFanOut, readiness }) => {
  /** Each dependency's state now; a lost one reconnects by itself. */
  const dependencyStates = async (log: FastifyBaseLogger) => {
    const realtime = realtimeFanOut();
    const answers = (name: string, check: () => Promise<unknown>) =>
      check().then(
        () => 'up' as const,
        (error: unknown) => {
          log.warn({ err: error }, `${name} not answering`);
          return 'down' as const;
        },
      );
    const [database, storage] = await Promise.all([
      answers('database', () => db.execute(sql`select 1`)),
      answers('file store', () => store.check()),
    ]);
    return { database, realtime, storage };
  };

  app.get(
    '/api/health',
    {
      schema: {
        security: [],
        summary: 'Answers 200 once the database answers; says which dependency is lost while degraded',
        tags: ['health'],
        response: { 200: healthSchema, 503: healthSchema },
      },
    },
    async (request, reply) => {
      const states = await dependencyStates(request.log);
      const ok = states.database === 'up';
      const status = ok && states.realtime !== 'reconnecting' && states.storage === 'up' ? 'ok' : 'degraded';
      return reply.status(ok ? 200 : 503).send({ ok, status, ...states });
    },
  );

  app.get(
    '/livez',
    {
      schema: {
        security: [],
        summary: 'Answers 200 while the process runs and its event loop turns, whatever its dependencies do',
        description: 'For a liveness probe: restart the process only when this stops answering.',
        tags: ['health'],
        response: { 200: livenessSchema },
      },
    },
    async (_request, reply) => reply.header('cache-control', NO_STORE).send({ alive: true }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        security: [],
        summary:
          'Answers 200 when this process can serve everything; 503 while the database, the fan-out or the file store is lost, while it shuts down, or while its event loop lags',
        description:
          'For a readiness probe or a load balancer: send no traffic while 503. The file store’s last good answer ' +
          'is kept 5 s (a failed file operation drops it). The process reconnects by itself; ' +
          'after SIGTERM it stays 503 until it exits (SHUTDOWN_DRAIN_DELAY_MS, then it stops taking connections).',
        tags: ['health'],
        response: { 200: readinessSchema, 503: readinessSchema },
      },
    },
    async (request, reply) => {
      const states = await dependencyStates(request.log);
      const draining = readiness.isDraining();
      const eventLoopLagMs = readiness.eventLoopLagMs();
      const ready =
        states.database === 'up' &&
        states.realtime !== 'reconnecting' &&
        states.storage === 'up' &&
        !draining &&
        eventLoopLagMs <= readiness.maxEventLoopLagMs;
      return reply
        .status(ready ? 200 : 503)
        .header('cache-control', NO_STORE)
        .send({ ready, ...states, draining, eventLoopLagMs });
    },
  );
};
