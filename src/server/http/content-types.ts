import type { FastifyInstance } from 'fastify';
import { AppError } from './errors.ts';

const isMultipart = (contentType: string | undefined) =>
  contentType?.toLowerCase().trimStart().startsWith('multipart/') ?? false;

/**
 * Bodies are JSON, or multipart on the upload routes only (those with `multipartOptions` in their config). Anything
 * else is refused with 415 before a byte of it is read: a multipart body sent to another route, and text/plain,
 * which a cross-site form may send without asking.
 */
export function registerContentTypeRules(app: FastifyInstance) {
  app.removeContentTypeParser('text/plain');
  app.addHook('onRequest', async (request) => {
    if (isMultipart(request.headers['content-type']) && !request.routeOptions.config.multipartOptions) {
      throw new AppError('UNSUPPORTED_MEDIA_TYPE');
    }
  });
}
