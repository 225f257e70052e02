import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { PASSWORD_MIN } from '#shared/constants.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { accounts, rateLimits, sessions, users, verifications } from '../../db/schema/auth.ts';

export type AuthOptions = { config: Config; db: Database; secret: string };

export function createAuth({ config, db, secret }: AuthOptions) {
  return betterAuth({
    appName: 'Virtual Help',
    baseURL: config.publicUrl,
    basePath: '/api/auth',
    secret,
    trustedOrigins: [config.publicUrl],
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: { user: users, session: sessions, account: accounts, verification: verifications, rateLimit: rateLimits },
    }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN,
      requireEmailVerification: config.auth.requireEmailConfirmation,
    },
    user: {
      additionalFields: {
        username: { type: 'string', required: true, input: true },
        // Never taken from a request body: the role is chosen once, at sign-up, through our own endpoint.
        role: { type: 'string', required: false, input: false, defaultValue: 'student' },
        vhNumber: { type: 'number', required: false, input: false },
        fullName: { type: 'string', required: false, input: false },
      },
    },
    session: { expiresIn: 60 * 60 * 24 * 30, updateAge: 60 * 60 * 24 },
    advanced: {
      database: { generateId: 'uuid' },
      cookiePrefix: 'vh',
      useSecureCookies: config.publicUrl.startsWith('https://'),
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
    },
    // Stored in the database so the limits hold across server nodes, and on in every environment.
    rateLimit: { enabled: true, storage: 'database', window: 60, max: 100 },
    telemetry: { enabled: false },
  });
}

export type Auth = ReturnType<typeof createAuth>;
