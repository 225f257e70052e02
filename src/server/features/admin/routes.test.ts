import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRooms } from '../../db/schema/chat.ts';
import { illegalContentFlags, userReports } from '../../db/schema/moderation.ts';
import {
  SESSION_COOKIE,
  createSessionCookie,
  createSubAdmin,
  createUser,
  freshClientAddress,
} from '../../../../tests/support/factories.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { TEST_ADMIN } from '../../../../tests/support/test-config.ts';

describe('admin access and dashboard', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const get = async (url: string, userId?: string) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: userId ? { cookie: (await createSessionCookie(t.db, userId)).header } : {},
    });

  it('lets the seeded super-admin sign in with the configured address and password', async () => {
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: TEST_ADMIN,
      remoteAddress: freshClientAddress(),
    });
    expect(signIn.statusCode).toBe(200);
    const cookie = signIn.cookies.find((c) => c.name === SESSION_COOKIE)!;
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/admin/me',
      headers: { cookie: `${cookie.name}=${cookie.value}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ roleName: 'super_admin', isSuperAdmin: true });
    expect(me.json().permissions).toContain('dashboard');
  });

  it('answers who the admin is: 401 signed out, 403 for students and teachers, a sub-admin’s own permissions', async () => {
    expect((await get('/api/admin/me')).statusCode).toBe(401);
    for (const role of ['student', 'teacher'] as const) {
      const user = await createUser(t.db, { role });
      const response = await get('/api/admin/me', user.id);
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe('Only admins can do this.');
    }
    const subAdmin = await createSubAdmin(t.db, ['reports', 'dashboard']);
    const response = await get('/api/admin/me', subAdmin.id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      roleName: 'moderator',
      isSuperAdmin: false,
      permissions: ['dashboard', 'reports'],
      twoFactorEnabled: false,
      twoFactorRequired: false,
    });
  });

  it('gives the dashboard counters only to admins with the dashboard permission', async () => {
    expect((await get('/api/admin/stats')).statusCode).toBe(401);
    expect((await get('/api/admin/stats', (await createUser(t.db)).id)).statusCode).toBe(403);
    const withoutDashboard = await createSubAdmin(t.db, ['reports']);
    const refused = await get('/api/admin/stats', withoutDashboard.id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Your admin role does not include this page.');
    expect((await get('/api/admin/stats', (await createSubAdmin(t.db, ['dashboard'])).id)).statusCode).toBe(200);
  });

  it('counts chats, users, pending reports and pending flags to match the rows', async () => {
    const admin = await createSubAdmin(t.db, ['dashboard']);
    const before = (await get('/api/admin/stats', admin.id)).json();

    const [a, b, c] = [await createUser(t.db), await createUser(t.db), await createUser(t.db)];
    await t.db.insert(chatRooms).values([
      { participant1Id: a.id, participant2Id: b.id },
      { participant1Id: a.id, participant2Id: c.id },
    ]);
    await t.db.insert(userReports).values([
      { reporterId: a.id, reportedUserId: b.id, reason: 'spam', description: 'Ads' },
      { reporterId: a.id, reportedUserId: c.id, reason: 'spam', description: 'Ads', status: 'resolved' },
    ]);
    await t.db.insert(illegalContentFlags).values([
      { flagType: 'offensive', content: 'x', senderId: a.id },
      { flagType: 'offensive', content: 'y', senderId: a.id, status: 'dismissed' },
    ]);

    const after = await get('/api/admin/stats', admin.id);
    expect(after.statusCode).toBe(200);
    expect(after.headers['cache-control']).toBe('no-store');
    expect(after.json()).toEqual({
      totalChats: before.totalChats + 2,
      totalUsers: before.totalUsers + 3,
      activeReports: before.activeReports + 1,
      flaggedContent: before.flaggedContent + 1,
      payments: null,
    });
  });
});
