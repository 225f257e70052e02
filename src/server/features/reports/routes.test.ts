import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminMessages } from '#shared/schemas/admin.ts';
import { reportMessages } from '#shared/schemas/reports.ts';
import { userReports } from '../../db/schema/moderation.ts';
import { createSubAdmin, createUser } from '../../../../tests/support/factories.ts';
import { call, signedInStudent, signIn, type Caller } from '../../../../tests/support/callers.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';

describe('report a user', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const report = (caller: Caller | undefined, payload: Record<string, unknown>) =>
    call(t, caller, 'POST', '/api/reports', payload);
  const reportsBy = (reporterId: string) =>
    t.db.select().from(userReports).where(eq(userReports.reporterId, reporterId));

  it('shows who is reported, without their e-mail address', async () => {
    const reporter = await signedInStudent(t);
    const target = await createUser(t.db, { role: 'teacher' });
    const response = await call(t, reporter, 'GET', `/api/reports/targets/${target.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: target.id, username: target.username, role: 'teacher', image: null });
    expect(response.body).not.toMatch(/@/);
    expect((await call(t, undefined, 'GET', `/api/reports/targets/${target.id}`)).statusCode).toBe(401);
  });

  it('files a report, then adds a second one to it while it is pending, and starts anew once reviewed', async () => {
    const reporter = await signedInStudent(t);
    const target = await createUser(t.db, { role: 'teacher' });
    const first = await report(reporter, { reportedUserId: target.id, reason: 'spam', description: '  Sends ads ' });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      merged: false,
      report: { reportedUserId: target.id, reason: 'spam', description: 'Sends ads', status: 'pending' },
    });

    const second = await report(reporter, { reportedUserId: target.id, reason: 'scam', description: 'Asked money' });
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({ merged: true, report: { id: first.json().report.id, reason: 'spam' } });
    expect(await reportsBy(reporter.user.id)).toEqual([
      expect.objectContaining({ description: 'Sends ads\n\nScam: Asked money', status: 'pending' }),
    ]);

    await t.db.update(userReports).set({ status: 'reviewed' }).where(eq(userReports.reporterId, reporter.user.id));
    const third = await report(reporter, { reportedUserId: target.id, reason: 'other', description: 'Again' });
    expect(third.statusCode).toBe(201);
    expect(await reportsBy(reporter.user.id)).toHaveLength(2);
  });

  it('makes one report of racing submissions by one reporter', async () => {
    const reporter = await signedInStudent(t);
    const target = await createUser(t.db);
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, n) =>
        report(reporter, { reportedUserId: target.id, reason: 'harassment', description: `Insult ${n}` }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 200, 200, 200, 201]);
    const [only, ...none] = await reportsBy(reporter.user.id);
    expect(none).toEqual([]);
    for (let n = 0; n < 5; n++) expect(only!.description).toContain(`Insult ${n}`);
  });

  it('refuses empty fields with "Please fill in all fields", writing nothing', async () => {
    const reporter = await signedInStudent(t);
    const target = await createUser(t.db);
    for (const payload of [
      { reportedUserId: target.id, reason: 'spam', description: '   ' },
      { reportedUserId: target.id, reason: 'spam' },
      { reportedUserId: target.id, reason: '', description: 'x' },
      { reportedUserId: target.id, reason: 'rude', description: 'x' },
      { reportedUserId: '', reason: 'spam', description: 'x' },
      {},
    ]) {
      const response = await report(reporter, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().message).toBe(reportMessages.fillAll);
    }
    const long = await report(reporter, { reportedUserId: target.id, reason: 'spam', description: 'x'.repeat(2001) });
    expect(long.json().message).toBe(reportMessages.tooLong);
    expect(await reportsBy(reporter.user.id)).toEqual([]);
  });

  it('answers a report about an admin exactly as one about anyone else, and the admin cannot decide it', async () => {
    const reporter = await signedInStudent(t);
    const admin = await createSubAdmin(t.db, ['reports']);
    const member = await createUser(t.db);
    /** The answers the reporter gets, with the ids and times that differ in any case set aside. */
    const answersAbout = async (userId: string) => {
      const target = await call(t, reporter, 'GET', `/api/reports/targets/${userId}`);
      const filed = await report(reporter, { reportedUserId: userId, reason: 'spam', description: 'Sends ads' });
      const { id, username, ...targetRest } = target.json<Record<string, unknown>>();
      const {
        id: reportId,
        createdAt,
        reportedUserId,
        ...reportRest
      } = filed.json<{ report: object }>().report as Record<string, unknown>;
      expect([id, username, reportId, createdAt, reportedUserId].every(Boolean)).toBe(true);
      return [target.statusCode, targetRest, filed.statusCode, reportRest, Object.keys(filed.headers).sort()];
    };
    expect(await answersAbout(admin.id)).toEqual(await answersAbout(member.id));

    const [filed] = await t.db.select().from(userReports).where(eq(userReports.reportedUserId, admin.id));
    const asAdmin = await signIn(t, admin);
    const own = await call(t, asAdmin, 'POST', `/api/admin/reports/${filed!.id}/decision`, {
      status: 'dismissed',
      note: 'Nothing here',
    });
    expect([own.statusCode, own.json().message]).toEqual([403, adminMessages.ownReport]);
    expect((await t.db.select().from(userReports).where(eq(userReports.id, filed!.id)))[0]?.status).toBe('pending');
  });

  it('refuses reporting yourself, a system account or nobody, each with its message', async () => {
    const reporter = await signedInStudent(t);
    const someone = await createUser(t.db);
    const system = await createUser(t.db, { isSystem: true });
    for (const [userId, status, message] of [
      [reporter.user.id, 400, reportMessages.self],
      [system.id, 404, reportMessages.notFound],
      [randomUUID(), 404, reportMessages.notFound],
    ] as const) {
      const target = await call(t, reporter, 'GET', `/api/reports/targets/${userId}`);
      expect([target.statusCode, target.json().message]).toEqual([status, message]);
      const filed = await report(reporter, { reportedUserId: userId, reason: 'spam', description: 'x' });
      expect([filed.statusCode, filed.json().message]).toEqual([status, message]);
    }
    expect(await reportsBy(reporter.user.id)).toEqual([]);
    expect((await report(undefined, { reportedUserId: someone.id, reason: 'spam', description: 'x' })).statusCode).toBe(
      401,
    );
  });

  it('limits how many reports one user files in an hour', async () => {
    const reporter = await signIn(t, await createUser(t.db));
    const statuses = [];
    for (let n = 0; n < 11; n++) {
      const target = await createUser(t.db);
      statuses.push(
        (await report(reporter, { reportedUserId: target.id, reason: 'spam', description: 'x' })).statusCode,
      );
    }
    expect(statuses).toEqual([...Array(10).fill(201), 429]);
  });
});
