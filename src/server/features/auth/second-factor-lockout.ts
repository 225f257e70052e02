import { APIError } from 'better-auth/api';
import { TWO_FACTOR_ERROR_CODES } from 'better-auth/plugins';
import { and, eq, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { twoFactors } from '../../db/schema/auth.ts';

/**
 * The second factor's lock (README): this many wrong codes in a row lock the account's second factor for this long.
 * The plugin counts the codes of a sign-in; the same columns count those sent with a session, so one budget holds
 * whatever the route.
 */
export const SECOND_FACTOR_LOCKOUT = { maxWrongCodes: 10, durationSeconds: 15 * 60 } as const;

/** Refuses with sign-in's answer while the account's second factor is locked; an expired lock is cleared, as the plugin does. */
export async function refuseWhileSecondFactorLocked(db: Executor, userId: string) {
  const [factor] = await db
    .select({ lockedUntil: twoFactors.lockedUntil })
    .from(twoFactors)
    .where(eq(twoFactors.userId, userId));
  if (!factor?.lockedUntil) return;
  if (factor.lockedUntil.getTime() > Date.now()) {
    throw APIError.from('TOO_MANY_REQUESTS', TWO_FACTOR_ERROR_CODES.ACCOUNT_TEMPORARILY_LOCKED);
  }
  await db
    .update(twoFactors)
    .set({ failedVerificationCount: 0, lockedUntil: null })
    .where(and(eq(twoFactors.userId, userId), lte(twoFactors.lockedUntil, new Date())));
}

/** Counts one wrong code in the one statement that locks the second factor when it is the last one allowed. */
export async function countWrongSecondFactorCode(db: Executor, userId: string) {
  const lockedUntil = new Date(Date.now() + SECOND_FACTOR_LOCKOUT.durationSeconds * 1000);
  await db
    .update(twoFactors)
    .set({
      failedVerificationCount: sql`${twoFactors.failedVerificationCount} + 1`,
      lockedUntil: sql`case when ${twoFactors.failedVerificationCount} + 1 >= ${SECOND_FACTOR_LOCKOUT.maxWrongCodes}
        then ${lockedUntil.toISOString()}::timestamptz else ${twoFactors.lockedUntil} end`,
    })
    .where(eq(twoFactors.userId, userId));
}

/** A right code ends the run of wrong ones. */
export async function clearWrongSecondFactorCodes(db: Executor, userId: string) {
  await db
    .update(twoFactors)
    .set({ failedVerificationCount: 0, lockedUntil: null })
    .where(eq(twoFactors.userId, userId));
}
