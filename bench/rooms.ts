// The room list must not grow with the data: GET /api/chat/rooms (first page and the next) for a user in 10 rooms
// of a 10-room database, and for a user in 1,000 rooms among 100,000. On the embedded database, and on PostgreSQL
// too when BENCH_DATABASE_URL is set (a fresh database of that server).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/server/app.ts';
import { openDatabase, type DatabaseHandle } from '../src/server/db/client.ts';
import { migrateDatabase } from '../src/server/db/migrate.ts';
import { createSessionCookie, createUser } from '../tests/support/factories.ts';
import { withAdminClient } from '../tests/support/test-database.ts';
import { benchAppConfig } from './embedded-app.ts';

const CALLS = 200;
const RATIO_TARGET = 1.5;
const SIZES = [
  { userRooms: 10, allRooms: 10 },
  { userRooms: 1_000, allRooms: 100_000 },
];

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** A user in `userRooms` rooms (each with a message, half unread), among `allRooms` rooms of other pairs. */
async function seedRooms(database: DatabaseHandle, { userRooms, allRooms }: (typeof SIZES)[number]) {
  const { db } = database;
  const user = await createUser(db, { role: 'student' });
  // Other pairs come from a pool of users large enough to hold them (n·(n−1)/2 pairs).
  const others = Math.ceil(Math.sqrt(2 * (allRooms - userRooms))) + 1;
  const tag = randomBytes(4).toString('hex');
  await db.execute(sql`
    insert into users (name, username, email, email_verified, role, vh_number)
    select 'rooms' || n, 'r' || ${tag} || n, 'r' || ${tag} || n || '@example.com', true, 'teacher', 100 + n % 900
    from generate_series(1, ${userRooms + others}) as n`);
  await db.execute(sql`
    with partner as (select id, row_number() over (order by id) as n from users where username like ${`r${tag}%`})
    insert into chat_rooms (participant1_id, participant2_id, last_message_at)
    select case when n % 2 = 0 then ${user.id}::uuid else id end, case when n % 2 = 0 then id else ${user.id}::uuid end,
           now() - n * interval '1 minute'
    from partner where n <= ${userRooms}`);
  await db.execute(sql`
    with other as (select id, row_number() over (order by id) as n from users where username like ${`r${tag}%`}),
         pair as (select a.id as a, b.id as b from other a join other b on a.n < b.n
                  where a.n > ${userRooms} and b.n > ${userRooms} limit ${allRooms - userRooms})
    insert into chat_rooms (participant1_id, participant2_id, last_message_at)
    select a, b, now() - random() * interval '30 days' from pair`);
  await db.execute(sql`
    with sent as (
      insert into messages (room_id, client_id, sender_id, receiver_id, content, is_read)
      select r.id, gen_random_uuid(), case when r.participant1_id = ${user.id} then r.participant2_id else r.participant1_id end,
             ${user.id}, 'Hello from room ' || r.id, random() < 0.5
      from chat_rooms r where ${user.id} in (r.participant1_id, r.participant2_id)
      returning id, room_id)
    update chat_rooms set last_message_id = sent.id from sent where chat_rooms.id = sent.room_id`);
  await db.execute(sql`analyze`);
  return user;
}

async function openBenchDatabase(dataDir: string, serverUrl: string | undefined) {
  if (!serverUrl) {
    const database = await openDatabase({ kind: 'embedded', dataDir: path.join(dataDir, 'db'), socketDir: dataDir });
    return { name: 'embedded', database, drop: async () => undefined };
  }
  const name = `vh_bench_${randomBytes(6).toString('hex')}`;
  await withAdminClient(serverUrl, (client) => client.query(`create database ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name: 'PostgreSQL',
    database: await openDatabase({ kind: 'postgres', url: url.toString() }),
    drop: () => withAdminClient(serverUrl, (client) => client.query(`drop database if exists ${name} with (force)`)),
  };
}

async function measureSize(size: (typeof SIZES)[number], serverUrl: string | undefined) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vh-bench-rooms-'));
  const { name, database, drop } = await openBenchDatabase(dataDir, serverUrl);
  const config = benchAppConfig(dataDir);
  const app = await buildApp(config, { database });
  try {
    await migrateDatabase(database.pool);
    await app.ready();
    const user = await seedRooms(database, size);
    const cookie = (await createSessionCookie(database.db, user.id)).header;
    const list = async (query: string) => {
      const response = await app.inject({ method: 'GET', url: `/api/chat/rooms${query}`, headers: { cookie } });
      if (response.statusCode !== 200) throw new Error(`Unexpected status ${response.statusCode} ${response.body}`);
      return response.json<{ nextCursor: string | null }>();
    };
    const cursor = (await list('?limit=5')).nextCursor;
    const p50 = async (query: string) => {
      for (let i = 0; i < 20; i++) await list(query);
      const durations: number[] = [];
      for (let i = 0; i < CALLS; i++) {
        const startedAt = performance.now();
        await list(query);
        durations.push(performance.now() - startedAt);
      }
      return percentile(
        durations.sort((a, b) => a - b),
        50,
      );
    };
    return { database: name, first: await p50(''), next: await p50(`?limit=5&cursor=${cursor}`) };
  } finally {
    await app.close();
    await database.close();
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function benchRooms() {
  const round = (ms: number) => Math.round(ms * 100) / 100;
  const rows = [];
  for (const serverUrl of [undefined, process.env.BENCH_DATABASE_URL]) {
    if (rows.length > 0 && !serverUrl) continue;
    const [small, large] = [await measureSize(SIZES[0]!, serverUrl), await measureSize(SIZES[1]!, serverUrl)];
    for (const page of ['first', 'next'] as const) {
      const ratio = large[page] / small[page];
      rows.push({
        case: `GET /api/chat/rooms, ${page === 'first' ? 'first page' : 'next page (cursor)'} (${small.database})`,
        'p50 ms, 10 rooms': round(small[page]),
        'p50 ms, 1,000 of 100,000 rooms': round(large[page]),
        ratio: round(ratio),
        target: RATIO_TARGET,
        ok: ratio <= RATIO_TARGET ? 'yes' : 'NO',
      });
    }
  }
  return rows;
}
