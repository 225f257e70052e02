import type { FastifyInstance } from 'fastify';
import { errorMessages, type ApiErrorBody } from '#shared/errors.ts';

/**
 * Once the embedded database has gone for good (its worker ended), every request is answered 503 and the loss is
 * logged once, instead of each request failing on a closed socket: a supervisor's probe (/livez included) sees it
 * and restarts the process, which starts the database again.
 */
export function registerLostDatabaseAnswer(
  app: FastifyInstance,
  database: { failure(): Error | null; onFailure(listener: (error: Error) => void): void },
) {
  database.onFailure((error) =>
    app.log.error({ err: error }, 'the embedded database has stopped: every request is answered 503 until a restart'),
  );
  const body: ApiErrorBody = { code: 'SERVICE_UNAVAILABLE', message: errorMessages.SERVICE_UNAVAILABLE };
  // Answered here rather than thrown: the error handler would log every one of them again. Sent as text, because a
  // route's own 503 schema (the health probes have one) would refuse this body and turn the answer into a 500.
  app.addHook('onRequest', async (_request, reply) => {
    if (!database.failure()) return;
    return reply.status(503).type('application/json; charset=utf-8').send(JSON.stringify(body));
  });
}
