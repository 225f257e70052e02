import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { usageCounters } from '../../db/schema/limits.ts';
import { AppError } from '../../http/errors.ts';
import { countUse, forgetUses, usesInWindow } from '../../platform/limits/usage-limits.ts';

/**
 * Per-account guard against password guessing, on top of the per-address limit (which a botnet spreads thin):
 * 10 failed sign-ins within 15 minutes pause that account's password sign-in for 15 minutes. The reset mail
 * still works, and a reset lifts the pause.
 */
const SIGN_IN_LOCKOUT = { maxFailures: 10, windowMs: 15 * 60 * 1000 } as const;

const keyFor = (email: string) => `sign-in-failures:${email.trim().toLowerCase()}`;

/** Refuses a password sign-in to an account that is paused. */
export async function assertPasswordSignInAllowed(db: Executor, email: string) {
  if ((await usesInWindow(db, keyFor(email), SIGN_IN_LOCKOUT.windowMs)) >= SIGN_IN_LOCKOUT.maxFailures) {
    throw new AppError('ACCOUNT_LOCKED');
  }
}

/** Counts a failed password sign-in; the failure that reaches the limit starts a full pause. */
export async function recordFailedSignIn(db: Executor, email: string) {
  const key = keyFor(email);
  const { hits } = await countUse(db, key, SIGN_IN_LOCKOUT.windowMs);
  if (hits === SIGN_IN_LOCKOUT.maxFailures) {
    await db
      .update(usageCounters)
      .set({ windowStartedAt: sql`now()` })
      .where(eq(usageCounters.key, key));
  }
}

/** After a successful sign-in or a password reset the account starts afresh. */
export const clearFailedSignIns = (db: Executor, email: string) => forgetUses(db, keyFor(email));
