import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { errorMessages, type ApiErrorBody } from '#shared/errors.ts';
import { isUnreadableUpload } from './content-types.ts';
import { AppError, validationFailure } from './errors.ts';

/** One place turns every failure into `{ code, message, fields? }`; 5xx details stay in the log. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      if (error.statusCode >= 500) request.log.error({ err: error }, 'request failed');
      return reply.status(error.statusCode).send({
        code: error.code,
        message: error.message,
        fields: error.fields,
        details: error.details,
      } satisfies ApiErrorBody);
    }

    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map(({ instancePath, message }) => ({
        path: instancePath.split('/').filter(Boolean),
        message,
      }));
      return reply.status(400).send(validationFailure(issues) satisfies ApiErrorBody);
    }

    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
      return reply.status(500).send({ code: 'INTERNAL', message: errorMessages.INTERNAL } satisfies ApiErrorBody);
    }

    if (isUnreadableUpload(request, error)) {
      return reply
        .status(400)
        .send({ code: 'UNREADABLE_UPLOAD', message: errorMessages.UNREADABLE_UPLOAD } satisfies ApiErrorBody);
    }
    const status = error.statusCode ?? 500;
    if (status === 429) {
      return reply
        .status(429)
        .send({ code: 'RATE_LIMITED', message: errorMessages.RATE_LIMITED } satisfies ApiErrorBody);
    }
    if (status === 413) {
      return reply
        .status(413)
        .send({ code: 'PAYLOAD_TOO_LARGE', message: errorMessages.PAYLOAD_TOO_LARGE } satisfies ApiErrorBody);
    }
    if (status === 415) {
      return reply
        .status(415)
        .send({ code: 'UNSUPPORTED_MEDIA_TYPE', message: errorMessages.UNSUPPORTED_MEDIA_TYPE } satisfies ApiErrorBody);
    }
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (malformed JSON, wrong content type) are safe to repeat.
      return reply
        .status(status)
        .send({ code: error.code || 'BAD_REQUEST', message: error.message } satisfies ApiErrorBody);
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ code: 'INTERNAL', message: errorMessages.INTERNAL } satisfies ApiErrorBody);
  });
}
