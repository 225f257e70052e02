// Chat through the built server process (`node dist/server/main.js`) on loopback, against a bare Socket.IO relay
// (bench/relay.ts: no database, acknowledge then emit to the partner) driven by the same load generator in the same
// run (both up at once, each step run against one and then the other, so the machine's other load falls on both
// alike), so the table says how far the app is from what Socket.IO alone does on this machine:
//   1. Users in pairs, each socket sending `message:send` to its partner; the latency is from the send to the
//      partner's `message:new`. At a steady 500 messages/s (sent on schedule, not after the previous acknowledgement,
//      so a slow server cannot hide its queue) with 1,000 and with 5,000 users connected; and the capacity: 1,000 users
//      with one message in flight each, the next sent as soon as the last is acknowledged.
//   2. Lost and duplicated deliveries, RSS idle and with 5,000 sockets, and the event-loop delay of the server during
//      each load (monitorEventLoopDelay through /api/metrics, reset by reading it before the load).
//   3. Opening a conversation (its first page of messages) with 10 messages vs 100,000 in the room (the app only).
// The embedded database by default; BENCH_DATABASE_URL=postgres://… runs the app on a fresh database of that server
// (and REDIS_URL, when set, is passed on to the app).
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../src/server/db/client.ts';
import { SESSION_COOKIE } from '../tests/support/factories.ts';
import { startServerProcess, type ServerProcess } from '../tests/support/server-process.ts';
import { connectSocket, type TestSocket } from '../tests/support/socket-client.ts';
import { TEST_AUTH_SECRET } from '../tests/support/test-config.ts';
import { withAdminClient } from '../tests/support/test-database.ts';

const STEADY_RATE = 500;
const STEADY_SECONDS = 6;
const FEW_USERS = 1_000;
const MANY_USERS = 5_000;
const CAPACITY_MESSAGES_PER_USER = 8;
/** Messages each of the 1,000 users sends, unmeasured, before the first load, so no figure includes JIT warm-up. */
const WARM_UP_MESSAGES_PER_USER = 3;
const HISTORY_SIZES = [10, 100_000] as const;
const OPEN_RUNS = 30;
const ACK_TIMEOUT_MS = 60_000;
/** How long deliveries may trail the last acknowledgement before the missing ones count as lost. */
const DELIVERY_GRACE_MS = 10_000;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const round = (value: number) => Math.round(value * 10) / 10;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Person = { id: string; cookie: string };
/** A server under test, its users, and its RSS measured right after it started (before any data is written). */
type Target = { server: ServerProcess; people: Person[]; idleRss: number };
type Sent = { at: number; deliveries: number };

/** The messages of one load, by clientId, and their deliveries to the partner. */
class Deliveries {
  readonly sent = new Map<string, Sent>();
  readonly latencies: number[] = [];
  failures = 0;
  lastDeliveredAt = 0;

  send(socket: TestSocket, receiverId: string, content: string) {
    const clientId = randomUUID();
    this.sent.set(clientId, { at: performance.now(), deliveries: 0 });
    return socket
      .timeout(ACK_TIMEOUT_MS)
      .emitWithAck('message:send', { clientId, receiverId, content })
      .then((ack) => ack.ok)
      .catch(() => false)
      .then((ok) => {
        if (!ok) this.failures++;
      });
  }

  deliver(clientId: string) {
    const sent = this.sent.get(clientId);
    if (!sent) return;
    sent.deliveries++;
    if (sent.deliveries > 1) return;
    this.lastDeliveredAt = performance.now();
    this.latencies.push(this.lastDeliveredAt - sent.at);
  }

  async settle() {
    const deadline = Date.now() + DELIVERY_GRACE_MS;
    while (this.latencies.length < this.sent.size - this.failures && Date.now() < deadline) await pause(20);
  }

  summary(startedAt: number) {
    const sorted = this.latencies.toSorted((a, b) => a - b);
    let duplicated = 0;
    for (const { deliveries } of this.sent.values()) duplicated += Math.max(0, deliveries - 1);
    return {
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      perSecond: this.latencies.length / ((this.lastDeliveredAt - startedAt) / 1000),
      lost: this.sent.size - this.latencies.length,
      duplicated,
    };
  }
}

const partnerIndex = (index: number) => (index % 2 === 0 ? index + 1 : index - 1);

/** The server's event-loop delay p99 (ms) since the last read: prom-client resets its histogram on every scrape. */
async function eventLoopDelayP99(server: ServerProcess) {
  const text = await (await fetch(`${server.url}/api/metrics`)).text();
  const seconds = /^nodejs_eventloop_lag_p99_seconds (\S+)$/m.exec(text)?.[1];
  return Number(seconds) * 1000;
}

const rssMegabytes = (server: ServerProcess) =>
  Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))?.[1]) / 1024;

/** One load against a target: the users' sockets, the deliveries, and the server's event-loop delay meanwhile. */
async function measureLoad(target: Target, sockets: TestSocket[], load: (deliveries: Deliveries) => Promise<unknown>) {
  const deliveries = new Deliveries();
  const listeners = sockets.map((socket, index) => {
    const listener = (message: { clientId: string; senderId: string }) => {
      if (message.senderId !== target.people[index]!.id) deliveries.deliver(message.clientId);
    };
    socket.on('message:new', listener);
    return listener;
  });
  await eventLoopDelayP99(target.server);
  const startedAt = performance.now();
  await load(deliveries);
  await deliveries.settle();
  const loopDelayP99 = await eventLoopDelayP99(target.server);
  sockets.forEach((socket, index) => socket.off('message:new', listeners[index]));
  return { ...deliveries.summary(startedAt), loopDelayP99 };
}

/** STEADY_RATE messages a second for STEADY_SECONDS, each on its schedule, spread over the users round-robin. */
const steadyLoad = (target: Target, sockets: TestSocket[]) => async (deliveries: Deliveries) => {
  const total = STEADY_RATE * STEADY_SECONDS;
  const startedAt = performance.now();
  const acknowledged: Promise<void>[] = [];
  for (let sent = 0; sent < total;) {
    const due = Math.min(total, Math.floor(((performance.now() - startedAt) / 1000) * STEADY_RATE) + 1);
    for (; sent < due; sent++) {
      const index = sent % sockets.length;
      acknowledged.push(
        deliveries.send(sockets[index]!, target.people[partnerIndex(index)]!.id, `Steady message ${sent}`),
      );
    }
    await pause(1);
  }
  await Promise.all(acknowledged);
};

/** Every user sends its next message as soon as the last one is acknowledged, `perUser` messages each. */
const capacityLoad = (target: Target, sockets: TestSocket[], perUser: number) => (deliveries: Deliveries) =>
  Promise.all(
    sockets.map(async (socket, index) => {
      for (let n = 0; n < perUser; n++)
        await deliveries.send(socket, target.people[partnerIndex(index)]!.id, `Message ${n} about exercise ${index}`);
    }),
  );

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

/** Runs one step against each target in turn. */
async function eachTarget<T>(targets: Target[], step: (target: Target, index: number) => Promise<T>) {
  const results: T[] = [];
  for (const [index, target] of targets.entries()) results.push(await step(target, index));
  return results;
}

const closeAll = (sockets: TestSocket[]) => sockets.forEach((socket) => socket.close());

/**
 * Every figure of each target: the loads and RSS. Step by step, the targets one after the other, so that the load
 * other programs put on the machine meanwhile falls on each target alike.
 */
async function measureTargets(targets: Target[]) {
  const few = await eachTarget(targets, (target) => connectMany(target.server.url, target.people.slice(0, FEW_USERS)));
  await eachTarget(targets, (target, i) =>
    measureLoad(target, few[i]!, capacityLoad(target, few[i]!, WARM_UP_MESSAGES_PER_USER)),
  );
  const steadyFew = await eachTarget(targets, (target, i) => measureLoad(target, few[i]!, steadyLoad(target, few[i]!)));
  const capacity = await eachTarget(targets, (target, i) =>
    measureLoad(target, few[i]!, capacityLoad(target, few[i]!, CAPACITY_MESSAGES_PER_USER)),
  );
  few.forEach(closeAll);
  const many = await eachTarget(targets, async (target) => {
    const sockets = await connectMany(target.server.url, target.people.slice(0, MANY_USERS));
    const manySocketsRss = rssMegabytes(target.server);
    const steadyMany = await measureLoad(target, sockets, steadyLoad(target, sockets));
    closeAll(sockets);
    return { manySocketsRss, steadyMany };
  });
  return targets.map((_target, i) => ({
    idleRss: targets[i]!.idleRss,
    steadyFew: steadyFew[i]!,
    capacity: capacity[i]!,
    ...many[i]!,
  }));
}

type Figures = Awaited<ReturnType<typeof measureTargets>>[number];

/** The side-by-side table: one row a figure, the relay, the app and how many times the relay's figure the app's is. */
function compare(relay: Figures, app: Figures) {
  const row = (figure: string, read: (figures: Figures) => number) => {
    const [base, ours] = [read(relay), read(app)];
    return {
      figure,
      relay: round(base),
      app: round(ours),
      'app / relay': base === 0 ? '-' : Number((ours / base).toPrecision(2)),
    };
  };
  const steady = (users: number) => `${STEADY_RATE} msg/s, ${users.toLocaleString('en')} users`;
  return [
    row(`${steady(FEW_USERS)}: p50 ms`, (f) => f.steadyFew.p50),
    row(`${steady(FEW_USERS)}: p99 ms`, (f) => f.steadyFew.p99),
    row(`${steady(MANY_USERS)}: p50 ms`, (f) => f.steadyMany.p50),
    row(`${steady(MANY_USERS)}: p99 ms`, (f) => f.steadyMany.p99),
    row(`capacity, ${FEW_USERS.toLocaleString('en')} users one in flight: msg/s`, (f) => f.capacity.perSecond),
    row('lost (all loads)', (f) => f.steadyFew.lost + f.capacity.lost + f.steadyMany.lost),
    row('duplicated (all loads)', (f) => f.steadyFew.duplicated + f.capacity.duplicated + f.steadyMany.duplicated),
    row('RSS idle MB', (f) => f.idleRss),
    row(`RSS with ${MANY_USERS.toLocaleString('en')} sockets MB`, (f) => f.manySocketsRss),
    row(`event-loop delay p99 ms, ${steady(FEW_USERS)}`, (f) => f.steadyFew.loopDelayP99),
    row(`event-loop delay p99 ms, ${steady(MANY_USERS)}`, (f) => f.steadyMany.loopDelayP99),
    row('event-loop delay p99 ms, capacity', (f) => f.capacity.loopDelayP99),
  ];
}

/**
 * Signed-in users written in bulk (no password: they only open sockets), in pairs that already have their room,
 * so the loads measure conversations under way rather than first messages.
 */
async function signUpPairs(database: DatabaseHandle, count: number): Promise<Person[]> {
  const run = randomBytes(4).toString('hex');
  const { rows } = await database.pool.query<{ id: string }>(
    `insert into users (name, username, email, email_verified, vh_number)
     select 'Bench ' || n, 'bench_' || $1 || '_' || n, 'bench_' || $1 || '_' || n || '@example.com', true, 100 + n % 900
     from generate_series(1, $2::int) as n order by n
     returning id`,
    [run, count],
  );
  const ids = rows.map((row) => row.id);
  const tokens = ids.map(() => randomUUID().replaceAll('-', ''));
  await database.pool.query(
    `insert into sessions (user_id, token, expires_at)
     select user_id, token, now() + interval '1 day' from unnest($1::uuid[], $2::text[]) as s(user_id, token)`,
    [ids, tokens],
  );
  const firsts = ids.filter((_id, index) => index % 2 === 0);
  await database.pool.query(
    `insert into chat_rooms (participant1_id, participant2_id) select * from unnest($1::uuid[], $2::uuid[])`,
    [firsts, firsts.map((_id, index) => ids[index * 2 + 1])],
  );
  return ids.map((id, index) => {
    const signature = createHmac('sha256', TEST_AUTH_SECRET).update(tokens[index]!).digest('base64');
    return { id, cookie: `${SESSION_COOKIE}=${encodeURIComponent(`${tokens[index]}.${signature}`)}` };
  });
}

/** The first page of a room's history, timed over HTTP, with `size` messages in the room. */
async function measureOpen(server: ServerProcess, database: DatabaseHandle, size: number) {
  const [alice, bob] = await signUpPairs(database, 2);
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

const relayUsers = Array.from({ length: MANY_USERS }, (_, index) => {
  const id = `user-${index}`;
  return { id, cookie: `bench-user=${id}` };
});

export async function benchChat() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vh-bench-chat-'));
  const target = await prepareDatabase(dataDir);
  const env = {
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: 'Bench-password-1',
    AUTH_SECRET: TEST_AUTH_SECRET,
    NODE_ENV: 'production',
    PAYMENTS_PROVIDER: 'none',
    LOG_LEVEL: 'warn',
    ...target.env,
  };
  const relay = await startServerProcess([process.execPath, '--import', 'tsx', 'bench/relay.ts'], {});
  let app: ServerProcess | undefined;
  let database: DatabaseHandle | undefined;
  try {
    app = await startServerProcess([process.execPath, 'dist/server/main.js'], env, 60_000);
    const idleRss = [rssMegabytes(relay), rssMegabytes(app)] as const;
    database = await target.connect();
    const appUsers = await signUpPairs(database, MANY_USERS);
    const [relayFigures, appFigures] = await measureTargets([
      { server: relay, people: relayUsers, idleRss: idleRss[0] },
      { server: app, people: appUsers, idleRss: idleRss[1] },
    ]);
    const open = [];
    for (const size of HISTORY_SIZES) open.push(await measureOpen(app, database, size));
    const databaseName = process.env.BENCH_DATABASE_URL ? 'PostgreSQL (BENCH_DATABASE_URL)' : 'embedded';
    return {
      setUp: process.env.REDIS_URL ? `${databaseName} + Redis (REDIS_URL)` : databaseName,
      load: compare(relayFigures!, appFigures!),
      open,
    };
  } finally {
    await database?.close();
    await app?.stop();
    await relay.stop();
    await target.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
