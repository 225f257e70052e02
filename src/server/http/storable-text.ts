import type { FastifyInstance } from 'fastify';
import { pathToNulCharacter } from '#shared/rules/text.ts';
import { isUpload } from './upload.ts';
import { fieldError } from './errors.ts';

const UNSTORABLE_TEXT = 'This text contains a character that cannot be saved.';

/**
 * A 400 naming the field when the input holds a NUL character, which PostgreSQL text cannot store. An uploaded
 * file is not looked into: its bytes are no text, and its name is cleaned where it is stored
 * (platform/storage/filenames.ts).
 */
export function assertStorableText(input: unknown) {
  const path = pathToNulCharacter(input, { skip: isUpload });
  if (path) throw fieldError(path.map(String).join('.') || '_', UNSTORABLE_TEXT);
}

/**
 * Every API route's path parameters, query and body, multipart fields included, are checked after the body is read
 * and before the route's schema: registered after @fastify/multipart, whose own hook puts the fields in the body.
 * (A field the schema itself parses further, such as a list sent as JSON text, holds ids, not text to store.)
 */
export function registerStorableTextRule(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    if (!request.url.startsWith('/api/')) return;
    for (const input of [request.params, request.query, request.body]) assertStorableText(input);
  });
}
