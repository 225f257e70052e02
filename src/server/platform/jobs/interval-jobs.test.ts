import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { itOnPostgres, openTestDatabase } from '../../../../tests/support/test-database.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { runJobOnce, startIntervalJobs, type IntervalJob } from './interval-jobs.ts';

describe('interval jobs', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  const silentLog = { error: vi.fn() };

  // Several nodes share only a real PostgreSQL server; the embedded database serializes transactions (one would wait
  // for the other's) and admits one process at a time anyway.
  itOnPostgres('skips a run while another node holds the job’s advisory lock, and runs once it is free', async () => {
    const run = vi.fn(async () => undefined);
    const job: IntervalJob = { name: 'test-lock', intervalMs: 60_000, run };
    // Another "node": a separate connection holding the same lock in an open transaction.
    const other = await database.pool.connect();
    try {
      await other.query('begin');
      await other.query(`select pg_advisory_xact_lock(hashtext('job:test-lock'))`);
      expect(await runJobOnce({ db: database.db, job })).toBe(false);
      expect(run).not.toHaveBeenCalled();
      await other.query('commit');
    } finally {
      other.release();
    }
    expect(await runJobOnce({ db: database.db, job })).toBe(true);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('hands what a run returned to afterCommit once its transaction committed, and not after a failed run', async () => {
    const seen: unknown[] = [];
    const job: IntervalJob = {
      name: 'test-after-commit',
      intervalMs: 60_000,
      run: async ({ db }) => (await db.execute<{ n: number }>(sql`select 42 as n`)).rows[0]!.n,
      afterCommit: (result) => seen.push(result),
    };
    expect(await runJobOnce({ db: database.db, job })).toBe(true);
    expect(seen).toEqual([42]);

    const failing: IntervalJob = {
      ...job,
      run: async () => {
        throw new Error('boom');
      },
    };
    await expect(runJobOnce({ db: database.db, job: failing })).rejects.toThrow('boom');
    expect(seen).toEqual([42]);
  });

  it('runs each job at start and on its interval, logs a failure and keeps going, and waits for a running job on stop', async () => {
    let runs = 0;
    let finished = 0;
    const jobs = startIntervalJobs({
      db: database.db,
      log: silentLog,
      jobs: [
        {
          name: 'test-ticks',
          intervalMs: 30,
          run: async () => {
            runs++;
            await new Promise((resolve) => setTimeout(resolve, 10));
            finished++;
            if (runs === 1) throw new Error('first run fails');
          },
        },
      ],
    });
    await vi.waitFor(() => expect(runs).toBeGreaterThanOrEqual(3), { timeout: 2_000 });
    await jobs.stop();
    expect(finished).toBe(runs);
    const after = runs;
    // A timer of the same interval ticking three times is time enough for a job still scheduled to have run.
    let ticks = 0;
    const clock = setInterval(() => ticks++, 30);
    await vi.waitFor(() => expect(ticks).toBeGreaterThanOrEqual(3));
    clearInterval(clock);
    expect(runs).toBe(after);
    expect(silentLog.error).toHaveBeenCalledWith(
      expect.objectContaining({ job: 'test-ticks' }),
      'a periodic job failed',
    );
  });
});
