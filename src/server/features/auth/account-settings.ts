import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { verifyPassword } from 'better-auth/crypto';
import { and, desc, eq, gt, ne } from 'drizzle-orm';
import { errorMessages } from '#shared/errors.ts';
import { paths } from '#shared/paths.ts';
import { describeUserAgent } from '#shared/rules/user-agent.ts';
import {
  accountMessages,
  type ChangeEmailInput,
  type DeviceList,
  type EmailChangeOutcome,
} from '#shared/schemas/account.ts';
import { twoFactorMessages } from '#shared/two-factor.ts';
import type { Database, Executor } from '../../db/client.ts';
import { accounts, sessions, users, verifications } from '../../db/schema/auth.ts';
import { AppError, fieldError } from '../../http/errors.ts';
import { enqueueMail } from '../../platform/mail/outbox.ts';
import { confirmEmailChangeMail, emailChangeNoticeMail } from '../../platform/mail/templates.ts';
import { assertPasswordCheckAllowed, recordFailedPasswordCheck } from './sign-in-lockout.ts';

export const EMAIL_CHANGE_VALIDITY_HOURS = 24;
const EMAIL_CHANGE_PREFIX = 'email-change:';
/** The verification row of the user's pending e-mail change. */
export const emailChangeIdentifier = (userId: string) => `${EMAIL_CHANGE_PREFIX}${userId}`;
// Per-account abuse limit on the mails a change sends, like the confirmation and reset mails'.
const MAIL_LIMIT = { max: 3, windowMs: 15 * 60 * 1000 };

const hashOf = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** The user's live sessions, this one first, each described by its user agent and named by its id. */
export async function listDevices({
  db,
  userId,
  currentSessionId,
}: {
  db: Database;
  userId: string;
  currentSessionId: string;
}): Promise<DeviceList> {
  const rows = await db
    .select({
      id: sessions.id,
      userAgent: sessions.userAgent,
      createdAt: sessions.createdAt,
      updatedAt: sessions.updatedAt,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, new Date())))
    .orderBy(desc(sessions.updatedAt), desc(sessions.id));
  // This device first, then the others by their last activity.
  rows.sort((a, b) => Number(b.id === currentSessionId) - Number(a.id === currentSessionId));
  return {
    devices: rows.map((row) => ({
      id: row.id,
      ...describeUserAgent(row.userAgent),
      createdAt: row.createdAt.toISOString(),
      lastSeenAt: row.updatedAt.toISOString(),
      isCurrent: row.id === currentSessionId,
    })),
  };
}

/** Ends one of the user's sessions by its id (another user's, or an unknown one: 404); returns the ended id. */
export async function endDevice({ db, userId, sessionId }: { db: Database; userId: string; sessionId: string }) {
  const [ended] = await db
    .delete(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)))
    .returning({ id: sessions.id });
  if (!ended) throw new AppError('NOT_FOUND');
  return ended.id;
}

/** Ends every session of the user but the current one; returns the ended ids. */
export async function endOtherDevices({
  db,
  userId,
  currentSessionId,
}: {
  db: Database;
  userId: string;
  currentSessionId: string;
}) {
  const ended = await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), ne(sessions.id, currentSessionId)))
    .returning({ id: sessions.id });
  return ended.map((session) => session.id);
}

/** `ada@example.com` as `a••@example.com`: enough for the owner to recognise, not enough to hand to a stranger. */
export function maskEmail(email: string) {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}••@${domain}`;
}

/**
 * Throws the password field's error unless `password` is the user's; once the user's wrong passwords reach the
 * sign-in limit, ACCOUNT_LOCKED before any is checked.
 */
export async function assertPassword(db: Executor, userId: string, password: string) {
  await assertPasswordCheckAllowed(db, userId);
  const [account] = await db
    .select({ password: accounts.password })
    .from(accounts)
    .where(and(eq(accounts.userId, userId), eq(accounts.providerId, 'credential')));
  const isRight = account?.password ? await verifyPassword({ hash: account.password, password }) : false;
  if (!isRight) {
    await recordFailedPasswordCheck(db, userId);
    throw fieldError('password', twoFactorMessages.wrongPassword);
  }
}

/**
 * Starts an e-mail change: the new address gets a link that makes the change, the current one a notice without it.
 * One change waits at a time: asking again replaces the earlier link. Sessions are kept.
 */
export async function requestEmailChange({
  db,
  publicUrl,
  userId,
  input,
}: {
  db: Database;
  publicUrl: string;
  userId: string;
  input: ChangeEmailInput;
}) {
  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  if (!user) throw new AppError('NOT_FOUND');
  await assertPassword(db, userId, input.password);
  if (input.newEmail === user.email) throw fieldError('newEmail', accountMessages.sameEmail);
  if ((await db.$count(users, eq(users.email, input.newEmail))) > 0) {
    throw new AppError('EMAIL_TAKEN', { fields: { newEmail: errorMessages.EMAIL_TAKEN } });
  }

  const secret = randomBytes(32).toString('base64url');
  const token = `${userId}.${secret}`;
  const url = `${publicUrl}/api/account/email/confirm?token=${encodeURIComponent(token)}`;
  await db.transaction(async (tx) => {
    const identifier = `${EMAIL_CHANGE_PREFIX}${userId}`;
    await tx.delete(verifications).where(eq(verifications.identifier, identifier));
    await tx.insert(verifications).values({
      identifier,
      value: JSON.stringify({ secretHash: hashOf(secret), newEmail: input.newEmail }),
      expiresAt: new Date(Date.now() + EMAIL_CHANGE_VALIDITY_HOURS * 60 * 60 * 1000),
    });
    const linkSent = await enqueueMail({
      db: tx,
      to: input.newEmail,
      ...confirmEmailChangeMail({ url, validHours: EMAIL_CHANGE_VALIDITY_HOURS }),
      limitPerRecipient: MAIL_LIMIT,
    });
    const noticeSent = await enqueueMail({
      db: tx,
      to: user.email,
      ...emailChangeNoticeMail({
        maskedNewEmail: maskEmail(input.newEmail),
        url: `${publicUrl}${paths.settings.account.getHref()}`,
      }),
      limitPerRecipient: MAIL_LIMIT,
    });
    // Past either address's limit nothing is kept: the link sent before still works, and no change goes unannounced.
    if (!linkSent || !noticeSent) throw new AppError('RATE_LIMITED');
  });
}

const isUniqueViolation = (error: unknown) => {
  const cause = (error as { cause?: { code?: string } }).cause ?? (error as { code?: string });
  return cause.code === '23505';
};

/**
 * Makes the change a confirmation link names, once: the link is spent whether the change succeeds or the address
 * was taken meanwhile. A wrong, spent or expired link changes nothing.
 */
export async function confirmEmailChange({ db, token }: { db: Database; token: string }): Promise<EmailChangeOutcome> {
  const [userId, secret] = token.split('.');
  if (!userId || !secret || !/^[0-9a-f-]{36}$/.test(userId)) return 'invalid';
  try {
    return await db.transaction(async (tx) => {
      const [pending] = await tx
        .delete(verifications)
        .where(
          and(eq(verifications.identifier, `${EMAIL_CHANGE_PREFIX}${userId}`), gt(verifications.expiresAt, new Date())),
        )
        .returning({ value: verifications.value });
      if (!pending) return 'invalid';
      const { secretHash, newEmail } = JSON.parse(pending.value) as { secretHash: string; newEmail: string };
      const [given, kept] = [Buffer.from(hashOf(secret)), Buffer.from(secretHash)];
      if (given.length !== kept.length || !timingSafeEqual(given, kept)) throw new WrongLink();
      await tx.update(users).set({ email: newEmail, emailVerified: true }).where(eq(users.id, userId));
      return 'changed';
    });
  } catch (error) {
    if (error instanceof WrongLink) return 'invalid';
    if (isUniqueViolation(error)) {
      // The address was taken between the request and the link: the link is spent all the same.
      await db.delete(verifications).where(eq(verifications.identifier, `${EMAIL_CHANGE_PREFIX}${userId}`));
      return 'taken';
    }
    throw error;
  }
}

/** Rolls back the spending of a link whose secret is wrong: the right link keeps working. */
class WrongLink extends Error {}
