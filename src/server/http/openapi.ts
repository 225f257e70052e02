import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** Every refusal has this body (see error-handler.ts). */
const refusal = {
  description: 'Refused: `code` names the reason, `message` says it in plain words, `fields` per form field.',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['code', 'message'],
        properties: {
          code: { type: 'string' },
          message: { type: 'string' },
          fields: { type: 'object', additionalProperties: { type: 'string' } },
          details: { type: 'object' },
        },
      },
    },
  },
};

/** The documented answer of a route that sends a stored file's bytes. */
export const fileAnswer = {
  description: "The file's bytes, with its stored content type",
  content: { 'application/octet-stream': { schema: z.string().meta({ format: 'binary' }) } },
};

/** The documented answer of a route that answers 204 with no body. */
export const noContentAnswer = z.null();

/**
 * An operation's name for integrators' generated clients, from its method and path:
 * `GET /api/requests/{id}/bids` is `getRequestsByIdBids`.
 */
function operationIdFor(method: string, url: string) {
  const words = url
    .split('/')
    .filter((segment) => segment && segment !== 'api')
    .flatMap((segment) => {
      const param = /^[:{](\w+)\}?$/.exec(segment)?.[1];
      return param ? ['by', param] : segment.split(/[^a-zA-Z0-9]+/).filter(Boolean);
    });
  return [method.toLowerCase(), ...words.map((word) => word[0]!.toUpperCase() + word.slice(1))].join('');
}

/**
 * The OpenAPI document published at `/api/openapi.json`: generated from the route schemas, with the session cookie as
 * the security of every operation (a route anyone may call says `security: []` in its schema), a name for every
 * operation, and the shared refusal body. The authorization matrix holds the declared security to what the routes do.
 */
export function openApiOptions({
  publicUrl,
  sessionCookieName,
}: {
  publicUrl: string;
  sessionCookieName: string;
}): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Virtual Help API',
        version: '1.0.0',
        description: 'The JSON API of the Virtual Help tutoring marketplace.',
        license: { name: 'Proprietary: the Terms of Service', url: new URL('/terms', publicUrl).href },
      },
      // The API is served from the same origin as this document.
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: sessionCookieName,
            description: `Set by signing in; named \`__Secure-${sessionCookieName}\` when the site is served over HTTPS.`,
          },
        },
      },
      security: [{ session: [] }],
    },
    transform: (input) => {
      const { schema, url } = jsonSchemaTransform(input);
      if (schema.hide) return { schema, url };
      const responses = { ...(schema.response ?? {}) } as Record<string, unknown>;
      // A 204 has no body; `type: 'null'` tells the document generator so (zod's null is written as a nullable enum).
      if (responses['204']) responses['204'] = { type: 'null', description: 'Done, with no content' };
      const hasRefusal = Object.keys(responses).some((status) => status.startsWith('4'));
      return {
        url,
        schema: {
          ...schema,
          operationId: schema.operationId ?? operationIdFor(input.route.method.toString(), url),
          response: hasRefusal ? responses : { ...responses, '4XX': refusal },
        },
      };
    },
  };
}
