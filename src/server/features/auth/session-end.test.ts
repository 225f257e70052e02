import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../db/schema/auth.ts';
import { runJobOnce } from '../../platform/jobs/interval-jobs.ts';
import { createSessionCookie, createUser, freshClientAddress } from '../../../../tests/support/factories.ts';
import { linkIn, waitForDevMails } from '../../../../tests/support/mailbox.ts';
import type { TestSocket } from '../../../../tests/support/socket-client.ts';
import { createListeningTestApp, type ListeningTestApp } from '../../../../tests/support/test-app.ts';
import { sessionLifetimeJob } from './session-lifetime.ts';

/** Resolves true once the socket is disconnected by the server, after it was told its session ended. */
const endedBy = (socket: TestSocket) =>
  new Promise<boolean>((resolve) => {
    let told = false;
    socket.once('session:ended', () => (told = true));
    socket.once('disconnect', () => resolve(told));
  });

describe('a session that ends', () => {
  let t: ListeningTestApp;
  beforeAll(async () => {
    t = await createListeningTestApp();
  });
  afterAll(() => t.close());

  const open = (cookie: string) => t.connect(cookie);
  const profileStatus = async (cookie: string) =>
    (await t.app.inject({ method: 'GET', url: '/api/profile', headers: { cookie } })).statusCode;

  it('closes its sockets at sign-out, and only its own', async () => {
    const user = await createUser(t.db);
    const [leaving, staying] = [await createSessionCookie(t.db, user.id), await createSessionCookie(t.db, user.id)];
    const [leavingSocket, stayingSocket] = [await open(leaving.header), await open(staying.header)];
    const ended = endedBy(leavingSocket);
    // Resolved once before, so the process holds it: the sign-out must drop it.
    expect(await profileStatus(leaving.header)).toBe(200);

    const signOut = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { cookie: leaving.header },
    });
    expect(signOut.statusCode).toBe(200);
    expect(await ended).toBe(true);
    expect(await profileStatus(leaving.header)).toBe(401);
    // The other device is still signed in and connected: a message to it still arrives.
    expect(stayingSocket.connected).toBe(true);
    const arrived = new Promise<void>((resolve) => stayingSocket.once('session:ended', () => resolve()));
    t.realtime.toUsers([user.id], 'session:ended');
    await arrived;
  });

  it('closes every socket of the user when all sessions are revoked', async () => {
    const user = await createUser(t.db);
    const cookies = [await createSessionCookie(t.db, user.id), await createSessionCookie(t.db, user.id)];
    const ended = (await Promise.all(cookies.map((cookie) => open(cookie.header)))).map(endedBy);
    const revoke = await t.app.inject({
      method: 'POST',
      url: '/api/auth/revoke-sessions',
      headers: { cookie: cookies[0]!.header },
    });
    expect(revoke.statusCode).toBe(200);
    expect(await Promise.all(ended)).toEqual([true, true]);
  });

  it('closes every socket of the user when the password is reset', async () => {
    const user = await createUser(t.db);
    const cookie = await createSessionCookie(t.db, user.id);
    const ended = endedBy(await open(cookie.header));
    const asked = await t.app.inject({
      method: 'POST',
      url: '/api/auth/request-password-reset',
      payload: { email: user.email, redirectTo: '/auth/reset-password' },
      remoteAddress: freshClientAddress(),
    });
    expect(asked.statusCode).toBe(200);
    const [mail] = await waitForDevMails(t.app, user.email);
    const token = new URL(linkIn(mail!.text)).pathname.split('/').pop()!;
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token, newPassword: 'Another-pass1' },
      remoteAddress: freshClientAddress(),
    });
    expect(reset.statusCode).toBe(200);
    expect(await ended).toBe(true);
    expect(await profileStatus(cookie.header)).toBe(401);
  });

  it('ends the sockets of a session that expired unused', async () => {
    const user = await createUser(t.db);
    const cookie = await createSessionCookie(t.db, user.id);
    const ended = endedBy(await open(cookie.header));
    await t.db
      .update(sessions)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(sessions.userId, user.id));
    expect(await runJobOnce({ db: t.db, job: sessionLifetimeJob((id) => t.realtime.endSession(id)) })).toBe(true);
    expect(await ended).toBe(true);
  });

  it('ends a session 30 days after its sign-in however busy it is kept, with its sockets', async () => {
    const user = await createUser(t.db);
    const [old, fresh] = [await createSessionCookie(t.db, user.id), await createSessionCookie(t.db, user.id)];
    const ended = endedBy(await open(old.header));
    const [oldRow] = await t.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, user.id));
    await t.db
      .update(sessions)
      .set({ createdAt: sql`now() - interval '30 days 1 minute'` })
      .where(eq(sessions.id, oldRow!.id));

    const endedIds: string[] = [];
    const job = sessionLifetimeJob((id) => {
      endedIds.push(id);
      t.realtime.endSession(id);
    });
    expect(await runJobOnce({ db: t.db, job })).toBe(true);
    expect(endedIds).toEqual([oldRow!.id]);
    expect(await ended).toBe(true);
    const statuses = [await profileStatus(old.header), await profileStatus(fresh.header)];
    expect(statuses.sort()).toEqual([200, 401]);
  });
});
