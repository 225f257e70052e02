import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAuditLog } from '../../db/schema/admin.ts';
import { illegalContentFlags, userReports } from '../../db/schema/moderation.ts';
import { createSessionCookie, createSubAdmin, createUser } from '../../../../tests/support/factories.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';

describe('Report Management and Illegal Content', () => {
  let t: TestApp;
  let admin: { id: string; username: string; cookie: string };
  beforeAll(async () => {
    t = await createTestApp();
    const user = await createSubAdmin(t.db, ['reports', 'content']);
    admin = { id: user.id, username: user.username, cookie: (await createSessionCookie(t.db, user.id)).header };
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { cookie: admin.cookie } });
  const auditRowsOf = (objectId: string) =>
    t.db.select().from(adminAuditLog).where(eq(adminAuditLog.objectId, objectId));

  it('lists reports newest first with both usernames, filters by status, pages and sorts the other way', async () => {
    const [reporter, reported] = [await createUser(t.db), await createUser(t.db)];
    const base = Date.now() - 60_000;
    const inserted = await t.db
      .insert(userReports)
      .values(
        Array.from({ length: 30 }, (_, index) => ({
          reporterId: reporter.id,
          reportedUserId: reported.id,
          reason: 'spam' as const,
          description: `Report ${index}`,
          status: index % 2 === 0 ? ('pending' as const) : ('dismissed' as const),
          // Far in the future, so these are the newest reports of the shared database.
          createdAt: new Date(base + 10 * 365 * 24 * 3600_000 + index * 1000),
        })),
      )
      .returning({ id: userReports.id });

    const first = (await call('GET', '/api/admin/reports')).json();
    expect(first.items).toHaveLength(25);
    expect(first.items[0]).toMatchObject({
      id: inserted[29]!.id,
      reporter: { id: reporter.id, username: reporter.username },
      reportedUser: { id: reported.id, username: reported.username },
      reason: 'spam',
      status: 'dismissed',
      decidedBy: null,
    });
    const second = (await call('GET', `/api/admin/reports?cursor=${first.nextCursor}`)).json();
    const seen = [...first.items, ...second.items].map((item: { id: string }) => item.id);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.slice(0, 30)).toEqual(inserted.map((row) => row.id).reverse());

    const pending = (await call('GET', '/api/admin/reports?status=pending')).json();
    expect(pending.items.every((item: { status: string }) => item.status === 'pending')).toBe(true);
    const oldest = (await call('GET', '/api/admin/reports?order=oldest')).json();
    const times = oldest.items.map((item: { createdAt: string }) => Date.parse(item.createdAt));
    expect(times).toEqual([...times].sort((a, b) => a - b));

    const bad = await call('GET', '/api/admin/reports?status=nonsense');
    expect(bad.statusCode).toBe(400);
    expect((await call('GET', '/api/admin/reports?cursor=abc')).json().message).toBe('Invalid page cursor');
  });

  it('resolves a report with a note, shows who and when, and writes the audit row with it', async () => {
    const [reporter, reported] = [await createUser(t.db), await createUser(t.db)];
    const [report] = await t.db
      .insert(userReports)
      .values({ reporterId: reporter.id, reportedUserId: reported.id, reason: 'harassment', description: 'Rude' })
      .returning();

    const noNote = await call('POST', `/api/admin/reports/${report!.id}/decision`, { status: 'resolved', note: ' ' });
    expect(noNote.statusCode).toBe(400);
    expect(noNote.json().message).toBe('Please write a note.');
    const wrongStatus = await call('POST', `/api/admin/reports/${report!.id}/decision`, {
      status: 'pending',
      note: 'x',
    });
    expect(wrongStatus.statusCode).toBe(400);
    expect(await auditRowsOf(report!.id)).toEqual([]);
    const [unchanged] = await t.db.select().from(userReports).where(eq(userReports.id, report!.id));
    expect(unchanged).toMatchObject({ status: 'pending', decidedBy: null, decisionNote: null });

    const decided = await call('POST', `/api/admin/reports/${report!.id}/decision`, {
      status: 'resolved',
      note: '  Warned the user  ',
    });
    expect(decided.statusCode).toBe(200);
    expect(decided.json()).toMatchObject({
      status: 'resolved',
      decidedBy: { id: admin.id, username: admin.username },
      decisionNote: 'Warned the user',
    });
    expect(Date.now() - Date.parse(decided.json().decidedAt)).toBeLessThan(60_000);

    const [audit] = await auditRowsOf(report!.id);
    expect(audit).toMatchObject({
      actorId: admin.id,
      action: 'report.resolve',
      objectType: 'user_report',
      before: { status: 'pending' },
      after: { status: 'resolved', decisionNote: 'Warned the user' },
    });

    const again = await call('POST', `/api/admin/reports/${report!.id}/decision`, { status: 'dismissed', note: 'No' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This has already been decided.');
    expect(await auditRowsOf(report!.id)).toHaveLength(1);
    const unknown = await call('POST', `/api/admin/reports/${crypto.randomUUID()}/decision`, {
      status: 'dismissed',
      note: 'No',
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('lists flags with their sender and reviews or dismisses one with a note', async () => {
    const sender = await createUser(t.db);
    const [flag, other] = await t.db
      .insert(illegalContentFlags)
      .values([
        {
          flagType: 'phone',
          content: 'call 555 0101',
          description: 'Phone numbers are not allowed',
          senderId: sender.id,
        },
        { flagType: 'link', content: 'http://x.example', senderId: sender.id },
      ])
      .returning();
    const list = (await call('GET', '/api/admin/flags?status=pending')).json();
    expect(list.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: flag!.id,
          flagType: 'phone',
          content: 'call 555 0101',
          sender: { id: sender.id, username: sender.username },
          status: 'pending',
        }),
      ]),
    );

    const reviewed = await call('POST', `/api/admin/flags/${flag!.id}/decision`, { status: 'reviewed', note: 'Real' });
    expect(reviewed.json()).toMatchObject({ status: 'reviewed', decidedBy: { id: admin.id }, decisionNote: 'Real' });
    const dismissed = await call('POST', `/api/admin/flags/${other!.id}/decision`, {
      status: 'dismissed',
      note: 'Own site',
    });
    expect(dismissed.json().status).toBe('dismissed');
    expect(
      (await call('POST', `/api/admin/flags/${flag!.id}/decision`, { status: 'dismissed', note: 'x' })).statusCode,
    ).toBe(409);
    expect((await auditRowsOf(flag!.id)).map((row) => row.action)).toEqual(['flag.review']);
    expect((await auditRowsOf(other!.id)).map((row) => row.action)).toEqual(['flag.dismiss']);
  });
});
