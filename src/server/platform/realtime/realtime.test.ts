import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSessionCookie, createUser } from '../../../../tests/support/factories.ts';
import { connectSocket, nextEvent } from '../../../../tests/support/socket-client.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';

describe('realtime connections', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await createTestApp({}, { socketSessionCheckMs: 300 });
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t.close());

  it('refuses a connection without a session', async () => {
    await expect(connectSocket(url)).rejects.toThrow('UNAUTHENTICATED');
  });

  it('refuses a connection from another site even with a valid session', async () => {
    const user = await createUser(t.db);
    const { header } = await createSessionCookie(t.db, user.id);
    await expect(connectSocket(url, { cookie: header, origin: 'https://evil.example' })).rejects.toThrow();
  });

  it('delivers an event to every socket of the user it is for, and to no one else', async () => {
    const alice = await createUser(t.db);
    const bob = await createUser(t.db);
    const aliceCookie = (await createSessionCookie(t.db, alice.id)).header;
    const [phone, laptop, bobSocket] = await Promise.all([
      connectSocket(url, { cookie: aliceCookie, origin: t.config.publicUrl }),
      connectSocket(url, { cookie: aliceCookie }),
      connectSocket(url, { cookie: (await createSessionCookie(t.db, bob.id)).header }),
    ]);
    let bobReceived = false;
    bobSocket.on('session:ended', () => (bobReceived = true));
    const received = Promise.all([nextEvent(phone, 'session:ended'), nextEvent(laptop, 'session:ended')]);
    t.realtime.toUsers([alice.id], 'session:ended');
    // A sentinel for Bob after it: one socket's events arrive in order, so Alice's would have come first.
    const sentinel = nextEvent(bobSocket, 'room:updated');
    t.realtime.toUsers([bob.id], 'room:updated', { roomId: 'sentinel' });
    await received;
    expect(await sentinel).toEqual([{ roomId: 'sentinel' }]);
    expect(bobReceived).toBe(false);
    for (const socket of [phone, laptop, bobSocket]) socket.close();
  });

  it('ends the socket of a session that ended without a notice, at its next check', async () => {
    const user = await createUser(t.db);
    const socket = await connectSocket(url, { cookie: (await createSessionCookie(t.db, user.id)).header });
    const ended = nextEvent(socket, 'session:ended', 15_000);
    // As a notice lost with the fan-out would leave it: gone from the database, no node told.
    await t.pool.query('delete from sessions where user_id = $1', [user.id]);
    await ended;
    socket.close();
  });

  it('ends the sockets of a session when it ends', async () => {
    const user = await createUser(t.db);
    const cookie = await createSessionCookie(t.db, user.id);
    const socket = await connectSocket(url, { cookie: cookie.header });
    const [session] = await t.pool
      .query<{ id: string }>('select id from sessions where user_id = $1', [user.id])
      .then((r) => r.rows);
    const disconnected = new Promise((resolve) => socket.once('disconnect', resolve));
    t.realtime.endSession(session!.id);
    await disconnected;
    expect(socket.connected).toBe(false);
  });
});
