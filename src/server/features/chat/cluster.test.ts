import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import type { ChatMessage } from '#shared/schemas/chat.ts';
import { startCluster, type Cluster } from '../../../../tests/support/cluster.ts';
import { describeOnPostgres } from '../../../../tests/support/test-database.ts';
import type { ServerProcess } from '../../../../tests/support/server-process.ts';
import { connectSocket, nextEvent, type TestSocket } from '../../../../tests/support/socket-client.ts';

// ARCHITECTURE.md §6: two server processes on loopback against one PostgreSQL; the Socket.IO PostgreSQL adapter
// carries a message sent through one process to a client connected to the other.
const template = inject('databaseTemplate');

describeOnPostgres('chat across two server processes', () => {
  const sockets: TestSocket[] = [];
  let cluster: Cluster;

  beforeAll(async () => {
    if (template.kind === 'postgres') cluster = await startCluster(template.url, { name: 'cluster' });
  });

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await cluster.stop();
  });

  const signedIn = () => cluster.signedIn();

  it('delivers a message sent through one process to a socket on the other, both ways', async () => {
    const [first, second] = cluster.servers as [ServerProcess, ServerProcess];
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
    const [first, second] = cluster.servers as [ServerProcess, ServerProcess];
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
