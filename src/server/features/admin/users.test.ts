import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAuditLog } from '../../db/schema/admin.ts';
import { sessions, users } from '../../db/schema/auth.ts';
import { tutorBids } from '../../db/schema/requests.ts';
import { illegalContentFlags, userReports } from '../../db/schema/moderation.ts';
import {
  DEFAULT_TEST_PASSWORD,
  createRequest,
  createSessionCookie,
  createSubAdmin,
  createSubject,
  createUser,
  freshClientAddress,
} from '../../../../tests/support/factories.ts';
import { connectSocket, type TestSocket } from '../../../../tests/support/socket-client.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';

describe('a user’s page, suspending and reinstating', () => {
  let t: TestApp;
  let url: string;
  let admin: { id: string; cookie: string };
  const sockets: TestSocket[] = [];
  beforeAll(async () => {
    t = await createTestApp();
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const user = await createSubAdmin(t.db, ['users']);
    admin = { id: user.id, cookie: (await createSessionCookie(t.db, user.id)).header };
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await t.close();
  });

  const call = (method: 'GET' | 'POST', path: string, payload?: object) =>
    t.app.inject({ method, url: path, payload, headers: { cookie: admin.cookie } });
  const signIn = (email: string, password = DEFAULT_TEST_PASSWORD) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email, password },
      remoteAddress: freshClientAddress(),
    });
  /** Resolves true once the server disconnects the socket after telling it its session ended. */
  const endedBy = (socket: TestSocket) =>
    new Promise<boolean>((resolve) => {
      let told = false;
      socket.once('session:ended', () => (told = true));
      socket.once('disconnect', () => resolve(told));
    });

  it('ends every session and socket of a suspended user at once, and refuses their sign-in with a clear message', async () => {
    const user = await createUser(t.db);
    const cookies = [await createSessionCookie(t.db, user.id), await createSessionCookie(t.db, user.id)];
    const connected = await Promise.all(cookies.map((cookie) => connectSocket(url, { cookie: cookie.header })));
    sockets.push(...connected);
    const ended = connected.map(endedBy);

    const suspended = await call('POST', `/api/admin/users/${user.id}/suspension`, { reason: ' Spam in every chat ' });
    expect(suspended.statusCode).toBe(200);
    expect(suspended.json().profile).toMatchObject({ id: user.id, suspensionReason: 'Spam in every chat' });
    expect(await Promise.all(ended)).toEqual([true, true]);
    for (const cookie of cookies) {
      const profile = await t.app.inject({ url: '/api/profile', headers: { cookie: cookie.header } });
      expect(profile.statusCode).toBe(401);
    }
    expect(await t.db.$count(sessions, eq(sessions.userId, user.id))).toBe(0);

    const refused = await signIn(user.email);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      code: 'ACCOUNT_SUSPENDED',
      message: 'Your account has been suspended by an administrator. Contact support if you think this is a mistake.',
    });
    // A wrong password still reads as a wrong password: the suspension is told only to the account's owner.
    expect((await signIn(user.email, 'Wrong-password1')).statusCode).toBe(401);
    expect(await t.db.$count(sessions, eq(sessions.userId, user.id))).toBe(0);

    const again = await call('POST', `/api/admin/users/${user.id}/suspension`, { reason: 'Twice' });
    expect(again.statusCode).toBe(409);

    const reinstated = await call('POST', `/api/admin/users/${user.id}/reinstatement`, { reason: 'Apologised' });
    expect(reinstated.statusCode).toBe(200);
    expect(reinstated.json().profile).toMatchObject({ suspendedAt: null, suspensionReason: null });
    expect((await signIn(user.email)).statusCode).toBe(200);

    const audit = await t.db.select().from(adminAuditLog).where(eq(adminAuditLog.objectId, user.id));
    expect(audit.map((row) => [row.action, row.actorId, row.after])).toEqual(
      expect.arrayContaining([
        ['user.suspend', admin.id, { suspended: true, reason: 'Spam in every chat' }],
        ['user.reinstate', admin.id, { suspended: false, reason: 'Apologised' }],
      ]),
    );
    expect(audit).toHaveLength(2);
  });

  it('signs nobody in with a session that slipped past the suspension (created while it was being written)', async () => {
    const user = await createUser(t.db, { suspendedAt: new Date(), suspensionReason: 'Spam' });
    const cookie = await createSessionCookie(t.db, user.id);
    expect((await t.app.inject({ url: '/api/profile', headers: { cookie: cookie.header } })).statusCode).toBe(401);
    await expect(connectSocket(url, { cookie: cookie.header })).rejects.toThrow();
  });

  it('refuses a suspension without a reason, of an admin or of nobody, and changes nothing', async () => {
    const user = await createUser(t.db);
    const cookie = await createSessionCookie(t.db, user.id);
    const noReason = await call('POST', `/api/admin/users/${user.id}/suspension`, { reason: '  ' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().message).toBe('Please give a reason.');
    const otherAdmin = await createSubAdmin(t.db, ['reports']);
    const ofAdmin = await call('POST', `/api/admin/users/${otherAdmin.id}/suspension`, { reason: 'No' });
    expect(ofAdmin.statusCode).toBe(409);
    expect(ofAdmin.json().message).toBe('An admin cannot be suspended; remove the admin role first.');
    const unknown = await call('POST', `/api/admin/users/${crypto.randomUUID()}/suspension`, { reason: 'No' });
    expect(unknown.statusCode).toBe(404);
    const notSuspended = await call('POST', `/api/admin/users/${user.id}/reinstatement`, { reason: 'Why' });
    expect(notSuspended.statusCode).toBe(409);

    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.suspendedAt).toBeNull();
    expect((await t.app.inject({ url: '/api/profile', headers: { cookie: cookie.header } })).statusCode).toBe(200);
    expect(await t.db.$count(adminAuditLog, eq(adminAuditLog.objectId, user.id))).toBe(0);
  });

  it('shows profile, role, VH number, requests, bids, reports by and against the user, and flags', async () => {
    const subject = await createSubject(t.db);
    const student = await createUser(t.db, { role: 'student' });
    const teacher = await createUser(t.db, { role: 'teacher' });
    const request = await createRequest(t.db, { studentId: student.id, subjectId: subject.id });
    await t.db.insert(tutorBids).values({ requestId: request.id, tutorId: teacher.id, amountCents: 900 });
    await t.db.insert(userReports).values([
      { reporterId: student.id, reportedUserId: teacher.id, reason: 'spam', description: 'By the student' },
      { reporterId: teacher.id, reportedUserId: student.id, reason: 'scam', description: 'Against the student' },
    ]);
    await t.db.insert(illegalContentFlags).values({ flagType: 'email', content: 'me@x.example', senderId: student.id });

    const page = await call('GET', `/api/admin/users/${student.id}`);
    expect(page.statusCode).toBe(200);
    const body = page.json();
    expect(body.profile).toMatchObject({
      id: student.id,
      username: student.username,
      role: 'student',
      vhNumber: student.vhNumber,
      adminRole: null,
      suspendedAt: null,
    });
    expect(body.requests).toEqual([expect.objectContaining({ id: request.id, subjectName: subject.name })]);
    expect(body.reportsBy.map((report: { description: string }) => report.description)).toEqual(['By the student']);
    expect(body.reportsAgainst.map((report: { description: string }) => report.description)).toEqual([
      'Against the student',
    ]);
    expect(body.flags).toEqual([expect.objectContaining({ flagType: 'email', content: 'me@x.example' })]);

    const teacherPage = (await call('GET', `/api/admin/users/${teacher.id}`)).json();
    expect(teacherPage.bids).toEqual([
      expect.objectContaining({ requestId: request.id, amountCents: 900, status: 'pending' }),
    ]);
    expect((await call('GET', `/api/admin/users/${crypto.randomUUID()}`)).statusCode).toBe(404);
  });
});
