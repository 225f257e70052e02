import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../client.ts';

describe('the embedded database under concurrent connections', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openDatabase(
      { kind: 'embedded', socketDir: mkdtempSync(path.join(os.tmpdir(), 'vh-queue-')) },
      { poolSize: 8 },
    );
  });
  afterAll(() => database.close());

  it('keeps each connection’s parameterised queries apart, also while other connections run transactions', async () => {
    // A transaction starting between one connection's Parse and Bind replaced its unnamed statement (pglite#1046).
    const inTransaction = async (n: number) => {
      const client = await database.pool.connect();
      try {
        await client.query('begin');
        const result = await client.query<{ v: number }>('select $1::int + $2::int + $3::int + $4::int as v', [
          n,
          0,
          0,
          0,
        ]);
        await client.query('commit');
        return result;
      } finally {
        client.release();
      }
    };
    const answers = await Promise.all(
      Array.from({ length: 600 }, (_, n) =>
        (n % 2 === 0 ? database.pool.query<{ v: number }>('select $1::int as v', [n]) : inTransaction(n)).then(
          (result) => [n, result.rows[0]?.v],
        ),
      ),
    );
    for (const [asked, answered] of answers) expect(answered).toBe(asked);
  });

  it('keeps a transaction to its connection and carries on after a failed query', async () => {
    await database.pool.query('create table counters (n int)');
    const client = await database.pool.connect();
    await client.query('begin');
    await client.query('insert into counters values ($1)', [1]);
    // Other connections wait for the transaction (one session), then see none of it.
    const outside = database.pool.query<{ n: number }>('select count(*)::int as n from counters');
    const failing = database.pool.query('select * from missing_table');
    await client.query('rollback');
    client.release();
    expect((await outside).rows[0]!.n).toBe(0);
    await expect(failing).rejects.toThrow('missing_table');
    expect((await database.pool.query<{ one: number }>('select 1 as one')).rows[0]!.one).toBe(1);
  });
});
