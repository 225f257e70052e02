import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { startCluster, type Cluster } from '../../../../tests/support/cluster.ts';
import { createSessionCookie, createSubAdmin } from '../../../../tests/support/factories.ts';
import type { ServerProcess } from '../../../../tests/support/server-process.ts';
import { connectSocket, nextEvent, type TestSocket } from '../../../../tests/support/socket-client.ts';
import { describeOnPostgres } from '../../../../tests/support/test-database.ts';

// Each process keeps a session it resolved for a few seconds; ending the session through one process must make
// the other refuse it at once, not when its copy runs out.
const template = inject('databaseTemplate');

describeOnPostgres('a session ended through one of two server processes', () => {
  const sockets: TestSocket[] = [];
  let cluster: Cluster;

  beforeAll(async () => {
    if (template.kind === 'postgres') cluster = await startCluster(template.url, { name: 'sessions' });
  });

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await cluster.stop();
  });

  const profileStatus = async (server: ServerProcess, cookie: string) =>
    (await fetch(`${server.url}/api/profile`, { headers: { cookie } })).status;

  /** Signed in on the second process, with a socket there, and the session resolved there (so kept). */
  const signedInOnSecond = async () => {
    const [, second] = cluster.servers as [ServerProcess, ServerProcess];
    const user = await cluster.signedIn();
    const socket = await connectSocket(second.url, { cookie: user.cookie });
    sockets.push(socket);
    expect(await profileStatus(second, user.cookie)).toBe(200);
    // The notice to the socket travels on the bus that also drops the kept session: once it arrived, it is gone.
    return { user, ended: nextEvent(socket, 'session:ended', 10_000) };
  };

  it('is refused by the other process right after sign-out', async () => {
    const [first, second] = cluster.servers as [ServerProcess, ServerProcess];
    const { user, ended } = await signedInOnSecond();
    const signOut = await fetch(`${first.url}/api/auth/sign-out`, { method: 'POST', headers: { cookie: user.cookie } });
    expect(signOut.status).toBe(200);
    await ended;
    expect(await profileStatus(second, user.cookie)).toBe(401);
  });

  it('is refused by the other process right after a suspension', async () => {
    const [first, second] = cluster.servers as [ServerProcess, ServerProcess];
    const { user, ended } = await signedInOnSecond();
    const admin = await createSubAdmin(cluster.database.db, ['users']);
    const adminCookie = (await createSessionCookie(cluster.database.db, admin.id)).header;
    const suspension = await fetch(`${first.url}/api/admin/users/${user.id}/suspension`, {
      method: 'POST',
      headers: { cookie: adminCookie, 'content-type': 'application/json' },
      body: JSON.stringify({ reason: 'Spam' }),
    });
    expect(suspension.status).toBe(200);
    await ended;
    expect(await profileStatus(second, user.cookie)).toBe(401);
  });
});
