// Chat through the built server process (`node dist/server/main.js`) on loopback:
//   1. N signed-in users with a socket each, in pairs; every user sends K messages to its partner over the socket
//      (`message:send`, waiting for each acknowledgement), for N = 100 and 1,000: messages/s and the time from
//      the send to the partner's `message:new` (p50, p99). Once as fast as acknowledged (the server saturated: the
//      latency is mostly queueing), once paced at a steady rate below that (the latency a user sees).
//   2. Opening a conversation (its first page of messages) with 10 messages vs 100,000 in the room.
// The embedded database by default; BENCH_DATABASE_URL=postgres://… runs it on a fresh database of that server.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../src/server/db/client.ts';
import { createSessionCookie, createUser } from '../tests/support/factories.ts';
import { startServerProcess, type ServerProcess } from '../tests/support/server-process.ts';
import { connectSocket, type TestSocket } from '../tests/support/socket-client.ts';
import { TEST_AUTH_SECRET } from '../tests/support/test-config.ts';
import { withAdminClient } from '../tests/support/test-database.ts';

/** `paceMs`: each user's pause between two sends; 0 sends the next one as soon as the last is acknowledged. */
const LOAD_CASES = [
  { users: 100, messagesPerUser: 20, paceMs: 0 },
  { users: 1_000, messagesPerUser: 5, paceMs: 0 },
  { users: 100, messagesPerUser: 20, paceMs: 500 },
  { users: 1_000, messagesPerUser: 5, paceMs: 5_000 },
] as const;
const HISTORY_SIZES = [10, 100_000] as const;
const OPEN_RUNS = 30;
const ACK_TIMEOUT_MS = 60_000;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const round = (ms: number) => Math.round(ms * 10) / 10;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Person = { id: string; cookie: string };

async function signUpMany(database: DatabaseHandle, count: number): Promise<Person[]> {
  const people: Person[] = [];
  // A few at a time: the bench shares the database with the server it measures.
  for (let start = 0; start < count; start += 20) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(20, count - start) }, async () => {
        const user = await createUser(database.db);
        return { id: user.id, cookie: (await createSessionCookie(database.db, user.id)).header };
      }),
    );
    people.push(...batch);
  }
  return people;
}

async function connectMany(url: string, people: Person[]) {
  const sockets: TestSocket[] = [];
  for (let start = 0; start < people.length; start += 100) {
    sockets.push(
      ...(await Promise.all(
        people.slice(start, start + 100).map((person) => connectSocket(url, { cookie: person.cookie })),
      )),
    );
  }
  return sockets;
}

/** Every user sends K messages to its partner, one after the other; all users at once. */
async function measureLoad(
  server: ServerProcess,
  database: DatabaseHandle,
  { users, messagesPerUser, paceMs }: (typeof LOAD_CASES)[number],
) {
  const people = await signUpMany(database, users);
  const sockets = await connectMany(server.url, people);
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  let lastReceivedAt = 0;
  sockets.forEach((socket, index) => {
    socket.on('message:new', (message) => {
      if (message.senderId === people[index]!.id) return;
      const started = sentAt.get(message.clientId);
      if (started === undefined) return;
      lastReceivedAt = performance.now();
      latencies.push(lastReceivedAt - started);
    });
  });

  let failures = 0;
  const startedAt = performance.now();
  await Promise.all(
    people.map(async (_person, index) => {
      const partner = people[index % 2 === 0 ? index + 1 : index - 1]!;
      // Paced users start at random moments of the first interval, so they do not send in bursts.
      if (paceMs > 0) await pause(Math.random() * paceMs);
      for (let n = 0; n < messagesPerUser; n++) {
        if (paceMs > 0 && n > 0) await pause(paceMs);
        const clientId = randomUUID();
        sentAt.set(clientId, performance.now());
        const ack = await sockets[index]!.timeout(ACK_TIMEOUT_MS)
          .emitWithAck('message:send', {
            clientId,
            receiverId: partner.id,
            content: `Message ${n} about exercise ${index}`,
          })
          .catch(() => ({ ok: false }));
        if (!ack.ok) failures++;
      }
    }),
  );
  // The last events may still be on their way after the last acknowledgement.
  const expected = users * messagesPerUser - failures;
  const deadline = Date.now() + 10_000;
  while (latencies.length < expected && Date.now() < deadline) await pause(20);
  for (const socket of sockets) socket.close();

  const sorted = latencies.toSorted((a, b) => a - b);
  return {
    case: `${users} users (${users / 2} pairs) x ${messagesPerUser} messages, ${paceMs ? `one per user every ${paceMs} ms` : 'as fast as acknowledged'}`,
    messages: users * messagesPerUser,
    'messages/s': Math.round(latencies.length / ((lastReceivedAt - startedAt) / 1000)),
    'p50 ms': round(percentile(sorted, 50)),
    'p99 ms': round(percentile(sorted, 99)),
    'lost or failed': users * messagesPerUser - latencies.length,
  };
}

/** The first page of a room's history, timed over HTTP, with `size` messages in the room. */
async function measureOpen(server: ServerProcess, database: DatabaseHandle, size: number) {
  const [alice, bob] = await signUpMany(database, 2);
  const first = await fetch(`${server.url}/api/chat/messages`, {
    method: 'POST',
    headers: { cookie: alice!.cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ clientId: randomUUID(), receiverId: bob!.id, content: 'first' }),
  });
  const { roomId } = (await first.json()) as { roomId: string };
  // One statement writes the whole history, one message a second, alternating senders.
  await database.db.execute(sql`
    insert into messages (client_id, room_id, sender_id, receiver_id, content, created_at)
    select gen_random_uuid(), ${roomId},
      case when n % 2 = 0 then ${alice!.id}::uuid else ${bob!.id}::uuid end,
      case when n % 2 = 0 then ${bob!.id}::uuid else ${alice!.id}::uuid end,
      'History message ' || n, now() - (${size} - n) * interval '1 second'
    from generate_series(1, ${size - 1}) as n`);
  await database.db.execute(sql`analyze messages`);

  const open = async () => {
    const startedAt = performance.now();
    const response = await fetch(`${server.url}/api/chat/rooms/${roomId}/messages?limit=50`, {
      headers: { cookie: bob!.cookie },
    });
    const page = (await response.json()) as { messages: unknown[] };
    if (page.messages.length !== Math.min(50, size))
      throw new Error(`Expected a full first page, got ${page.messages.length}`);
    return performance.now() - startedAt;
  };
  for (let n = 0; n < 5; n++) await open();
  const times: number[] = [];
  for (let n = 0; n < OPEN_RUNS; n++) times.push(await open());
  const sorted = times.toSorted((a, b) => a - b);
  return {
    case: `open a conversation with ${size.toLocaleString('en')} messages (first 50)`,
    'median ms': round(percentile(sorted, 50)),
    'p95 ms': round(percentile(sorted, 95)),
  };
}

/** A fresh database on BENCH_DATABASE_URL's server, or the embedded one in the data directory. */
async function prepareDatabase(
  dataDir: string,
): Promise<{ env: Record<string, string>; connect(): Promise<DatabaseHandle>; drop(): Promise<unknown> }> {
  const serverUrl = process.env.BENCH_DATABASE_URL;
  if (!serverUrl) {
    return {
      env: {},
      connect: () =>
        openDatabase(
          { kind: 'postgres', url: `postgres://postgres@localhost/postgres?host=${encodeURIComponent(dataDir)}` },
          { poolSize: 2 },
        ),
      drop: async () => undefined,
    };
  }
  const name = `vh_bench_${randomBytes(6).toString('hex')}`;
  await withAdminClient(serverUrl, (client) => client.query(`create database ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    connect: () => openDatabase({ kind: 'postgres', url: url.toString() }, { poolSize: 4 }),
    drop: () => withAdminClient(serverUrl, (client) => client.query(`drop database if exists ${name} with (force)`)),
  };
}

export async function benchChat() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vh-bench-chat-'));
  const target = await prepareDatabase(dataDir);
  const env = {
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: 'Bench-password-1',
    AUTH_SECRET: TEST_AUTH_SECRET,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    ...target.env,
  };
  const server = await startServerProcess([process.execPath, 'dist/server/main.js'], env, 60_000);
  let database: DatabaseHandle | undefined;
  try {
    database = await target.connect();
    const load = [];
    for (const loadCase of LOAD_CASES) load.push(await measureLoad(server, database, loadCase));
    const open = [];
    for (const size of HISTORY_SIZES) open.push(await measureOpen(server, database, size));
    return { database: process.env.BENCH_DATABASE_URL ? 'PostgreSQL (BENCH_DATABASE_URL)' : 'embedded', load, open };
  } finally {
    await database?.close();
    await server.stop();
    await target.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
