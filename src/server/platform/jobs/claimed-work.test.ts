import { randomUUID } from 'node:crypto';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itOnPostgres, openTestDatabase } from '../../../../tests/support/test-database.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { claimColumns, timestamptz } from '../../db/schema/columns.ts';
import {
  claimWork,
  recordWorkOutcome,
  runClaimedWorkOnce,
  type CallOutcome,
  type ClaimedWork,
} from './claimed-work.ts';

// A work table of the tests' own, made in this file's database.
const workItems = pgTable('claimed_work_test_items', {
  id: uuid('id').primaryKey().defaultRandom(),
  batch: text('batch').notNull(),
  result: text('result'),
  doneAt: timestamptz('done_at'),
  ...claimColumns(),
});

describe('claimed work', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase();
    await database.db.execute(sql`create table claimed_work_test_items (
      id uuid primary key default gen_random_uuid(), batch text not null, result text, done_at timestamptz,
      claim_token uuid, claimed_until timestamptz, claims integer not null default 0)`);
  });
  afterAll(() => database.close());

  const errorsLogged: { fields: object; message: string }[] = [];
  const log = { error: (fields: object, message: string) => errorsLogged.push({ fields, message }) };

  /** A batch of work rows and the work over them; `call` and `recorded` are the test's to set and read. */
  async function batchOf(size: number, options: { batchSize?: number; call?: (id: string) => Promise<string> } = {}) {
    const batch = randomUUID();
    const ids = (
      await database.db
        .insert(workItems)
        .values(Array.from({ length: size }, () => ({ batch })))
        .returning({ id: workItems.id })
    ).map((row) => row.id);
    const recorded: { id: string; outcome: CallOutcome<string> }[] = [];
    const work: ClaimedWork<typeof workItems, string> = {
      name: 'test items',
      table: workItems,
      due: and(eq(workItems.batch, batch), isNull(workItems.doneAt))!,
      order: workItems.id,
      batchSize: options.batchSize ?? 5,
      leaseMs: 60_000,
      maxClaims: 3,
      call: async (row) => (options.call ? options.call(row.id) : `called ${row.id}`),
      async record({ db, row, outcome }) {
        recorded.push({ id: row.id, outcome });
        await db
          .update(workItems)
          .set({ doneAt: sql`now()`, result: outcome.ok ? outcome.value : String(outcome.error) })
          .where(eq(workItems.id, row.id));
      },
      async giveUp({ db, row }) {
        await db
          .update(workItems)
          .set({ doneAt: sql`now()`, result: 'given up' })
          .where(eq(workItems.id, row.id));
      },
    };
    return { ids, work, recorded };
  }

  const lapse = (id: string) =>
    database.db
      .update(workItems)
      .set({ claimedUntil: sql`now() - interval '1 second'` })
      .where(eq(workItems.id, id));

  it('gives racing claimers disjoint rows, and a claimed row to no one else while its claim holds', async () => {
    const { ids, work } = await batchOf(12);
    const claims = await Promise.all(Array.from({ length: 4 }, () => claimWork({ db: database.db, work })));
    const claimed = claims.flatMap((claim) => claim.rows.map((row) => row.id));
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(new Set(claims.map((claim) => claim.token)).size).toBe(4);
    // Whatever the race left is claimed next, and then nothing is left to claim.
    const rest = await claimWork({ db: database.db, work });
    expect([...claimed, ...rest.rows.map((row) => row.id)].sort()).toEqual([...ids].sort());
    expect((await claimWork({ db: database.db, work })).rows).toEqual([]);
  });

  itOnPostgres('skips rows another node holds locked rather than waiting for them', async () => {
    const { ids, work } = await batchOf(3);
    const other = await database.pool.connect();
    try {
      await other.query('begin');
      await other.query('select id from claimed_work_test_items where id = $1 for update', [ids[0]]);
      const { rows } = await claimWork({ db: database.db, work });
      expect(rows.map((row) => row.id).sort()).toEqual([ids[1], ids[2]].sort());
      await other.query('commit');
    } finally {
      other.release();
    }
    expect((await claimWork({ db: database.db, work })).rows.map((row) => row.id)).toEqual([ids[0]]);
  });

  it('calls with no transaction holding the row, then records each outcome, a failure too', async () => {
    const { ids, work, recorded } = await batchOf(2, {
      call: async (id) => {
        // NOWAIT fails at once if any transaction still held the claimed row.
        await database.db.transaction((tx) =>
          tx.select().from(workItems).where(eq(workItems.id, id)).for('update', { noWait: true }),
        );
        if (id === ids[1]) throw new Error('the provider said no');
        return 'sent';
      },
    });
    expect(await runClaimedWorkOnce({ db: database.db, log, work })).toBe(2);
    expect(recorded).toHaveLength(2);
    const done = await database.db
      .select({ id: workItems.id, result: workItems.result, claimToken: workItems.claimToken })
      .from(workItems)
      .where(inArray(workItems.id, ids));
    expect(done.sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id))).toEqual([
      { id: ids[0], result: 'sent', claimToken: null },
      { id: ids[1], result: 'Error: the provider said no', claimToken: null },
    ]);
  });

  it('claims a row again once its claim lapses, and records only the new claimer’s outcome, once', async () => {
    const { ids, work, recorded } = await batchOf(1);
    const dead = await claimWork({ db: database.db, work });
    expect(dead.rows.map((row) => row.id)).toEqual(ids);
    // The first claimer died mid-call: its lease runs out.
    await lapse(ids[0]!);
    const second = await claimWork({ db: database.db, work });
    expect(second.rows.map((row) => row.id)).toEqual(ids);

    const outcome = { ok: true as const, value: 'late' };
    const row = dead.rows[0]!;
    expect(await recordWorkOutcome({ db: database.db, work, token: dead.token, row, outcome })).toBe(false);
    expect(recorded).toEqual([]);
    const fresh = { ok: true as const, value: 'fresh' };
    expect(await recordWorkOutcome({ db: database.db, work, token: second.token, row, outcome: fresh })).toBe(true);
    expect(await recordWorkOutcome({ db: database.db, work, token: second.token, row, outcome: fresh })).toBe(false);
    expect(recorded).toEqual([{ id: ids[0], outcome: fresh }]);
    const [stored] = await database.db.select().from(workItems).where(eq(workItems.id, ids[0]!));
    expect(stored).toMatchObject({ result: 'fresh', claimToken: null, claimedUntil: null });
  });

  it('starts each row’s lease again as its turn comes, and leaves a row another took meanwhile to it', async () => {
    const { ids, work, recorded } = await batchOf(3, { batchSize: 3 });
    const leaseLeft = async (id: string) =>
      (
        await database.db.execute<{ seconds: number }>(
          sql`select extract(epoch from claimed_until - now())::float8 as seconds from claimed_work_test_items where id = ${id}`,
        )
      ).rows[0]!.seconds;
    const leftAtCall: number[] = [];
    let takenId: string | undefined;
    let taken: Awaited<ReturnType<typeof claimWork>> | undefined;
    const slow = {
      ...work,
      call: async (row: { id: string }) => {
        leftAtCall.push(await leaseLeft(row.id));
        if (leftAtCall.length === 1) {
          // The first call takes so long that the batch's lease runs out, and another claims one of the rows left.
          const rest = ids.filter((id) => id !== row.id);
          await database.db
            .update(workItems)
            .set({ claimedUntil: sql`now() - interval '1 second'` })
            .where(inArray(workItems.id, rest));
          takenId = rest[1];
          taken = await claimWork({ db: database.db, work: { ...work, due: eq(workItems.id, takenId!) } });
        }
        return `called ${row.id}`;
      },
    };
    expect(await runClaimedWorkOnce({ db: database.db, log, work: slow })).toBe(3);
    expect(taken!.rows.map((row) => row.id)).toEqual([takenId]);
    // The row left was called with a whole lease ahead of it, though the batch's had lapsed; the one taken was not.
    expect(leftAtCall).toHaveLength(2);
    expect(leftAtCall[1]).toBeGreaterThan(50);
    expect(recorded.map((entry) => entry.id).sort()).toEqual(ids.filter((id) => id !== takenId).sort());
  });

  it('records the rest of a batch when one row’s record fails, rather than leaving them claimed until they lapse', async () => {
    const { ids, work } = await batchOf(3);
    // One row's record fails, whichever turn it has.
    const failingFirst = {
      ...work,
      record: async (options: Parameters<typeof work.record>[0]) => {
        if (options.row.id === ids[0]) throw new Error('the database refused this one');
        await work.record(options);
      },
    };
    await expect(runClaimedWorkOnce({ db: database.db, log, work: failingFirst })).rejects.toThrow(
      'the database refused this one',
    );
    const stored = await database.db
      .select({ id: workItems.id, result: workItems.result, claimToken: workItems.claimToken })
      .from(workItems)
      .where(inArray(workItems.id, ids));
    expect(stored.sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id))).toEqual([
      { id: ids[0], result: null, claimToken: expect.any(String) },
      { id: ids[1], result: `called ${ids[1]}`, claimToken: null },
      { id: ids[2], result: `called ${ids[2]}`, claimToken: null },
    ]);
  });

  it('keeps the claim when recording fails, so the row is worked again once it lapses', async () => {
    const { ids, work } = await batchOf(1);
    const failing = {
      ...work,
      record: async () => {
        throw new Error('the database went away');
      },
    };
    await expect(runClaimedWorkOnce({ db: database.db, log, work: failing })).rejects.toThrow('the database went away');
    expect((await claimWork({ db: database.db, work })).rows).toEqual([]);
    await lapse(ids[0]!);
    expect(await runClaimedWorkOnce({ db: database.db, log, work })).toBe(1);
    const [stored] = await database.db.select().from(workItems).where(eq(workItems.id, ids[0]!));
    expect(stored).toMatchObject({ result: `called ${ids[0]}`, claimToken: null, claims: 2 });
  });

  it('calls a row whose record always fails at most maxClaims times, then gives it up uncalled, once', async () => {
    const { ids, work } = await batchOf(1);
    let calls = 0;
    const unrecordable = {
      ...work,
      call: async () => `call ${++calls}`,
      record: async () => {
        throw new Error('the table refuses this outcome');
      },
    };
    for (let claim = 1; claim <= work.maxClaims; claim++) {
      await expect(runClaimedWorkOnce({ db: database.db, log, work: unrecordable })).rejects.toThrow('refuses');
      await lapse(ids[0]!);
    }
    expect(calls).toBe(work.maxClaims);
    const logged = errorsLogged.length;
    expect(await runClaimedWorkOnce({ db: database.db, log, work: unrecordable })).toBe(1);
    expect(calls).toBe(work.maxClaims);
    const [stored] = await database.db.select().from(workItems).where(eq(workItems.id, ids[0]!));
    expect(stored).toMatchObject({ result: 'given up', claimToken: null, claimedUntil: null, claims: 4 });
    expect(errorsLogged.slice(logged)).toEqual([
      { fields: { work: 'test items', rowId: ids[0], claims: 4 }, message: expect.stringMatching(/given up/) },
    ]);
    // Given up, the row is no longer due: nothing is claimed, called or logged again.
    expect(await runClaimedWorkOnce({ db: database.db, log, work: unrecordable })).toBe(0);
    expect(errorsLogged).toHaveLength(logged + 1);
  });

  it('counts each claim of a row worked normally, and gives none up', async () => {
    const { ids, work, recorded } = await batchOf(2);
    expect(await runClaimedWorkOnce({ db: database.db, log, work })).toBe(2);
    expect(recorded.map((entry) => entry.outcome)).toEqual(ids.map(() => expect.objectContaining({ ok: true })));
    const stored = await database.db
      .select({ result: workItems.result, claims: workItems.claims })
      .from(workItems)
      .where(inArray(workItems.id, ids));
    expect(stored.map((row) => row.claims)).toEqual([1, 1]);
    expect(stored.map((row) => row.result)).not.toContain('given up');
  });
});
