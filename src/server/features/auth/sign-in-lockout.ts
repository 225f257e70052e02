import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq, or, sql } from 'drizzle-orm';
import { accountMessages } from '#shared/schemas/account.ts';
import type { Executor } from '../../db/client.ts';
import { usageCounters } from '../../db/schema/limits.ts';
import { AppError } from '../../http/errors.ts';
import { countUse, usesInWindow } from '../../platform/limits/usage-limits.ts';

/**
 * Per-account guard against password guessing, on top of the per-address limit (which a botnet spreads thin):
 * 10 failed sign-ins within 15 minutes pause password sign-in to that account for 15 minutes. The pause holds for
 * every device that has never signed in to the account; a device that has (it holds a signed "known device" cookie
 * for the account) has a budget of its own, so guessing from elsewhere cannot keep the owner out
 * (docs/decisions/0022). The reset mail still works, and a reset lifts every pause.
 */
const SIGN_IN_LOCKOUT = { maxFailures: 10, windowMs: 15 * 60 * 1000 } as const;

export const KNOWN_DEVICE_COOKIE = 'vh.known_device';
/** The accounts one browser is remembered for (newest first); older ones fall back to the shared budget. */
const KNOWN_DEVICE_ENTRIES = 5;
const KNOWN_DEVICE_MAX_AGE_SECONDS = 400 * 24 * 60 * 60;
const NONCE_HEX = 32;
const SIGNATURE_HEX = 32;

const normalized = (email: string) => email.trim().toLowerCase();
const accountKey = (email: string) => `sign-in-failures:${normalized(email)}`;
// Addresses hold no spaces, so no other account's key starts like this.
const deviceKey = (email: string, device: string) => `${accountKey(email)} device:${device}`;

const signatureOf = (secret: string, email: string, device: string) =>
  createHmac('sha256', secret)
    .update(`known-device:${normalized(email)}:${device}`)
    .digest('hex')
    .slice(0, SIGNATURE_HEX);

/** The cookie's entries: each a random device id and its signature for one account, both hex. */
const entriesOf = (cookie: string | undefined) =>
  (cookie ?? '')
    .split('.')
    .filter((entry) => /^[0-9a-f]+$/.test(entry) && entry.length === NONCE_HEX + SIGNATURE_HEX)
    .slice(0, KNOWN_DEVICE_ENTRIES);

/**
 * The device id under which this browser once signed in to the account, from its known-device cookie; undefined for
 * a device new to the account (or a cookie someone made up: each entry is signed for one address).
 */
export function knownDeviceOf({
  cookie,
  email,
  secret,
}: {
  cookie: string | undefined;
  email: string;
  secret: string;
}) {
  for (const entry of entriesOf(cookie)) {
    const device = entry.slice(0, NONCE_HEX);
    const expected = Buffer.from(signatureOf(secret, email, device));
    if (timingSafeEqual(Buffer.from(entry.slice(NONCE_HEX)), expected)) return device;
  }
  return undefined;
}

/**
 * The Set-Cookie value that remembers this browser for the account after a sign-in with the right password, keeping
 * the accounts it already knew; undefined when it already knew this one.
 */
export function rememberDevice({
  cookie,
  email,
  secret,
  secure,
}: {
  cookie: string | undefined;
  email: string;
  secret: string;
  secure: boolean;
}) {
  if (knownDeviceOf({ cookie, email, secret })) return undefined;
  const device = randomBytes(NONCE_HEX / 2).toString('hex');
  const entries = [`${device}${signatureOf(secret, email, device)}`, ...entriesOf(cookie)].slice(
    0,
    KNOWN_DEVICE_ENTRIES,
  );
  return [
    `${KNOWN_DEVICE_COOKIE}=${entries.join('.')}`,
    `Max-Age=${KNOWN_DEVICE_MAX_AGE_SECONDS}`,
    'Path=/api/auth',
    'HttpOnly',
    'SameSite=Lax',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

type Attempt = { email: string; device: string | undefined };

const keyOf = ({ email, device }: Attempt) => (device ? deviceKey(email, device) : accountKey(email));

/** Refuses (ACCOUNT_LOCKED, with `message` if given) once the failures counted under `key` reach the limit. */
async function assertFailuresBelowLimit(db: Executor, key: string, message?: string) {
  if ((await usesInWindow(db, key, SIGN_IN_LOCKOUT.windowMs)) >= SIGN_IN_LOCKOUT.maxFailures) {
    throw new AppError('ACCOUNT_LOCKED', message === undefined ? {} : { message });
  }
}

/** Counts a failure under `key`; the failure that reaches the limit starts a full pause. */
async function countFailure(db: Executor, key: string) {
  const { hits } = await countUse(db, key, SIGN_IN_LOCKOUT.windowMs);
  if (hits === SIGN_IN_LOCKOUT.maxFailures) {
    await db
      .update(usageCounters)
      .set({ windowStartedAt: sql`now()` })
      .where(eq(usageCounters.key, key));
  }
}

/** Refuses a password sign-in whose budget (the device's own, or the account's for new devices) is spent. */
export const assertPasswordSignInAllowed = (db: Executor, attempt: Attempt) =>
  assertFailuresBelowLimit(db, keyOf(attempt));

/** Counts a failed password sign-in. */
export const recordFailedSignIn = (db: Executor, attempt: Attempt) => countFailure(db, keyOf(attempt));

/**
 * The wrong passwords a signed-in user gives where a route asks for theirs again (changing the address, deleting
 * the account): a budget per user, as for sign-ins, so that a session left open cannot be used to guess it.
 */
const passwordCheckKey = (userId: string) => `password-check-failures:${userId}`;

export const assertPasswordCheckAllowed = (db: Executor, userId: string) =>
  assertFailuresBelowLimit(db, passwordCheckKey(userId), accountMessages.tooManyWrongPasswords);

export const recordFailedPasswordCheck = (db: Executor, userId: string) => countFailure(db, passwordCheckKey(userId));

/** After a successful sign-in or a password reset the account starts afresh, on every device. */
export async function clearFailedSignIns(db: Executor, email: string) {
  const key = accountKey(email);
  await db
    .delete(usageCounters)
    .where(or(eq(usageCounters.key, key), sql`starts_with(${usageCounters.key}, ${`${key} device:`})`));
}
