import type { FastifyInstance } from 'fastify';
import { pathToNulCharacter } from '#shared/rules/text.ts';
import { fieldError } from './errors.ts';

export const UNSTORABLE_TEXT = 'This text contains a character that cannot be saved.';

/** A 400 naming the field when the input holds a NUL character, which PostgreSQL text cannot store. */
export function assertStorableText(input: unknown) {
  const path = pathToNulCharacter(input);
  if (path) throw fieldError(path.map(String).join('.') || '_', UNSTORABLE_TEXT);
}

/**
 * Every route's path parameters, query and body, multipart fields included, are checked after the body is read and
 * before the route's schema: registered after @fastify/multipart, whose own hook puts the fields in the body.
 */
export function registerStorableTextRule(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    for (const input of [request.params, request.query, request.body]) assertStorableText(input);
  });
}
