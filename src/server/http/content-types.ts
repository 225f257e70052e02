import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';

export const isMultipart = (contentType: string | undefined) =>
  contentType?.toLowerCase().trimStart().startsWith('multipart/') ?? false;

/**
 * Bodies are JSON, or multipart on the upload routes only (those with `multipartOptions` in their config). Anything
 * else is refused with 415 before a byte of it is read: a multipart body sent to another route, and text/plain,
 * which a cross-site form may send without asking.
 */
/** Requests whose body was read in full: a failure before that, on a multipart request, is a broken upload. */
const bodiesRead = new WeakSet<FastifyRequest>();

/**
 * A multipart body the parser could not read (cut short, a malformed part header, a missing boundary): the
 * client's fault, answered with 400 rather than taken for a server error.
 */
export const isUnreadableUpload = (request: FastifyRequest, error: { statusCode?: number }) =>
  error.statusCode === undefined && request.isMultipart() && !bodiesRead.has(request);

export function registerContentTypeRules(app: FastifyInstance) {
  app.addHook('preHandler', async (request) => {
    bodiesRead.add(request);
  });
  app.removeContentTypeParser('text/plain');
  app.addHook('onRequest', async (request) => {
    if (isMultipart(request.headers['content-type']) && !request.routeOptions.config.multipartOptions) {
      throw new AppError('UNSUPPORTED_MEDIA_TYPE');
    }
  });
}
