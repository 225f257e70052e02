import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminMessages } from '#shared/schemas/admin.ts';
import { adminAuditLog, adminRoles } from '../../db/schema/admin.ts';
import { meetings } from '../../db/schema/meetings.ts';
import {
  createSessionCookie,
  createSubAdmin,
  createSuperAdminCookie,
  createUser,
} from '../../../../tests/support/factories.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { TEST_ADMIN } from '../../../../tests/support/test-config.ts';

describe('Sub-Admin Management, Meeting Statistics and the audit log', () => {
  let t: TestApp;
  let superAdmin: { userId: string; header: string };
  beforeAll(async () => {
    t = await createTestApp();
    superAdmin = await createSuperAdminCookie(t.db);
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, cookie = superAdmin.header) =>
    t.app.inject({ method, url, payload, headers: { cookie } });

  it('adds an account by e-mail or username, sets its permissions, lists it without the super-admin, removes it', async () => {
    const [byEmail, byName] = [await createUser(t.db), await createUser(t.db)];
    const added = await call('POST', '/api/admin/sub-admins', {
      account: byEmail.email.toUpperCase(),
      permissions: ['meetings', 'reports', 'reports'],
    });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({
      userId: byEmail.id,
      username: byEmail.username,
      roleName: 'sub_admin',
      permissions: ['reports', 'meetings'],
    });
    expect(
      (await call('POST', '/api/admin/sub-admins', { account: byName.username, permissions: ['users'] })).statusCode,
    ).toBe(201);

    const list = (await call('GET', '/api/admin/sub-admins')).json();
    const listed = list.items.map((item: { userId: string }) => item.userId);
    expect(listed).toEqual(expect.arrayContaining([byEmail.id, byName.id]));
    expect(listed).not.toContain(superAdmin.userId);
    expect(list.items.some((item: { roleName: string }) => item.roleName === 'super_admin')).toBe(false);
    // Created At sorts both ways: the one added second is first, then last.
    const ids = (items: Array<{ userId: string }>) =>
      items.map((item) => item.userId).filter((id) => id === byEmail.id || id === byName.id);
    expect(ids(list.items)).toEqual([byName.id, byEmail.id]);
    expect(ids((await call('GET', '/api/admin/sub-admins?order=oldest')).json().items)).toEqual([
      byEmail.id,
      byName.id,
    ]);
    expect((await call('GET', '/api/admin/sub-admins?order=sideways')).statusCode).toBe(400);

    const updated = await call('PUT', `/api/admin/sub-admins/${byEmail.id}`, { permissions: ['content'] });
    expect(updated.json().permissions).toEqual(['content']);
    const me = await t.app.inject({
      url: '/api/admin/me',
      headers: { cookie: (await createSessionCookie(t.db, byEmail.id)).header },
    });
    expect(me.json().permissions).toEqual(['content']);

    expect((await call('DELETE', `/api/admin/sub-admins/${byEmail.id}`)).statusCode).toBe(204);
    expect(await t.db.$count(adminRoles, eq(adminRoles.userId, byEmail.id))).toBe(0);
    const audit = await t.db.select().from(adminAuditLog).where(eq(adminAuditLog.objectId, byEmail.id));
    expect(audit.map((row) => row.action).sort()).toEqual(['sub_admin.add', 'sub_admin.remove', 'sub_admin.update']);
    expect(audit.find((row) => row.action === 'sub_admin.update')).toMatchObject({
      actorId: superAdmin.userId,
      before: { permissions: ['reports', 'meetings'] },
      after: { permissions: ['content'] },
    });
  });

  it('refuses bad input with its message and writes nothing', async () => {
    const user = await createUser(t.db);
    const cases: [object, number, string][] = [
      [{ account: user.email, permissions: [] }, 400, 'Choose at least one permission.'],
      [{ account: ' ', permissions: ['reports'] }, 400, 'Enter the e-mail address or username of an account.'],
      [{ account: 'a'.repeat(255), permissions: ['reports'] }, 400, adminMessages.accountTooLong],
      [
        { account: 'nobody-here@example.com', permissions: ['reports'] },
        404,
        'No account has this e-mail address or username.',
      ],
      [{ account: TEST_ADMIN.email, permissions: ['reports'] }, 409, 'This account already has an admin role.'],
      [{ account: user.email, permissions: ['everything'] }, 400, ''],
    ];
    const auditBefore = await t.db.$count(adminAuditLog);
    for (const [payload, status, message] of cases) {
      const response = await call('POST', '/api/admin/sub-admins', payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(status);
      if (message) expect(response.json().message).toBe(message);
    }
    expect(await t.db.$count(adminRoles, eq(adminRoles.userId, user.id))).toBe(0);
    expect(await t.db.$count(adminAuditLog)).toBe(auditBefore);
    // The super-admin is not a sub-admin: it cannot be changed or removed here.
    expect(
      (await call('PUT', `/api/admin/sub-admins/${superAdmin.userId}`, { permissions: ['reports'] })).statusCode,
    ).toBe(404);
    expect((await call('DELETE', `/api/admin/sub-admins/${superAdmin.userId}`)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/admin/sub-admins/${user.id}`)).statusCode).toBe(404);
  });

  it('shows every admin action in the audit log, newest first, and offers no way to change it', async () => {
    const subAdmin = await createSubAdmin(t.db, ['reports']);
    await call('PUT', `/api/admin/sub-admins/${subAdmin.id}`, { permissions: ['messages'] });
    const log = (await call('GET', '/api/admin/audit-log')).json();
    expect(log.items[0]).toMatchObject({
      actor: { id: superAdmin.userId },
      action: 'sub_admin.update',
      objectType: 'user',
      objectId: subAdmin.id,
      before: { permissions: ['reports'] },
      after: { permissions: ['messages'] },
    });
    const document = (await t.app.inject({ url: '/api/openapi.json' })).json<{ paths: Record<string, object> }>();
    const auditPaths = Object.entries(document.paths).filter(([path]) => path.includes('audit'));
    expect(auditPaths.map(([path, operations]) => [path, Object.keys(operations)])).toEqual([
      ['/api/admin/audit-log', ['get']],
    ]);
  });

  it('counts meetings and shows the 5 latest with Scheduled or Completed', async () => {
    const admin = await createSubAdmin(t.db, ['meetings']);
    const cookie = (await createSessionCookie(t.db, admin.id)).header;
    const before = (await call('GET', '/api/admin/meetings/stats', undefined, cookie)).json();
    const teacher = await createUser(t.db, { role: 'teacher' });
    const hour = 3600_000;
    const far = Date.now() + 10 * 365 * 24 * hour;
    await t.db.insert(meetings).values([
      ...Array.from({ length: 5 }, (_, index) => ({
        creatorId: teacher.id,
        title: `Past ${index}`,
        meetingId: `past-${index}`,
        joinUrl: 'https://meet.jit.si/x',
        startTime: new Date(Date.now() - hour),
        createdAt: new Date(far + index),
      })),
      {
        creatorId: teacher.id,
        title: 'Ahead',
        meetingId: 'ahead',
        joinUrl: 'https://meet.jit.si/y',
        startTime: new Date(Date.now() + hour),
        createdAt: new Date(far + 10),
      },
    ]);
    const stats = await call('GET', '/api/admin/meetings/stats', undefined, cookie);
    expect(stats.statusCode).toBe(200);
    expect(stats.json()).toMatchObject({
      totalMeetings: before.totalMeetings + 6,
      jitsiMeetings: before.jitsiMeetings + 6,
    });
    expect(
      stats
        .json()
        .recentMeetings.map((m: { title: string; status: string; platform: string }) => [
          m.title,
          m.status,
          m.platform,
        ]),
    ).toEqual([
      ['Ahead', 'Scheduled', 'Jitsi'],
      ['Past 4', 'Completed', 'Jitsi'],
      ['Past 3', 'Completed', 'Jitsi'],
      ['Past 2', 'Completed', 'Jitsi'],
      ['Past 1', 'Completed', 'Jitsi'],
    ]);
  });
});
