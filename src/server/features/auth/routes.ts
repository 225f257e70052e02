import { parseCookies } from 'better-auth/cookies';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AVATAR } from '#shared/constants.ts';
import { errorMessages, type ApiErrorBody } from '#shared/errors.ts';
import { twoFactorMessages } from '#shared/two-factor.ts';
import {
  availabilityQuerySchema,
  availabilitySchema,
  registerResponseSchema,
  registerSchema,
} from '#shared/schemas/auth.ts';
import { withAvatarRules } from '#shared/schemas/profiles.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { fromCheckbox, fromList } from '../../http/multipart-fields.ts';
import { toHeaders } from '../../http/session.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import { uploadLimits, uploadSchema } from '../../http/upload.ts';
import type { Auth } from './auth.ts';
import {
  KNOWN_DEVICE_COOKIE,
  assertPasswordSignInAllowed,
  clearFailedSignIns,
  knownDeviceOf,
  recordFailedSignIn,
  rememberDevice,
} from './sign-in-lockout.ts';
import { checkEmailAvailability, checkUsernameAvailability, registerAccount } from './service.ts';

// better-auth's wording replaced by the SPEC's where a user reads it.
const betterAuthMessages: Record<string, string> = {
  EMAIL_NOT_VERIFIED: errorMessages.EMAIL_NOT_VERIFIED,
  INVALID_TOKEN: errorMessages.INVALID_TOKEN,
  INVALID_PASSWORD: twoFactorMessages.wrongPassword,
  INVALID_CODE: twoFactorMessages.wrongCode,
  INVALID_BACKUP_CODE: twoFactorMessages.wrongBackupCode,
  INVALID_TWO_FACTOR_COOKIE: twoFactorMessages.challengeExpired,
  TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: twoFactorMessages.tooManyAttempts,
  ACCOUNT_TEMPORARILY_LOCKED: twoFactorMessages.locked,
  TOTP_ALREADY_ENABLED: twoFactorMessages.alreadyEnabled,
  TWO_FACTOR_NOT_ENABLED: twoFactorMessages.notEnabled,
};

/** better-auth's error answer in the API's `{ code, message, fields? }` shape, 5xx details hidden. */
async function toApiError(response: Response): Promise<ApiErrorBody> {
  if (response.status >= 500) return { code: 'INTERNAL', message: errorMessages.INTERNAL };
  const body = (await response.json().catch(() => ({}))) as Partial<ApiErrorBody>;
  // A locked second factor is a 429 of its own; every other 429 is the request limit.
  if (response.status === 429 && body.code !== 'ACCOUNT_TEMPORARILY_LOCKED')
    return { code: 'RATE_LIMITED', message: errorMessages.RATE_LIMITED };
  const code = body.code ?? (response.status === 404 ? 'NOT_FOUND' : 'BAD_REQUEST');
  return { code, message: betterAuthMessages[code] ?? body.message ?? errorMessages.NOT_FOUND, fields: body.fields };
}

/** The address a password sign-in is for, when this request is one. */
function signInEmailOf(request: FastifyRequest) {
  if (request.method !== 'POST' || request.url.split('?')[0] !== '/api/auth/sign-in/email') return undefined;
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email : undefined;
}

/**
 * Session tokens live only in the http-only cookie: no answer hands one to the page's scripts (better-auth names them
 * in sign-in, get-session, list-sessions and change-password answers).
 */
function withoutSessionTokens(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSessionTokens);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'token')
      .map(([key, inner]) => [key, withoutSessionTokens(inner)]),
  );
}

/** Hands /api/auth/* to better-auth, translating between Fastify and the Fetch API it speaks. */
export async function authRoutes(
  app: FastifyInstance,
  { auth, db, secret, secureCookies }: { auth: Auth; db: Database; secret: string; secureCookies: boolean },
) {
  app.route({
    method: ['GET', 'POST'],
    url: '/api/auth/*',
    schema: { hide: true },
    async handler(request, reply) {
      const signInEmail = signInEmailOf(request);
      const deviceCookie = parseCookies(request.headers.cookie ?? '').get(KNOWN_DEVICE_COOKIE);
      const attempt =
        signInEmail === undefined
          ? undefined
          : { email: signInEmail, device: knownDeviceOf({ cookie: deviceCookie, email: signInEmail, secret }) };
      if (attempt) await assertPasswordSignInAllowed(db, attempt);
      const headers = toHeaders(request.headers);
      // better-auth keys its rate limits by client address.
      headers.set('x-forwarded-for', request.ip);
      const response = await auth.handler(
        new Request(new URL(request.url, auth.options.baseURL), {
          method: request.method,
          headers,
          body: request.method === 'GET' || request.body === undefined ? undefined : JSON.stringify(request.body),
        }),
      );
      const cookies = response.headers.getSetCookie();
      if (attempt) {
        if (response.status === 401) await recordFailedSignIn(db, attempt);
        else if (response.ok) {
          await clearFailedSignIns(db, attempt.email);
          const remembered = rememberDevice({
            cookie: deviceCookie,
            email: attempt.email,
            secret,
            secure: secureCookies,
          });
          if (remembered) cookies.push(remembered);
        }
      }
      reply.status(response.status);
      response.headers.forEach((value, key) => {
        // Fastify measures the body it sends, which differs from better-auth's for errors.
        if (key !== 'set-cookie' && key !== 'content-length') reply.header(key, value);
      });
      if (cookies.length > 0) reply.header('set-cookie', cookies);
      if (response.status >= 400) {
        const error = await toApiError(response);
        if (response.status >= 500)
          request.log.error({ status: response.status, path: request.url.split('?')[0] }, 'better-auth failed');
        return reply.type('application/json; charset=utf-8').send(error);
      }
      if (!response.body) return reply.send(null);
      if (!response.headers.get('content-type')?.startsWith('application/json'))
        return reply.send(await response.text());
      return reply.send(JSON.stringify(withoutSessionTokens(await response.json())));
    },
  });
}

/** The registration form as multipart/form-data (or JSON without an avatar). */
const registerBodySchema = registerSchema.extend({
  acceptTerms: z.preprocess(fromCheckbox, registerSchema.shape.acceptTerms),
  acceptPrivacy: z.preprocess(fromCheckbox, registerSchema.shape.acceptPrivacy),
  confirmAge: z.preprocess(fromCheckbox, registerSchema.shape.confirmAge),
  specializations: z.preprocess(fromList, registerSchema.shape.specializations),
  avatar: withAvatarRules(uploadSchema).optional(),
});

export const accountsRoutes: FastifyPluginAsyncZod<{
  db: Database;
  auth: Auth;
  config: Config;
  storage: Storage;
}> = async (app, { db, auth, config, storage }) => {
  app.get(
    '/api/accounts/availability',
    {
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: {
        security: [],
        summary: 'Whether a username or an e-mail address is still free (ask about one at a time)',
        tags: ['accounts'],
        querystring: availabilityQuerySchema,
        response: { 200: availabilitySchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const { username, email } = request.query;
      return username !== undefined
        ? checkUsernameAvailability({ db, username })
        : checkEmailAvailability({ db, email: email ?? '' });
    },
  );

  app.post(
    '/api/accounts/register',
    {
      config: {
        rateLimit: { max: 10, timeWindow: '10 minutes' },
        multipartOptions: uploadLimits({ maxBytes: AVATAR.maxBytes }),
      },
      schema: {
        security: [],
        summary: 'Create a student or teacher account; a confirmation mail follows when confirmation is required',
        tags: ['accounts'],
        consumes: ['multipart/form-data', 'application/json'],
        body: registerBodySchema,
        response: { 201: registerResponseSchema },
      },
    },
    async (request, reply) => {
      const { avatar, ...input } = request.body;
      return reply.status(201).send(await registerAccount({ db, auth, config, storage, input, avatar }));
    },
  );
};
