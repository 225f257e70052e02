import type { FastifyInstance } from 'fastify';

/**
 * Every API answer is `Cache-Control: no-store` unless its route says otherwise (a public list, a public file): an
 * answer about someone must not stay in a shared computer's browser, or a proxy's cache, after they leave.
 */
export function registerUncachedAnswers(app: FastifyInstance) {
  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });
}
