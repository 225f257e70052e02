import { lt, or, sql } from 'drizzle-orm';
import { sessions } from '../../db/schema/auth.ts';
import type { IntervalJob } from '../../platform/jobs/interval-jobs.ts';

/**
 * A session slides forward while it is used (30 days after the last use), but no session lives longer than this
 * from its sign-in: a stolen cookie that is kept busy still dies.
 */
const SESSION_ABSOLUTE_LIFETIME_DAYS = 30;
const SESSION_LIFETIME_JOB_INTERVAL_MS = 60_000;

/** Deletes sessions past their absolute lifetime, or expired unused, and ends their sockets (which stay open else). */
export function sessionLifetimeJob(onSessionEnded: (sessionId: string) => void): IntervalJob {
  return {
    name: 'end-old-sessions',
    intervalMs: SESSION_LIFETIME_JOB_INTERVAL_MS,
    async run({ db }) {
      const ended = await db
        .delete(sessions)
        .where(
          or(
            lt(sessions.createdAt, sql`now() - make_interval(days => ${SESSION_ABSOLUTE_LIFETIME_DAYS})`),
            lt(sessions.expiresAt, sql`now()`),
          ),
        )
        .returning({ id: sessions.id });
      // A socket told too early (should the transaction fail) just reconnects with its cookie, if still valid.
      for (const { id } of ended) onSessionEnded(id);
      return ended.length;
    },
  };
}
