import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Executor } from '../../db/client.ts';

/** Periodic work on the database, such as closing expired requests. */
export type IntervalJob = {
  /** Also the advisory-lock key: one node at a time runs a job of this name. */
  name: string;
  intervalMs: number;
  /** Runs inside the transaction that holds the job's lock. */
  run(options: { db: Executor }): Promise<unknown>;
  /** Runs after that transaction committed, with what `run` returned (e.g. to tell sockets about new rows). */
  afterCommit?(result: unknown): void;
};

/**
 * Runs the job once in a transaction holding a PostgreSQL advisory lock on its name, so two server nodes never
 * run it at the same time. Resolves false (without running it) when another node holds the lock.
 */
export async function runJobOnce({ db, job }: { db: Database; job: IntervalJob }) {
  const outcome = await db.transaction(async (tx) => {
    const result = await tx.execute<{ locked: boolean }>(
      sql`select pg_try_advisory_xact_lock(hashtext(${`job:${job.name}`})) as locked`,
    );
    if (!result.rows[0]?.locked) return { ran: false as const };
    return { ran: true as const, result: await job.run({ db: tx }) };
  });
  if (outcome.ran) job.afterCommit?.(outcome.result);
  return outcome.ran;
}

/** Runs each job at start and then every intervalMs, never overlapping itself; stop() waits for a running job. */
export function startIntervalJobs({
  db,
  log,
  jobs,
  onRun,
}: {
  db: Database;
  log: Pick<FastifyBaseLogger, 'error'>;
  jobs: IntervalJob[];
  /** Told how each run ended (metrics). */
  onRun?: (job: string, outcome: 'ran' | 'skipped' | 'failed') => void;
}) {
  let stopped = false;
  const running = new Set<Promise<unknown>>();

  const timers = jobs.map((job) => {
    let current: Promise<unknown> | undefined;
    const tick = () => {
      if (stopped || current) return;
      current = runJobOnce({ db, job })
        .then((ran) => onRun?.(job.name, ran ? 'ran' : 'skipped'))
        .catch((error: unknown) => {
          log.error({ err: error, job: job.name }, 'a periodic job failed');
          onRun?.(job.name, 'failed');
        })
        .finally(() => {
          running.delete(current!);
          current = undefined;
        });
      running.add(current);
    };
    tick();
    const timer = setInterval(tick, job.intervalMs);
    timer.unref();
    return timer;
  });

  return {
    async stop() {
      stopped = true;
      for (const timer of timers) clearInterval(timer);
      await Promise.all(running);
    },
  };
}
