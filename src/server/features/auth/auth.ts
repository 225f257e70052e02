import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { APIError, createAuthMiddleware, getSessionFromCtx, isAPIError } from 'better-auth/api';
import { getSessionCookie } from 'better-auth/cookies';
import { TWO_FACTOR_ERROR_CODES, twoFactor } from 'better-auth/plugins';
import { and, eq, isNotNull } from 'drizzle-orm';
import { z } from 'zod';
import { PASSWORD_MIN, RESET_LINK_VALIDITY_MINUTES } from '#shared/constants.ts';
import { errorMessages } from '#shared/errors.ts';
import { changePasswordSchema } from '#shared/schemas/account.ts';
import { forgotPasswordSchema, loginSchema, strongPasswordSchema } from '#shared/schemas/auth.ts';
import {
  backupCodeSchema,
  disableTwoFactorSchema,
  enableTwoFactorSchema,
  generateBackupCodesSchema,
  totpCodeSchema,
} from '#shared/schemas/two-factor.ts';
import { TOTP_DIGITS, twoFactorMessages } from '#shared/two-factor.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { accounts, rateLimits, sessions, twoFactors, users, verifications } from '../../db/schema/auth.ts';
import { validationFailure } from '../../http/errors.ts';
import { toSessionUser, type SessionResolver } from '../../http/session.ts';
import {
  SECOND_FACTOR_LOCKOUT,
  clearWrongSecondFactorCodes,
  countWrongSecondFactorCode,
  refuseWhileSecondFactorLocked,
} from './second-factor-lockout.ts';
import { clearFailedSignIns } from './sign-in-lockout.ts';
import { TOTP_PERIOD_SECONDS, takeTotpCode } from './totp-once.ts';
import { EMAIL_CONFIRMATION_VALIDITY_HOURS, sendConfirmationMail, sendResetPasswordMail } from './mails.ts';

const COOKIE_PREFIX = 'vh';
/** The two-factor plugin's cookie naming the sign-in that waits for its code (the plugin does not export the name). */
const SECOND_FACTOR_CHALLENGE_COOKIE = 'two_factor';
/** better-auth's name for the session cookie under our prefix (over HTTPS it carries the `__Secure-` prefix too). */
export const SESSION_COOKIE_NAME = `${COOKIE_PREFIX}.session_token`;

type AuthOptions = {
  config: Config;
  db: Database;
  secret: string;
  /** Told of every session that ends (sign-out, password reset, revocation), to close its sockets. */
  onSessionEnded?: (sessionId: string) => void;
  secondFactor: SecondFactorRules;
};

/** A change an admin makes to their own second factor, recorded in the audit log. */
export type SecondFactorChange = 'two_factor.disable' | 'two_factor.backup_codes';

/** What the admin panel decides about second factors: auth knows no roles and writes no audit log. */
export type SecondFactorRules = {
  /** Whether this user may have a second factor (admins: the sign-in forms of everyone else have no code prompt). */
  mayUse: (userId: string) => Promise<boolean>;
  /** Whether this user must keep it once it is on (the super-admin). */
  mustKeep: (userId: string) => Promise<boolean>;
  record: (change: { userId: string; action: SecondFactorChange }) => Promise<void>;
};

/** The plugin's endpoints that change a second factor, and the audit action of those an admin makes once it is on. */
const SECOND_FACTOR_CHANGES: Record<string, SecondFactorChange | null> = {
  '/two-factor/enable': null,
  '/two-factor/disable': 'two_factor.disable',
  '/two-factor/generate-backup-codes': 'two_factor.backup_codes',
};

// better-auth takes these bodies loosely; they are checked first with the SPEC rules and messages.
const bodyRules: Record<string, z.ZodType> = {
  '/sign-in/email': loginSchema,
  '/request-password-reset': forgotPasswordSchema,
  '/send-verification-email': forgotPasswordSchema,
  '/reset-password': z.object({ newPassword: strongPasswordSchema }),
  '/change-password': changePasswordSchema,
  '/two-factor/enable': enableTwoFactorSchema,
  '/two-factor/disable': disableTwoFactorSchema,
  '/two-factor/generate-backup-codes': generateBackupCodesSchema,
  '/two-factor/verify-totp': totpCodeSchema,
  '/two-factor/verify-backup-code': backupCodeSchema,
};

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/** Refuses a body that breaks its rule with our `{ code, message, fields }` answer. */
async function checkBody(ctx: HookContext) {
  const rule = bodyRules[ctx.path];
  if (!rule) return;
  const result = rule.safeParse(ctx.body ?? {});
  if (result.success) return;
  throw new APIError('BAD_REQUEST', validationFailure(result.error.issues));
}

/** Whether this address or id belongs to a system account (Guru AI), which nobody may sign in as. */
async function isSystemAccount(db: Database, where: { email: string } | { id: string }) {
  const condition = 'email' in where ? eq(users.email, where.email.trim().toLowerCase()) : eq(users.id, where.id);
  return (await db.$count(users, and(condition, eq(users.isSystem, true)))) > 0;
}

async function isSuspended(db: Database, userId: string) {
  return (await db.$count(users, and(eq(users.id, userId), isNotNull(users.suspendedAt)))) > 0;
}

/** Whether the account is locked for deletion (or erased): signing in then offers "Restore my account". */
async function isLockedForDeletion(db: Database, userId: string) {
  return (await db.$count(users, and(eq(users.id, userId), isNotNull(users.deletionRequestedAt)))) > 0;
}

export function createAuth({ config, db, secret, onSessionEnded, secondFactor }: AuthOptions) {
  /**
   * Takes an authenticator code under the second factor's lock, which every route that takes a code shares. The plugin
   * counts the wrong codes of a sign-in itself (`signingIn`); every other refused code is counted here: a wrong one
   * sent with a session, which the plugin lets through uncounted, and a used one anywhere.
   */
  const takeCodeUnderLock = async (ctx: HookContext, { userId, signingIn }: { userId: string; signingIn: boolean }) => {
    await refuseWhileSecondFactorLocked(db, userId);
    const { code } = ctx.body as { code: string };
    const use = await takeTotpCode({ db, key: ctx.context.secretConfig, userId, code });
    if (use === 'taken') await clearWrongSecondFactorCodes(db, userId);
    if (use === 'used' || (use === 'wrong' && !signingIn)) await countWrongSecondFactorCode(db, userId);
    return use;
  };

  // Answered exactly like a wrong password, so the address of a system account is not confirmed either.
  const refuseSystemSignIn = async (ctx: HookContext) => {
    const email = (ctx.body as { email?: unknown } | undefined)?.email;
    if (ctx.path !== '/sign-in/email' || typeof email !== 'string') return;
    if (await isSystemAccount(db, { email })) {
      throw new APIError('UNAUTHORIZED', { code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' });
    }
  };

  /**
   * Changes to a second factor are for admins, and the super-admin cannot turn theirs off. Turning it off takes a code
   * the app shows now besides the password (the plugin asks only the password), taken once like any other; the
   * password is checked first, so a mistyped one does not spend the code. The changes to audit are remembered
   * between the hooks before and after the request. Without a session the plugin answers 401 itself.
   */
  const changesToAudit = new WeakMap<Request, { userId: string; action: SecondFactorChange }>();
  const guardSecondFactorChange = async (ctx: HookContext) => {
    if (!(ctx.path in SECOND_FACTOR_CHANGES)) return;
    const session = await getSessionFromCtx(ctx);
    if (!session) return;
    const userId = session.user.id;
    if (!(await secondFactor.mayUse(userId))) {
      throw new APIError('FORBIDDEN', { code: 'FORBIDDEN', message: twoFactorMessages.adminsOnly });
    }
    if (ctx.path === '/two-factor/disable') {
      if (await secondFactor.mustKeep(userId)) {
        throw new APIError('FORBIDDEN', { code: 'FORBIDDEN', message: twoFactorMessages.superAdminKeepsIt });
      }
      await ctx.context.password.checkPassword(userId, ctx);
      const use = await takeCodeUnderLock(ctx, { userId, signingIn: false });
      if (use === 'none') throw APIError.from('BAD_REQUEST', TWO_FACTOR_ERROR_CODES.TWO_FACTOR_NOT_ENABLED);
      if (use !== 'taken') throw APIError.from('UNAUTHORIZED', TWO_FACTOR_ERROR_CODES.INVALID_CODE);
    }
    const action = SECOND_FACTOR_CHANGES[ctx.path];
    if (action && ctx.request) changesToAudit.set(ctx.request, { userId, action });
  };
  // After the plugin's writes, which it makes outside any transaction of ours: the record follows a change that
  // succeeded, and a change that failed leaves none.
  const auditSecondFactorChange = async (ctx: HookContext) => {
    const change = ctx.request && changesToAudit.get(ctx.request);
    if (change && !isAPIError(ctx.context.returned)) await secondFactor.record(change);
  };

  /**
   * Enrolment ends every other session of the account: they were opened with the password alone, and a super-admin's
   * would otherwise gain the panel the moment the second factor is on. A code confirmed with a session is an
   * enrolment (at sign-in there is none yet); the request is remembered between the hooks before and after it.
   */
  const enrolments = new WeakMap<Request, true>();
  const noteEnrolment = async (ctx: HookContext) => {
    if (ctx.path === '/two-factor/verify-totp' && ctx.request && (await getSessionFromCtx(ctx)))
      enrolments.set(ctx.request, true);
  };
  /** The user an authenticator code is for: the signed-in one (enrolment), or the one whose sign-in waits for it. */
  const userOfCode = async (ctx: HookContext) => {
    const session = await getSessionFromCtx(ctx);
    if (session) return { userId: session.user.id, signingIn: false };
    const challengeCookie = ctx.context.createAuthCookie(SECOND_FACTOR_CHALLENGE_COOKIE).name;
    const challenge = await ctx.getSignedCookie(challengeCookie, ctx.context.secret);
    if (!challenge) return null;
    const userId = (await ctx.context.internalAdapter.findVerificationValue(challenge))?.value;
    return userId ? { userId, signingIn: true } : null;
  };

  /**
   * A code is accepted once (the plugin keeps no record of used ones): a code already accepted, or an older one, gets
   * the plugin's own wrong-code answer. A wrong code, or a request without a user, goes on to the plugin, which
   * answers it (counting a sign-in's failure) or answers that the sign-in expired.
   */
  const refuseUsedCode = async (ctx: HookContext) => {
    if (ctx.path !== '/two-factor/verify-totp') return;
    const user = await userOfCode(ctx);
    if (!user) return;
    if ((await takeCodeUnderLock(ctx, user)) === 'used') {
      throw APIError.from('UNAUTHORIZED', TWO_FACTOR_ERROR_CODES.INVALID_CODE);
    }
  };

  /**
   * The plugin neither checks the lock nor counts a backup code sent with a session (only at sign-in), so both are done
   * around it, a right code ending the run of wrong ones; the account is remembered between the hooks before and after
   * the request.
   */
  const backupCodesWithSession = new WeakMap<Request, string>();
  const lockBackupCodeWithSession = async (ctx: HookContext) => {
    if (ctx.path !== '/two-factor/verify-backup-code' || !ctx.request) return;
    const session = await getSessionFromCtx(ctx);
    if (!session) return;
    await refuseWhileSecondFactorLocked(db, session.user.id);
    backupCodesWithSession.set(ctx.request, session.user.id);
  };
  const countBackupCodeWithSession = async (ctx: HookContext) => {
    const userId = ctx.request && backupCodesWithSession.get(ctx.request);
    if (!userId) return;
    const answer = ctx.context.returned;
    if (!isAPIError(answer)) await clearWrongSecondFactorCodes(db, userId);
    else if (answer.body?.code === TWO_FACTOR_ERROR_CODES.INVALID_BACKUP_CODE.code) {
      await countWrongSecondFactorCode(db, userId);
    }
  };

  const endSessionsOpenedBeforeEnrolment = async (ctx: HookContext) => {
    const enrolled = ctx.context.newSession;
    if (!ctx.request || !enrolments.has(ctx.request) || !enrolled) return;
    const others = (await ctx.context.internalAdapter.listSessions(enrolled.user.id))
      .map((session) => session.token)
      .filter((token) => token !== enrolled.session.token);
    if (others.length > 0) await ctx.context.internalAdapter.deleteSessions(others);
  };

  return betterAuth({
    appName: 'Virtual Help',
    baseURL: config.publicUrl,
    basePath: '/api/auth',
    secret,
    trustedOrigins: [config.publicUrl],
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: {
        user: users,
        session: sessions,
        account: accounts,
        verification: verifications,
        rateLimit: rateLimits,
        twoFactor: twoFactors,
      },
    }),
    // Admins' second factor (decision 0034): an authenticator app's code, or a backup code once each.
    plugins: [
      twoFactor({
        issuer: 'Virtual Help',
        totpOptions: { digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS },
        accountLockout: {
          maxFailedAttempts: SECOND_FACTOR_LOCKOUT.maxWrongCodes,
          durationSeconds: SECOND_FACTOR_LOCKOUT.durationSeconds,
        },
      }),
    ],
    // Accounts are created and edited only through /api/accounts and /api/profile, which own the
    // username, role, VH number and avatar rules.
    disabledPaths: ['/sign-up/email', '/update-user'],
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN,
      requireEmailVerification: config.auth.requireEmailConfirmation,
      resetPasswordTokenExpiresIn: RESET_LINK_VALIDITY_MINUTES * 60,
      revokeSessionsOnPasswordReset: true,
      onPasswordReset: async ({ user }) => {
        await clearFailedSignIns(db, user.email);
      },
      sendResetPassword: async ({ user, token }) => {
        // A system account gets no password: the same answer as for any address, and no mail.
        if (await isSystemAccount(db, { id: user.id })) return;
        await sendResetPasswordMail({ db, config, email: user.email, token });
      },
    },
    emailVerification: {
      // Our registration sends the first mail; a sign-in before confirming sends a fresh one.
      sendOnSignUp: false,
      sendOnSignIn: true,
      expiresIn: EMAIL_CONFIRMATION_VALIDITY_HOURS * 60 * 60,
      sendVerificationEmail: async ({ user, token }) => {
        await sendConfirmationMail({ db, config, email: user.email, token });
      },
    },
    // Reset tokens are stored hashed: a leaked database row cannot be turned into a working link.
    verification: { storeIdentifier: 'hashed' },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        await checkBody(ctx);
        await refuseSystemSignIn(ctx);
        await guardSecondFactorChange(ctx);
        await noteEnrolment(ctx);
        await refuseUsedCode(ctx);
        await lockBackupCodeWithSession(ctx);
        // Whoever changes the password ends every other session: one a thief holds included.
        if (ctx.path === '/change-password') {
          return { context: { body: { ...(ctx.body as object), revokeOtherSessions: true } } };
        }
      }),
      after: createAuthMiddleware(async (ctx) => {
        await endSessionsOpenedBeforeEnrolment(ctx);
        await auditSecondFactorChange(ctx);
        await countBackupCodeWithSession(ctx);
      }),
    },
    databaseHooks: {
      session: {
        // A suspended user gets no session (checked after the password, so a wrong one still reads as wrong).
        create: {
          before: async (session) => {
            if (await isSuspended(db, session.userId)) {
              throw new APIError('FORBIDDEN', { code: 'ACCOUNT_SUSPENDED', message: errorMessages.ACCOUNT_SUSPENDED });
            }
            if (await isLockedForDeletion(db, session.userId)) {
              throw new APIError('FORBIDDEN', {
                code: 'ACCOUNT_DELETION_PENDING',
                message: errorMessages.ACCOUNT_DELETION_PENDING,
              });
            }
          },
        },
        delete: {
          after: async (session) => {
            onSessionEnded?.(session.id);
          },
        },
      },
    },
    user: {
      additionalFields: {
        username: { type: 'string', required: true, input: false },
        // Never taken from a request body: the role is chosen once, at sign-up, through our own endpoint.
        role: { type: 'string', required: false, input: false, defaultValue: 'student' },
        vhNumber: { type: 'number', required: false, input: false },
        fullName: { type: 'string', required: false, input: false },
        // Read with every session, so a session that slipped past a suspension still signs nobody in.
        suspendedAt: { type: 'date', required: false, input: false },
        // Likewise for an account locked for deletion.
        deletionRequestedAt: { type: 'date', required: false, input: false },
      },
    },
    session: { expiresIn: 60 * 60 * 24 * 30, updateAge: 60 * 60 * 24 },
    advanced: {
      database: { generateId: 'uuid' },
      cookiePrefix: COOKIE_PREFIX,
      useSecureCookies: config.publicUrl.startsWith('https://'),
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
    },
    // Stored in the database so the limits hold across server nodes, and on in every environment.
    rateLimit: {
      enabled: true,
      storage: 'database',
      window: 60,
      max: 100,
      customRules: {
        '/sign-in/email': { window: 60, max: 5 },
        '/request-password-reset': { window: 60, max: 3 },
        '/send-verification-email': { window: 60, max: 3 },
        '/reset-password': { window: 60, max: 5 },
        // Read on every page load; limiting it would sign people out behind a shared school network.
        '/get-session': false,
      },
    },
    logger: { disabled: config.logLevel === 'silent' },
    telemetry: { enabled: false },
  });
}

export type Auth = ReturnType<typeof createAuth>;

/** The one way the rest of the server finds a request's session (HTTP and sockets), without knowing better-auth. */
export function sessionResolverFor(auth: Auth): SessionResolver {
  return async (headers) => {
    const result = await auth.api.getSession({ headers });
    const user = result?.user as { suspendedAt?: Date | null; deletionRequestedAt?: Date | null } | undefined;
    if (!result || user?.suspendedAt || user?.deletionRequestedAt) return null;
    return { user: toSessionUser(result.user), sessionId: result.session.id };
  };
}

/** The signed session cookie of a request (whichever of the plain or `__Secure-` names it has), or null. */
export const sessionCookieOf = (headers: Headers) => getSessionCookie(headers, { cookiePrefix: COOKIE_PREFIX });
