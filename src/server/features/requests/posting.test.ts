import { randomUUID } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { emailLogs, mailOutbox, teacherNotifications } from '../../db/schema/notifications.ts';
import { tutoringRequests } from '../../db/schema/requests.ts';
import { teacherSpecializations } from '../../db/schema/subjects.ts';
import { illegalContentFlags } from '../../db/schema/moderation.ts';
import { createSubject, createTeacher, createUser } from '../../../../tests/support/factories.ts';
import { signedInStudent, signedInTeacher, type Caller } from '../../../../tests/support/callers.ts';
import { postRequest, validRequest } from '../../../../tests/support/request-posting.ts';
import { connectSocket, nextEvent } from '../../../../tests/support/socket-client.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
describe('posting a request', () => {
  let t: TestApp;
  let url: string;
  let subjectId: string;
  let valid: ReturnType<typeof validRequest>;

  beforeAll(async () => {
    t = await createTestApp();
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    subjectId = (await createSubject(t.db)).id;
    valid = validRequest(subjectId);
  });
  afterAll(() => t.close());

  const requestCount = () => t.db.$count(tutoringRequests);

  describe('submitted twice with one Idempotency-Key', () => {
    const postWithKey = (caller: Caller, key: string) => postRequest(t, caller, valid, { 'idempotency-key': key });
    const roundsOfNotices = (requestIds: string[]) =>
      t.db.$count(teacherNotifications, inArray(teacherNotifications.requestId, requestIds));

    it('makes one request and one round of notifications, answering the repeat with it', async () => {
      await signedInTeacher(t, [subjectId]);
      const student = await signedInStudent(t);
      const key = randomUUID();
      const first = await postWithKey(student, key);
      const again = await postWithKey(student, key);
      expect([first.statusCode, again.statusCode]).toEqual([201, 200]);
      expect(again.json().request).toEqual(first.json().request);
      expect(await t.db.$count(tutoringRequests, eq(tutoringRequests.studentId, student.user.id))).toBe(1);
      const teachers = await roundsOfNotices([first.json().request.id]);
      expect(teachers).toBe(first.json().notifiedCount);
      // Another key is another request.
      expect((await postWithKey(student, randomUUID())).statusCode).toBe(201);
    });

    it('makes one request when 10 submits race', async () => {
      const student = await signedInStudent(t);
      const key = randomUUID();
      const responses = await Promise.all(Array.from({ length: 10 }, () => postWithKey(student, key)));
      expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
      expect(new Set(responses.map((r) => r.json().request.id)).size).toBe(1);
      expect(await t.db.$count(tutoringRequests, eq(tutoringRequests.studentId, student.user.id))).toBe(1);
    });

    it('refuses a key that is not a UUID', async () => {
      const student = await signedInStudent(t);
      const response = await postWithKey(student, 'not-a-uuid');
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('The Idempotency-Key header must be a UUID');
      expect(await t.db.$count(tutoringRequests, eq(tutoringRequests.studentId, student.user.id))).toBe(0);
    });
  });

  it('answers 401 without a session and 403 to a teacher, writing nothing', async () => {
    const before = await requestCount();
    const signedOut = await postRequest(t, undefined, valid);
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.json()).toEqual({ code: 'UNAUTHENTICATED', message: 'Not authenticated' });
    const teacher = await postRequest(t, await signedInTeacher(t, [subjectId]), valid);
    expect(teacher.statusCode).toBe(403);
    expect(teacher.json()).toMatchObject({ code: 'FORBIDDEN', message: 'Only students can do this.' });
    expect(await requestCount()).toBe(before);
  });

  it('stores an open request and tells exactly the confirmed teachers of its subject, in the same transaction', async () => {
    const subject = await createSubject(t.db, { name: 'Organic Synthesis' });
    const other = await createSubject(t.db);
    const teachers = await Promise.all(
      [1, 2, 3].map(() => createTeacher(t.db, { subjectIds: [subject.id, other.id] })),
    );
    await createTeacher(t.db, { subjectIds: [other.id] });
    await createTeacher(t.db, { subjectIds: [subject.id], emailVerified: false });
    // A student holding a stale specialization row is no teacher.
    const strayStudent = await createUser(t.db, { role: 'student' });
    await t.db.insert(teacherSpecializations).values({ teacherId: strayStudent.id, subjectId: subject.id });
    const student = await signedInStudent(t);
    const description = `${'Stereochemistry of ring closures, step by step. '.repeat(3)}End.`;

    const response = await postRequest(t, student, {
      ...valid,
      subjectId: subject.id,
      type: 'assignment',
      budgetMinCents: 500,
      description,
      level: 'graduate',
      topic: 'Ring closures',
    });
    expect(response.statusCode).toBe(201);
    const { request, notifiedCount } = response.json();
    expect(notifiedCount).toBe(3);
    expect(request).toMatchObject({
      type: 'assignment',
      subjectId: subject.id,
      subjectName: 'Organic Synthesis',
      description,
      budgetMinCents: 500,
      budgetMaxCents: 1500,
      status: 'open',
      level: 'graduate',
      topic: 'Ring closures',
      attachments: [],
      acceptedBidId: null,
    });
    const [stored] = await t.db.select().from(tutoringRequests).where(eq(tutoringRequests.id, request.id));
    expect(stored).toMatchObject({ studentId: student.user.id, status: 'open' });

    const told = await t.db.select().from(teacherNotifications).where(eq(teacherNotifications.requestId, request.id));
    expect(told.map((row) => row.teacherId).sort()).toEqual(teachers.map((teacher) => teacher.id).sort());
    const first = told.find((row) => row.teacherId === teachers[0]!.id)!;
    expect(first).toMatchObject({
      subjectTitle: 'Organic Synthesis',
      budget: '$5 - $15',
      description: `${description.slice(0, 100).trimEnd()}…`,
      jobUrl: `/teacher/jobs?highlight=${request.id}`,
      teacherEmail: teachers[0]!.email,
      read: false,
    });
  });

  it('describes an open-ended budget as "$5+" and keeps a short description whole', async () => {
    const subject = await createSubject(t.db);
    await createTeacher(t.db, { subjectIds: [subject.id] });
    const response = await postRequest(t, await signedInStudent(t), {
      ...valid,
      subjectId: subject.id,
      type: 'assignment',
      budgetMinCents: 500,
      budgetMaxCents: undefined,
      description: 'Essay on Kant',
    });
    expect(response.json().request.budgetMaxCents).toBe(999_900);
    const [row] = await t.db
      .select()
      .from(teacherNotifications)
      .where(eq(teacherNotifications.requestId, response.json().request.id));
    expect(row).toMatchObject({ budget: '$5+', description: 'Essay on Kant' });
  });

  it('queues one e-mail per teacher told and logs each, logging an invalid address as failed without troubling the student', async () => {
    const subject = await createSubject(t.db, { name: 'Topology' });
    const good = await createTeacher(t.db, { subjectIds: [subject.id] });
    const bad = await createTeacher(t.db, { subjectIds: [subject.id], email: `not-an-address-${Date.now()}` });
    const student = await signedInStudent(t);
    const response = await postRequest(t, student, { ...valid, subjectId: subject.id });
    expect(response.statusCode).toBe(201);
    expect(response.json().notifiedCount).toBe(2);
    const requestId = response.json().request.id;

    const mails = await t.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, good.email));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('New job available - Virtual Help');
    expect(mails[0]!.textBody).toContain(`Hello ${good.username},`);
    expect(mails[0]!.textBody).toContain(
      `${student.user.username} posted a new tutoring request in Topology ($8 - $15)`,
    );
    expect(mails[0]!.textBody).toContain(`${t.config.publicUrl}/teacher/jobs?highlight=${requestId}`);
    expect(mails[0]!.textBody).toContain(`Sent by ${student.user.username}`);
    expect(mails[0]!.textBody).toContain('you have a teacher account');
    expect(await t.db.$count(mailOutbox, eq(mailOutbox.toAddress, bad.email))).toBe(0);

    const notificationIds = (
      await t.db
        .select({ id: teacherNotifications.id })
        .from(teacherNotifications)
        .where(eq(teacherNotifications.requestId, requestId))
    ).map((row) => row.id);
    const logs = await t.db
      .select()
      .from(emailLogs)
      .where(sql`${emailLogs.notificationId} in ${notificationIds}`);
    expect(
      logs
        .map(({ recipientEmail, notificationType, status, error }) => ({
          recipientEmail,
          notificationType,
          status,
          error,
        }))
        .sort((a, b) => a.status.localeCompare(b.status)),
    ).toEqual([
      { recipientEmail: bad.email, notificationType: 'new_job', status: 'failed', error: 'Invalid email format' },
      { recipientEmail: good.email, notificationType: 'new_job', status: 'queued', error: null },
    ]);
  });

  it('fans out in a fixed number of statements, whatever the number of teachers', async () => {
    const statementsFor = async (teacherCount: number) => {
      const subject = await createSubject(t.db);
      for (let i = 0; i < teacherCount; i++) await createTeacher(t.db, { subjectIds: [subject.id] });
      const student = await signedInStudent(t);
      // Watches the statements on their way to the database; they still run.
      const query = vi.spyOn(pg.Client.prototype, 'query');
      let statements: unknown[][];
      try {
        const response = await postRequest(t, student, { ...valid, subjectId: subject.id });
        expect(response.json().notifiedCount).toBe(teacherCount);
      } finally {
        statements = [...query.mock.calls];
        query.mockRestore();
      }
      const seen = statements
        .map(([statement]: unknown[]) =>
          typeof statement === 'string' ? statement : (statement as { text?: string } | undefined)?.text,
        )
        .filter((text): text is string => text !== undefined && /^\s*(insert|with)/i.test(text));
      return {
        writes: seen.length,
        teacherNotificationWrites: seen.filter((text) => text.includes('insert into "teacher_notifications"')).length,
        mailWrites: seen.filter((text) => text.includes('insert into "mail_outbox"')).length,
      };
    };
    const few = await statementsFor(1);
    const many = await statementsFor(25);
    expect(many).toEqual(few);
    expect(many.teacherNotificationWrites).toBe(1);
    expect(many.mailWrites).toBe(1);
  });

  it('tells the matching teachers live: job:new and notification:new, and no one else', async () => {
    const subject = await createSubject(t.db);
    const teacher = await signedInTeacher(t, [subject.id]);
    const outsiderSubject = await createSubject(t.db);
    const outsider = await signedInTeacher(t, [outsiderSubject.id]);
    const [teacherSocket, outsiderSocket] = await Promise.all([
      connectSocket(url, { cookie: teacher.cookie }),
      connectSocket(url, { cookie: outsider.cookie }),
    ]);
    const outsiderHeard: string[] = [];
    outsiderSocket.on('job:new', ({ requestId }) => outsiderHeard.push(requestId));
    outsiderSocket.on('notification:new', ({ requestId }) => outsiderHeard.push(`notified of ${requestId}`));
    const job = nextEvent(teacherSocket, 'job:new');
    const notification = nextEvent(teacherSocket, 'notification:new');
    const response = await postRequest(t, await signedInStudent(t), { ...valid, subjectId: subject.id });
    const requestId = response.json().request.id;
    expect(await job).toEqual([{ requestId, subjectId: subject.id, type: 'tutoring' }]);
    expect(await notification).toEqual([{ kind: 'job', requestId }]);
    // The sentinel: a later request in the outsider's own subject. Its events come in order on the outsider's
    // socket, so the first request's would have arrived before them.
    const outsiderNotified = nextEvent(outsiderSocket, 'notification:new');
    const sentinel = await postRequest(t, await signedInStudent(t), { ...valid, subjectId: outsiderSubject.id });
    await outsiderNotified;
    const sentinelId = sentinel.json().request.id;
    expect(outsiderHeard).toEqual([sentinelId, `notified of ${sentinelId}`]);
    teacherSocket.close();
    outsiderSocket.close();
  });

  it.each([
    ['type', { type: 'lesson' }, 'Please choose a request type'],
    ['subjectId', { subjectId: 'maths' }, 'Please choose a subject'],
    ['subjectId', { subjectId: '2b0b3b1e-6a4f-4f7e-9a55-000000000000' }, 'Unknown subject'],
    ['description', { description: 'Too short' }, 'Description must be at least 10 characters'],
    ['budgetMinCents', { budgetMinCents: -100 }, 'Budget must be 0 or more'],
    [
      'budgetMaxCents',
      { budgetMinCents: 1400, budgetMaxCents: 900 },
      'Maximum budget must be greater than or equal to minimum budget',
    ],
    ['budgetMinCents', { budgetMinCents: 700 }, 'Budget must be within allowed range for the selected request type'],
    ['budgetMaxCents', { budgetMaxCents: 2000 }, 'Budget must be within allowed range for the selected request type'],
    [
      'budgetMaxCents',
      { type: 'assignment', budgetMinCents: 500, budgetMaxCents: 600_000 },
      'Budget must be within allowed range for the selected request type',
    ],
    ['budgetMinCents', { budgetMinCents: 799 }, 'Budget must be within allowed range for the selected request type'],
    ['budgetMaxCents', { budgetMaxCents: 1501 }, 'Budget must be within allowed range for the selected request type'],
    [
      'budgetMaxCents',
      { type: 'assignment', budgetMinCents: 500, budgetMaxCents: 500_001 },
      'Budget must be within allowed range for the selected request type',
    ],
    [
      'budgetMinCents',
      { type: 'assignment', budgetMinCents: 499 },
      'Budget must be within allowed range for the selected request type',
    ],
    // A fraction of a cent is no amount: refused, never rounded.
    ['budgetMinCents', { budgetMinCents: 800.5 }, 'Please enter a budget'],
    ['budgetMaxCents', { budgetMaxCents: '15.00' }, 'Please enter a budget'],
    ['deadline', { deadline: '2020-01-01T00:00:00Z' }, 'Deadline must be in the future'],
    ['level', { level: 'primary' }, 'Please choose an education level'],
  ])('refuses a bad %s with the SPEC message and writes nothing', async (field, change, message) => {
    const before = await requestCount();
    const response = await postRequest(t, await signedInStudent(t), { ...valid, ...change });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED', message, fields: { [field]: message } });
    expect(await requestCount()).toBe(before);
  });

  it('is documented in the OpenAPI document with every marketplace route', async () => {
    const { paths } = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    for (const route of [
      '/api/requests',
      '/api/requests/mine',
      '/api/requests/{id}',
      '/api/requests/{id}/bids',
      '/api/requests/{id}/bids/{bidId}/accept',
      '/api/requests/{id}/attachments/{index}',
      '/api/jobs',
      '/api/jobs/{requestId}/bids',
      '/api/notifications',
      '/api/notifications/{id}/read',
      '/api/notifications/read-all',
    ]) {
      expect(paths[route], route).toBeDefined();
    }
    expect(paths['/api/requests'].post.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['type', 'subjectId', 'description', 'budgetMinCents']),
    );
  });
});

describe('moderation of requests', () => {
  let t: TestApp;
  let subjectId: string;
  beforeAll(async () => {
    t = await createTestApp();
    subjectId = (await createSubject(t.db)).id;
  });
  afterAll(() => t.close());

  it.each([
    ['description', { description: 'Call me on 079 123 45 67 for the details please' }],
    ['topic', { description: 'I need help with quadratic equations', topic: 'see https://example.com/x' }],
  ])('refuses contact details in the %s: 400, nothing stored, a flag recorded', async (field, texts) => {
    const student = await signedInStudent(t);
    const before = await t.db.$count(tutoringRequests);
    const response = await postRequest(t, student, {
      type: 'tutoring',
      subjectId,
      budgetMinCents: 800,
      budgetMaxCents: 1500,
      ...texts,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'MESSAGE_BLOCKED', fields: { [field]: expect.any(String) } });
    expect(await t.db.$count(tutoringRequests)).toBe(before);
    expect(await t.db.$count(illegalContentFlags, eq(illegalContentFlags.senderId, student.user.id))).toBe(1);
  });
});
