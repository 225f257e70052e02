import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { startCluster, type Cluster } from '../../../../tests/support/cluster.ts';
import {
  freePort,
  SERVER_COMMAND,
  startServerProcess,
  type ServerProcess,
} from '../../../../tests/support/server-process.ts';
import { connectSocket, nextEvent, type TestSocket } from '../../../../tests/support/socket-client.ts';
import { describeOnPostgres } from '../../../../tests/support/test-database.ts';

// PostgreSQL may end any connection (a restart, a fail-over, an administrator). The realtime adapter's LISTEN
// connection ending must not take the process down, and messages must cross processes again once it is back.
const template = inject('databaseTemplate');

describeOnPostgres('a PostgreSQL connection that drops', () => {
  const sockets: TestSocket[] = [];
  let cluster: Cluster;

  beforeAll(async () => {
    if (template.kind === 'postgres') cluster = await startCluster(template.url, { name: 'reconnect' });
  });

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await cluster.stop();
  });

  const signedIn = () => cluster.signedIn();

  const terminateServerConnections = (onlyListening: boolean) =>
    cluster.terminateDatabaseConnections({ onlyListening });

  it('keeps both processes up when the LISTEN connections end, and fans out again once they are back', async () => {
    const [first, second] = cluster.servers as [ServerProcess, ServerProcess];
    expect(await terminateServerConnections(true)).toBeGreaterThanOrEqual(2);

    const [alice, bob] = [await signedIn(), await signedIn()];
    const bobSocket = await connectSocket(second.url, { cookie: bob.cookie });
    sockets.push(bobSocket);

    // The adapter listens again within a few seconds; until then a cross-process event may be missed, so
    // send until one arrives (each send is a new message; only arrival is asserted).
    let arrived = false;
    for (let attempt = 0; attempt < 30 && !arrived; attempt++) {
      const next = nextEvent(bobSocket, 'message:new', 1_000).then(
        () => true,
        () => false,
      );
      const response = await fetch(`${first.url}/api/chat/messages`, {
        method: 'POST',
        headers: { cookie: alice.cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ clientId: randomUUID(), receiverId: bob.id, content: `Still there? ${attempt}` }),
      });
      expect(response.status).toBe(201);
      arrived = await next;
    }
    expect(arrived).toBe(true);
    expect(first.child.exitCode).toBeNull();
    expect(second.child.exitCode).toBeNull();
    expect(first.output()).toMatch(/realtime listener connection lost/);
  });

  it('answers again after every pooled connection was ended', async () => {
    const [first] = cluster.servers as [ServerProcess, ServerProcess];
    await terminateServerConnections(false);
    await expect.poll(async () => (await fetch(`${first.url}/api/health`)).status, { timeout: 15_000 }).toBe(200);
    expect(first.child.exitCode).toBeNull();
  });

  it('reports degraded while the database is unreachable, and recovers by itself when it is back', async () => {
    if (template.kind !== 'postgres') return;
    // A TCP relay between the app and PostgreSQL that the test can cut and restore.
    const target = new URL(template.url);
    const relayPort = await freePort();
    const open = new Set<Socket>();
    let relay: Server | undefined;
    const startRelay = () =>
      new Promise<void>((resolve) => {
        relay = createServer((incoming) => {
          const outgoing = createConnection(Number(target.port || 5432), target.hostname);
          for (const end of [incoming, outgoing]) {
            open.add(end);
            end.on('close', () => open.delete(end));
            end.on('error', () => undefined);
          }
          incoming.pipe(outgoing).pipe(incoming);
        });
        relay.listen(relayPort, '127.0.0.1', resolve);
      });
    const cutRelay = () =>
      new Promise<void>((resolve) => {
        for (const end of open) end.destroy();
        relay?.close(() => resolve());
      });

    await startRelay();
    const url = new URL(template.url);
    url.host = `127.0.0.1:${relayPort}`;
    url.pathname = `/${cluster.databaseName}`;
    const server = await startServerProcess(
      SERVER_COMMAND,
      { ...cluster.env, DATABASE_URL: url.toString(), DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'vh-node-')) },
      60_000,
    );
    const health = async () => {
      const response = await fetch(`${server.url}/api/health`);
      return { httpStatus: response.status, ...((await response.json()) as object) };
    };
    try {
      await cutRelay();
      await expect.poll(health, { timeout: 15_000 }).toEqual({
        httpStatus: 503,
        ok: false,
        status: 'degraded',
        database: 'down',
        realtime: 'reconnecting',
        storage: 'up',
      });
      expect((await fetch(`${server.url}/readyz`)).status).toBe(503);
      expect((await fetch(`${server.url}/livez`)).status).toBe(200);
    } finally {
      if (!relay?.listening) await startRelay();
    }
    await expect
      .poll(health, { timeout: 20_000 })
      .toEqual({ httpStatus: 200, ok: true, status: 'ok', database: 'up', realtime: 'up', storage: 'up' });
    expect(server.child.exitCode).toBeNull();
    await server.stop();
    await cutRelay();
    // A process started, a cut noticed and a recovery: each may take seconds on a busy machine.
  }, 90_000);
});
