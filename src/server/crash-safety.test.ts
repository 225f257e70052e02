import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { connectSocket, type TestSocket } from '../../tests/support/socket-client.ts';
import { TEST_AUTH_SECRET } from '../../tests/support/test-config.ts';
import { withAdminClient } from '../../tests/support/test-database.ts';
import { SERVER_COMMAND, startServerProcess, type ServerProcess } from '../../tests/support/server-process.ts';
import { uniqueWord } from '../../tests/support/words.ts';

// The server process under chat load, killed with SIGKILL at random moments and started again: every message it
// acknowledged must be stored exactly once, and it must come back each time (the data-directory lock of a dead
// owner is taken over). `npm run test:faults` kills it 20 times; the normal suite a few.
const KILLS = Number(process.env.CRASH_KILLS ?? 3);
const IN_FLIGHT = 8;
// A restart on a busy machine (other test processes, a fresh embedded data directory) may take a while.
const START_TIMEOUT_MS = 120_000;

const template = inject('databaseTemplate');
const usesPostgres = template.kind === 'postgres';

describe(`a server killed under chat load (${usesPostgres ? 'PostgreSQL' : 'embedded database'})`, () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vh-crash-'));
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    AUTH_SECRET: TEST_AUTH_SECRET,
    ADMIN_PASSWORD: 'Admin-password-1',
    REQUIRE_EMAIL_CONFIRMATION: 'false',
    // Each account speaks as a client of its own behind a loopback proxy, as real users do: the per-address
    // sign-in and registration limits then count one client, not every round of the test from 127.0.0.1.
    TRUST_PROXY: 'loopback',
  };
  let connection: pg.ClientConfig = { host: dataDir, port: 5432, user: 'postgres', database: 'postgres' };
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    if (template.kind !== 'postgres') return;
    const name = `vh_crash_${randomBytes(6).toString('hex')}`;
    await withAdminClient(template.url, (client) => client.query(`create database ${name}`));
    const url = new URL(template.url);
    url.pathname = `/${name}`;
    env.DATABASE_URL = url.toString();
    connection = { connectionString: env.DATABASE_URL };
    return () =>
      withAdminClient(template.url, (client) => client.query(`drop database if exists ${name} with (force)`));
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** A registered, signed-in user of the running server, as its id and session cookie. */
  async function account(url: string) {
    const name = `crash${randomBytes(4).toString('hex')}`;
    const credentials = { email: `${name}@example.com`, password: 'secret1' };
    const client = { 'x-forwarded-for': `10.${randomBytes(3).join('.')}` };
    const registered = await fetch(`${url}/api/accounts/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...client },
      body: JSON.stringify({
        name,
        ...credentials,
        role: 'student',
        acceptTerms: true,
        acceptPrivacy: true,
        confirmAge: true,
      }),
    });
    expect(registered.status).toBe(201);
    const signedIn = await fetch(`${url}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...client },
      body: JSON.stringify(credentials),
    });
    expect(signedIn.status).toBe(200);
    const { user } = (await signedIn.json()) as { user: { id: string } };
    const cookie = signedIn.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    return { id: user.id, cookie };
  }

  /** Sends until the socket dies, IN_FLIGHT at a time; resolves with the client ids the server acknowledged. */
  async function sendUntilKilled(socket: TestSocket, receiverId: string) {
    const acknowledged: string[] = [];
    const sender = async () => {
      while (socket.connected) {
        const clientId = randomUUID();
        try {
          const ack = await socket
            .timeout(5_000)
            .emitWithAck('message:send', { clientId, receiverId, content: `load ${uniqueWord()}` });
          if (ack.ok) acknowledged.push(clientId);
        } catch {
          return; // the server died with this one in flight: not acknowledged
        }
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, sender));
    return acknowledged;
  }

  it(
    `stores every acknowledged message exactly once across ${KILLS} kills`,
    async () => {
      server = await startServerProcess(SERVER_COMMAND, env, START_TIMEOUT_MS);
      const bob = await account(server.url);
      const acknowledged: string[] = [];

      for (let kill = 0; kill < KILLS; kill++) {
        // A new sender each round, so the per-user message ceiling never holds the load back.
        const sender = await account(server.url);
        const socket = await connectSocket(server.url, { cookie: sender.cookie });
        const sending = sendUntilKilled(socket, bob.id);
        await new Promise((resolve) => setTimeout(resolve, 300 + Math.random() * 1200));
        const exited = new Promise((resolve) => server!.child.once('exit', resolve));
        server.child.kill('SIGKILL');
        await exited;
        acknowledged.push(...(await sending));
        socket.close();
        server = await startServerProcess(SERVER_COMMAND, env, START_TIMEOUT_MS);
      }

      expect(acknowledged.length).toBeGreaterThan(KILLS);
      const client = new pg.Client(connection);
      await client.connect();
      const { rows } = await client.query<{ client_id: string; copies: number }>(
        'select client_id, count(*)::int as copies from messages where receiver_id = $1 group by client_id',
        [bob.id],
      );
      await client.end();
      const stored = new Map(rows.map((row) => [row.client_id, row.copies]));
      const missing = acknowledged.filter((clientId) => stored.get(clientId) !== 1);
      expect(missing).toEqual([]);
      expect(rows.every((row) => row.copies === 1)).toBe(true);
      console.info(`crash safety: ${KILLS} kills survived, ${acknowledged.length} acknowledged messages checked`);
    },
    START_TIMEOUT_MS + KILLS * 60_000,
  );
});
