import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ChatMessage } from '#shared/schemas/chat.ts';
import { openDatabase, type DatabaseHandle } from '../../db/client.ts';
import { createSessionCookie, createUser } from '../../../../tests/support/factories.ts';
import { startServerProcess, type ServerProcess } from '../../../../tests/support/server-process.ts';
import { connectSocket, nextEvent, type TestSocket } from '../../../../tests/support/socket-client.ts';
import { TEST_AUTH_SECRET } from '../../../../tests/support/test-config.ts';
import { withAdminClient } from '../../../../tests/support/test-database.ts';

// ARCHITECTURE.md §6: two server processes on loopback against one PostgreSQL; the Socket.IO PostgreSQL adapter
// carries a message sent through one process to a client connected to the other.
const command = [process.execPath, '--import', 'tsx', 'src/server/main.ts'];
const template = inject('databaseTemplate');

describe.runIf(template.kind === 'postgres')('chat across two server processes', () => {
  const servers: ServerProcess[] = [];
  const sockets: TestSocket[] = [];
  let database: DatabaseHandle;
  let databaseName: string;

  beforeAll(async () => {
    if (template.kind !== 'postgres') return;
    // An empty database: the first process migrates and seeds it, as a real deployment would.
    databaseName = `vh_cluster_${randomBytes(6).toString('hex')}`;
    await withAdminClient(template.url, (client) => client.query(`create database ${databaseName}`));
    const url = new URL(template.url);
    url.pathname = `/${databaseName}`;
    const env = { DATABASE_URL: url.toString(), AUTH_SECRET: TEST_AUTH_SECRET, ADMIN_PASSWORD: 'Admin-password-1' };
    for (let n = 0; n < 2; n++) {
      servers.push(
        await startServerProcess(
          command,
          { ...env, DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'vh-node-')) },
          60_000,
        ),
      );
    }
    database = await openDatabase({ kind: 'postgres', url: url.toString() });
  });

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await Promise.all(servers.map((server) => server.stop()));
    await database.close();
    if (template.kind === 'postgres') {
      await withAdminClient(template.url, (client) =>
        client.query(`drop database if exists ${databaseName} with (force)`),
      );
    }
  });

  const signedIn = async () => {
    const user = await createUser(database.db);
    return { ...user, cookie: (await createSessionCookie(database.db, user.id)).header };
  };

  it('delivers a message sent through one process to a socket on the other, both ways', async () => {
    const [first, second] = servers as [ServerProcess, ServerProcess];
    const [alice, bob] = [await signedIn(), await signedIn()];
    const [aliceSocket, bobSocket] = await Promise.all([
      connectSocket(first.url, { cookie: alice.cookie }),
      connectSocket(second.url, { cookie: bob.cookie }),
    ]);
    sockets.push(aliceSocket, bobSocket);

    const arrived = nextEvent(bobSocket, 'message:new', 10_000);
    // The sender's own sockets get the message too; it must be consumed before listening for the reply.
    const echoed = nextEvent(aliceSocket, 'message:new', 10_000);
    const response = await fetch(`${first.url}/api/chat/messages`, {
      method: 'POST',
      headers: { cookie: alice.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: randomUUID(), receiverId: bob.id, content: 'Hello from the first process' }),
    });
    expect(response.status).toBe(201);
    const sent = (await response.json()) as ChatMessage;
    expect((await arrived)[0]).toEqual(sent);
    expect((await echoed)[0]).toEqual(sent);

    // Over 8,000 bytes a NOTIFY cannot carry the event: the adapter passes it through socket_io_attachments.
    const long = `${'A long answer. '.repeat(600)}`.trim();
    const reply = nextEvent(aliceSocket, 'message:new', 10_000);
    const ack = await bobSocket
      .timeout(10_000)
      .emitWithAck('message:send', { clientId: randomUUID(), receiverId: alice.id, content: long });
    expect(ack).toMatchObject({ ok: true });
    expect((await reply)[0]).toMatchObject({ senderId: bob.id, content: long });
  });

  it('closes the sockets of a session ended through the other process', async () => {
    const [first, second] = servers as [ServerProcess, ServerProcess];
    const carol = await signedIn();
    const socket = await connectSocket(second.url, { cookie: carol.cookie });
    sockets.push(socket);
    const ended = new Promise<boolean>((resolve) => {
      let told = false;
      socket.once('session:ended', () => (told = true));
      socket.once('disconnect', () => resolve(told));
    });
    const signOut = await fetch(`${first.url}/api/auth/sign-out`, {
      method: 'POST',
      headers: { cookie: carol.cookie },
    });
    expect(signOut.status).toBe(200);
    expect(await ended).toBe(true);
  });
});
