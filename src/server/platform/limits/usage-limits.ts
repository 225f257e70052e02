import { eq, sql } from 'drizzle-orm';
import { USER_LIMITS, type UserLimitName } from '#shared/constants.ts';
import type { Executor } from '../../db/client.ts';
import { usageCounters } from '../../db/schema/limits.ts';
import { AppError } from '../../http/errors.ts';
import type { IntervalJob } from '../jobs/interval-jobs.ts';

/** At most `max` uses in a fixed window of `windowMs`. */
type UsageLimit = { max: number; windowMs: number };

/** No limit counts over a longer window, so a counter whose window started longer ago than this is of no use. */
const LONGEST_WINDOW_MS = 24 * 60 * 60_000;

const windowOf = (windowMs: number) => {
  if (windowMs > LONGEST_WINDOW_MS) throw new Error(`a limit's window is at most a day (${windowMs} ms asked)`);
  return sql`make_interval(secs => ${windowMs / 1000})`;
};

/** Deletes the counters whose window is over for any limit, so keys used once do not stay forever. */
export const expiredUsageCountersJob: IntervalJob = {
  name: 'expired-usage-counters',
  intervalMs: 60 * 60_000,
  run: ({ db }) =>
    db.delete(usageCounters).where(sql`${usageCounters.windowStartedAt} <= now() - ${windowOf(LONGEST_WINDOW_MS)}`),
};

/**
 * Counts one use of `key` in one statement (so racing requests, on any server process, each get their own count)
 * and returns the count in the current window and when that window ends. A passed window starts again at 1.
 */
export async function countUse(db: Executor, key: string, windowMs: number) {
  const expired = sql`${usageCounters.windowStartedAt} <= now() - ${windowOf(windowMs)}`;
  const [row] = await db
    .insert(usageCounters)
    .values({ key, hits: 1 })
    .onConflictDoUpdate({
      target: usageCounters.key,
      set: {
        hits: sql`case when ${expired} then 1 else ${usageCounters.hits} + 1 end`,
        windowStartedAt: sql`case when ${expired} then now() else ${usageCounters.windowStartedAt} end`,
      },
    })
    .returning({
      hits: usageCounters.hits,
      resetsAt: sql<Date>`${usageCounters.windowStartedAt} + ${windowOf(windowMs)}`.mapWith(
        usageCounters.windowStartedAt,
      ),
    });
  return row!;
}

/** The uses of `key` in its current window (0 when none or the window has passed), without counting one. */
export async function usesInWindow(db: Executor, key: string, windowMs: number) {
  const [row] = await db
    .select({ hits: usageCounters.hits })
    .from(usageCounters)
    .where(sql`${usageCounters.key} = ${key} and ${usageCounters.windowStartedAt} > now() - ${windowOf(windowMs)}`);
  return row?.hits ?? 0;
}

/** Forgets the uses of `key` (e.g. failed sign-ins after a successful one). */
export async function forgetUses(db: Executor, key: string) {
  await db.delete(usageCounters).where(eq(usageCounters.key, key));
}

/**
 * Counts one use of `key` and refuses it with 429 once the window's uses pass `limit.max`; the answer says in how
 * many seconds the window ends.
 */
export async function enforceLimit(db: Executor, key: string, limit: UsageLimit, message?: string) {
  const { hits, resetsAt } = await countUse(db, key, limit.windowMs);
  if (hits > limit.max) throw rateLimited(resetsAt, message);
}

/** The 429 of a use past its limit, saying in how many seconds its window ends. */
export function rateLimited(resetsAt: Date, message?: string) {
  const retryAfterSeconds = Math.max(1, Math.ceil((resetsAt.getTime() - Date.now()) / 1000));
  return new AppError('RATE_LIMITED', { message, details: { retryAfterSeconds } });
}

/** The counter of a per-user limit (USER_LIMITS), for statements that count uses themselves. */
export const userLimitKey = (name: UserLimitName, userId: string) => `${name}:${userId}`;

/** Counts one use of a per-user limit (USER_LIMITS) and refuses it with 429 past the ceiling, with its own text. */
export function enforceUserLimit(db: Executor, userId: string, name: UserLimitName) {
  const limit: UsageLimit & { message?: string } = USER_LIMITS[name];
  return enforceLimit(db, userLimitKey(name, userId), limit, limit.message);
}
