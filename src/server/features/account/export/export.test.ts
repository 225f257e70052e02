import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMessages } from '#shared/schemas/account.ts';
import { dataExports } from '../../../db/schema/account.ts';
import { userReports } from '../../../db/schema/moderation.ts';
import { notifications } from '../../../db/schema/notifications.ts';
import { runJobOnce } from '../../../platform/jobs/interval-jobs.ts';
import { call, signIn, type Caller } from '../../../../../tests/support/callers.ts';
import {
  createReviewedJob,
  createSubject,
  createTeacher,
  createUser,
  freshClientAddress,
} from '../../../../../tests/support/factories.ts';
import { formData, TINY_PNG } from '../../../../../tests/support/files.ts';
import { waitForDevMails } from '../../../../../tests/support/mailbox.ts';
import { createTestApp, type TestApp } from '../../../../../tests/support/test-app.ts';
import { fromNow, HOUR_MS } from '../../../../../tests/support/time.ts';
import { readZip } from '../../../../../tests/support/zip.ts';
import { expiredDataExportsJob } from './service.ts';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');

describe('Download my data', () => {
  let t: TestApp;
  let student: Caller;
  let teacher: Caller;
  let stranger: Caller;
  let avatarKey: string;
  let chatFileKey: string;

  const ok = async (response: Awaited<ReturnType<typeof call>>) => {
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json();
  };
  const latest = async (caller: Caller) =>
    (await call(t, caller, 'GET', '/api/account/exports/latest')).json<{
      export: { id: string; status: string } | null;
    }>().export;
  /** Waits for the export the app's worker builds (woken by the request). */
  const readyExport = async (caller: Caller) => {
    for (let tries = 0; tries < 200; tries++) {
      const current = await latest(caller);
      if (current?.status === 'ready') return current;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('The export was not built');
  };

  beforeAll(async () => {
    t = await createTestApp();
    const subjectId = (await createSubject(t.db)).id;
    student = await signIn(t, await createUser(t.db, { role: 'student', fullName: 'Ada Student' }));
    teacher = await signIn(t, await createTeacher(t.db, { subjectIds: [subjectId] }));
    stranger = await signIn(t, await createUser(t.db, { role: 'student' }));

    // A request with an attachment, a bid on it, a conversation with a file and a meeting, a review written,
    // a report filed and one received, a notification, a picture.
    const request = await ok(
      await call(
        t,
        student,
        'POST',
        '/api/requests',
        formData(
          { type: 'tutoring', subjectId, description: 'Help with quadratic equations', budgetMinCents: '800' },
          { field: 'attachments', bytes: PDF, filename: 'notes.pdf', type: 'application/pdf' },
        ),
      ),
    );
    await ok(
      await call(t, teacher, 'POST', `/api/jobs/${request.request.id}/bids`, {
        amountCents: 900,
        message: 'I can help.',
      }),
    );
    const upload = await ok(
      await call(
        t,
        student,
        'POST',
        '/api/chat/uploads',
        formData({}, { field: 'file', bytes: TINY_PNG, filename: 'graph.png', type: 'image/png' }),
      ),
    );
    chatFileKey = upload.fileKey;
    const message = await ok(
      await call(t, student, 'POST', '/api/chat/messages', {
        clientId: randomUUID(),
        receiverId: teacher.user.id,
        content: 'Here is my graph',
        attachment: { fileKey: upload.fileKey, originalFilename: upload.originalFilename },
      }),
    );
    await ok(
      await call(t, teacher, 'POST', '/api/chat/messages', {
        clientId: randomUUID(),
        receiverId: student.user.id,
        content: 'Thanks, got it',
      }),
    );
    await ok(
      await call(t, teacher, 'POST', `/api/chat/rooms/${message.roomId}/meetings`, {
        title: 'Quadratics',
        startTime: fromNow(2 * HOUR_MS).toISOString(),
      }),
    );
    const avatar = await ok(
      await call(
        t,
        student,
        'POST',
        '/api/profile/avatar',
        formData({}, { field: 'avatar', bytes: TINY_PNG, filename: 'me.png', type: 'image/png' }),
      ),
    );
    avatarKey = (avatar.image as string).replace('/api/files/', '');
    await createReviewedJob(t.db, { pair: { studentId: student.user.id, tutorId: teacher.user.id } });
    await t.db.insert(userReports).values([
      { reporterId: student.user.id, reportedUserId: stranger.user.id, reason: 'spam', description: 'Sends adverts' },
      { reporterId: stranger.user.id, reportedUserId: student.user.id, reason: 'spam', description: 'SECRET-REPORT' },
    ]);
    await t.db.insert(notifications).values({ userId: student.user.id, message: 'Welcome aboard', link: '/chat' });
  });
  afterAll(() => t.close());

  it('builds one zip with a JSON file per kind, the user’s own files and a README; notices in-app and by e-mail', async () => {
    const started = await call(t, student, 'POST', '/api/account/exports');
    expect(started.statusCode).toBe(202);
    expect(started.json()).toMatchObject({ status: 'building' });
    const ready = await readyExport(student);

    const download = await call(t, student, 'GET', `/api/account/exports/${ready.id}/download`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/zip');
    expect(download.headers['content-disposition']).toMatch(
      /attachment; filename="virtual-help-data-\d{4}-\d{2}-\d{2}\.zip"/,
    );
    expect(download.headers['cache-control']).toBe('private, no-store');
    const files = readZip(download.rawPayload);
    const json = (name: string) => JSON.parse(files.get(name)!.toString('utf8')) as Record<string, unknown>;
    expect([...files.keys()]).toEqual(
      expect.arrayContaining([
        'README.txt',
        'profile.json',
        'requests.json',
        'bids.json',
        'jobs.json',
        'messages.json',
        'meetings.json',
        'reviews.json',
        'reports.json',
        'notifications.json',
        `files/${chatFileKey}`,
      ]),
    );
    expect(files.get('README.txt')!.toString()).toContain('reports about you are not included');
    expect(json('profile.json')).toMatchObject({ email: student.user.email, fullName: 'Ada Student' });
    expect(json('requests.json')).toEqual(
      expect.arrayContaining([expect.objectContaining({ description: 'Help with quadratic equations' })]),
    );
    expect((json('bids.json').received as unknown[]).length).toBe(2);
    const contents = (json('messages.json') as unknown as Array<{ content: string }>).map((m) => m.content);
    expect(contents).toEqual(expect.arrayContaining(['Here is my graph', 'Thanks, got it']));
    expect(json('meetings.json')).toEqual([expect.objectContaining({ title: 'Quadratics' })]);
    expect((json('reviews.json').written as unknown[]).length).toBe(1);
    expect(json('reports.json')).toEqual([expect.objectContaining({ description: 'Sends adverts' })]);
    expect(json('notifications.json').general).toEqual(
      expect.arrayContaining([expect.objectContaining({ message: 'Welcome aboard' })]),
    );
    // Every file the user uploaded, byte for byte; nothing of anyone else's.
    expect(files.get(`files/${chatFileKey}`)!.equals(TINY_PNG)).toBe(true);
    expect(files.get(`files/${avatarKey}`)!.equals(TINY_PNG)).toBe(true);
    expect([...files.keys()].filter((name) => name.startsWith('files/'))).toHaveLength(3);
    const everything = [...files.values()].map((file) => file.toString('latin1')).join('\n');
    expect(everything).not.toContain(stranger.user.email);
    expect(everything).not.toContain(teacher.user.email);
    expect(everything).not.toContain('SECRET-REPORT');

    expect(
      await t.db.$count(
        notifications,
        sql`${notifications.userId} = ${student.user.id} and ${notifications.message} = ${accountMessages.exportReady}`,
      ),
    ).toBe(1);
    await waitForDevMails(t.app, student.user.email, { subject: /ready to download/ });
  });

  it('is for its owner only: another user gets 404, nobody signed in 401, a malformed id 400', async () => {
    const { id } = (await latest(student))!;
    expect((await call(t, stranger, 'GET', `/api/account/exports/${id}/download`)).statusCode).toBe(404);
    expect((await call(t, teacher, 'GET', `/api/account/exports/${id}/download`)).statusCode).toBe(404);
    expect((await call(t, undefined, 'GET', `/api/account/exports/${id}/download`)).statusCode).toBe(401);
    expect((await call(t, undefined, 'POST', '/api/account/exports')).statusCode).toBe(401);
    expect((await call(t, undefined, 'GET', '/api/account/exports/latest')).statusCode).toBe(401);
    expect((await call(t, student, 'GET', '/api/account/exports/nope/download')).statusCode).toBe(400);
    expect(await latest(stranger)).toBeNull();
  });

  it('builds one export at a time per user', async () => {
    const caller = await signIn(t, await createUser(t.db));
    // Held by a claim that has not lapsed, so the app's worker leaves it building.
    await t.db.insert(dataExports).values({
      userId: caller.user.id,
      claimToken: randomUUID(),
      claimedUntil: fromNow(HOUR_MS),
    });
    const second = await call(t, caller, 'POST', '/api/account/exports', undefined, {
      remoteAddress: freshClientAddress(),
    });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ message: accountMessages.exportInProgress });
    expect(await t.db.$count(dataExports, eq(dataExports.userId, caller.user.id))).toBe(1);
  });

  it('works for 7 days, then its file is deleted and the link refused', async () => {
    const { id } = (await latest(student))!;
    const [row] = await t.db.select().from(dataExports).where(eq(dataExports.id, id));
    expect(row!.expiresAt!.getTime() - row!.readyAt!.getTime()).toBe(7 * 24 * HOUR_MS);
    await t.db
      .update(dataExports)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(dataExports.id, id));
    const refused = await call(t, student, 'GET', `/api/account/exports/${id}/download`);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ message: accountMessages.exportGone });

    const storage = (await import('../../../platform/storage/storage.ts')).createStorage(t.config.storage, t.app.log);
    expect(await storage.get(row!.fileKey!)).not.toBeNull();
    await runJobOnce({ db: t.db, job: expiredDataExportsJob(storage) });
    expect(await storage.get(row!.fileKey!)).toBeNull();
    const [after] = await t.db.select().from(dataExports).where(eq(dataExports.id, id));
    expect(after).toMatchObject({ status: 'expired', fileKey: null });
  });
});
