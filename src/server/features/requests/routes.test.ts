import { randomUUID } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { emailLogs, mailOutbox, teacherNotifications } from '../../db/schema/notifications.ts';
import { tutorBids, tutoringRequests } from '../../db/schema/requests.ts';
import { teacherSpecializations } from '../../db/schema/subjects.ts';
import { illegalContentFlags } from '../../db/schema/moderation.ts';
import { createRequest, createSubject, createTeacher, createUser } from '../../../../tests/support/factories.ts';
import { TINY_PNG, pngOfSize } from '../../../../tests/support/files.ts';
import { call, signedInStudent, signedInTeacher, type Caller } from '../../../../tests/support/callers.ts';
import { connectSocket, nextEvent } from '../../../../tests/support/socket-client.ts';
import { createTestApp, storedKeys, type TestApp } from '../../../../tests/support/test-app.ts';
import { INVALID_CURSOR_MESSAGE } from '#shared/schemas/cursor.ts';
import { HOUR_MS } from '../../../../tests/support/time.ts';

const hoursAgo = (hours: number) => new Date(Date.now() - hours * HOUR_MS);

// Request creation is rate limited per address: each call speaks from its own.
let lastAddress = 0;
const post = (t: TestApp, caller: Caller | undefined, payload: object | FormData) =>
  call(t, caller, 'POST', '/api/requests', payload, {
    remoteAddress: `10.1.${Math.floor(++lastAddress / 250)}.${lastAddress % 250}`,
  });

/** A multipart request form with these files in "attachments". */
function requestForm(
  fields: Record<string, string | number>,
  files: { bytes: Uint8Array; filename: string; type?: string }[],
) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, String(value));
  for (const file of files)
    form.append(
      'attachments',
      new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'application/octet-stream' }),
      file.filename,
    );
  return form;
}

const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');
const ZIP = Buffer.from('504b0304140000000800', 'hex');

describe('posting a request', () => {
  let t: TestApp;
  let url: string;
  let subjectId: string;
  let valid: { type: string; subjectId: string; description: string; budgetMinCents: number; budgetMaxCents: number };

  beforeAll(async () => {
    t = await createTestApp();
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    subjectId = (await createSubject(t.db)).id;
    valid = {
      type: 'tutoring',
      subjectId,
      description: 'I need help with quadratic equations',
      budgetMinCents: 800,
      budgetMaxCents: 1500,
    };
  });
  afterAll(() => t.close());

  const requestCount = () => t.db.$count(tutoringRequests);

  describe('submitted twice with one Idempotency-Key', () => {
    const postWithKey = (caller: Caller, key: string) =>
      call(t, caller, 'POST', '/api/requests', valid, {
        headers: { 'idempotency-key': key },
        remoteAddress: `10.2.${Math.floor(++lastAddress / 250)}.${lastAddress % 250}`,
      });
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
    const signedOut = await post(t, undefined, valid);
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.json()).toEqual({ code: 'UNAUTHENTICATED', message: 'Not authenticated' });
    const teacher = await post(t, await signedInTeacher(t, [subjectId]), valid);
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

    const response = await post(t, student, {
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
    const response = await post(t, await signedInStudent(t), {
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
    const response = await post(t, student, { ...valid, subjectId: subject.id });
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
        const response = await post(t, student, { ...valid, subjectId: subject.id });
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
    const response = await post(t, await signedInStudent(t), { ...valid, subjectId: subject.id });
    const requestId = response.json().request.id;
    expect(await job).toEqual([{ requestId, subjectId: subject.id, type: 'tutoring' }]);
    expect(await notification).toEqual([{ kind: 'job', requestId }]);
    // The sentinel: a later request in the outsider's own subject. Its events come in order on the outsider's
    // socket, so the first request's would have arrived before them.
    const outsiderNotified = nextEvent(outsiderSocket, 'notification:new');
    const sentinel = await post(t, await signedInStudent(t), { ...valid, subjectId: outsiderSubject.id });
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
    const response = await post(t, await signedInStudent(t), { ...valid, ...change });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED', message, fields: { [field]: message } });
    expect(await requestCount()).toBe(before);
  });

  describe('with attachments (multipart)', () => {
    const storedFiles = () => storedKeys(t, 'request-attachments/');

    it('stores images and documents typed from their bytes, and lists them with download links', async () => {
      const student = await signedInStudent(t);
      const form = requestForm({ ...valid, budgetMaxCents: '' }, [
        { bytes: TINY_PNG, filename: 'diagram.png', type: 'image/png' },
        { bytes: PDF, filename: 'notes.pdf', type: 'application/pdf' },
        // Text dressed up as an image: stored as what it is.
        { bytes: Buffer.from('x² + 3x − 4 = 0\n'), filename: 'equation.png', type: 'image/png' },
      ]);
      const response = await post(t, student, form);
      expect(response.statusCode).toBe(201);
      const { request } = response.json();
      expect(request.budgetMaxCents).toBe(1500);
      expect(request.attachments).toEqual([
        {
          index: 0,
          name: 'diagram.png',
          type: 'image/png',
          size: TINY_PNG.length,
          url: `/api/requests/${request.id}/attachments/0`,
        },
        {
          index: 1,
          name: 'notes.pdf',
          type: 'application/pdf',
          size: PDF.length,
          url: `/api/requests/${request.id}/attachments/1`,
        },
        {
          index: 2,
          // The name says what the file really is.
          name: 'equation.png.txt',
          type: 'text/plain',
          size: Buffer.byteLength('x² + 3x − 4 = 0\n'),
          url: `/api/requests/${request.id}/attachments/2`,
        },
      ]);

      const download = await call(t, student, 'GET', request.attachments[2].url);
      expect(download.statusCode).toBe(200);
      expect(download.headers['content-type']).toMatch(/^text\/plain/);
      expect(download.headers['x-content-type-options']).toBe('nosniff');
      expect(download.headers['content-disposition']).toBe(
        `attachment; filename="equation.png.txt"; filename*=UTF-8''equation.png.txt`,
      );
      expect(download.body).toBe('x² + 3x − 4 = 0\n');
    });

    it('cleans the file name the client sent: no folders, no control characters', async () => {
      const student = await signedInStudent(t);
      const form = requestForm(valid, [{ bytes: PDF, filename: '..\\..\\secret\u0007/notes\u0000.pdf' }]);
      const response = await post(t, student, form);
      expect(response.statusCode).toBe(201);
      expect(response.json().request.attachments[0].name).toBe('notes.pdf');
    });

    it('refuses a file name carrying contact details, storing neither request nor file', async () => {
      const student = await signedInStudent(t);
      const [requestsBefore, filesBefore] = [await t.db.$count(tutoringRequests), (await storedFiles()).length];
      const response = await post(
        t,
        student,
        requestForm(valid, [{ bytes: PDF, filename: 'write me at jane.doe@example.com.pdf' }]),
      );
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'MESSAGE_BLOCKED', fields: { attachments: expect.any(String) } });
      expect(await t.db.$count(tutoringRequests)).toBe(requestsBefore);
      expect(await storedFiles()).toHaveLength(filesBefore);
    });

    it.each([
      [
        'more than 10 files',
        Array.from({ length: 11 }, (_, i) => ({ bytes: TINY_PNG, filename: `p${i}.png` })),
        'Maximum files reached - You can only upload up to 10 files.',
      ],
      [
        'a file over 10 MB',
        [
          { bytes: TINY_PNG, filename: 'ok.png' },
          { bytes: pngOfSize(10 * 1024 * 1024 + 10), filename: 'huge.png' },
        ],
        'File too large - Maximum file size is 10MB. Your file is over 10 MB.',
      ],
      [
        'an archive',
        [{ bytes: ZIP, filename: 'homework.zip' }],
        'Invalid file type - Only images and documents are allowed.',
      ],
      [
        'binary bytes of no known type',
        [{ bytes: Buffer.from([0, 1, 2, 3, 255, 254, 0, 7]), filename: 'data.bin' }],
        'Invalid file type - Only images and documents are allowed.',
      ],
    ])('refuses %s with the SPEC message, leaving no request and no file', async (_case, files, message) => {
      const before = { requests: await requestCount(), files: (await storedFiles()).length };
      const response = await post(t, await signedInStudent(t), requestForm(valid, files));
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(message);
      expect(response.json().fields).toBeDefined();
      expect({ requests: await requestCount(), files: (await storedFiles()).length }).toEqual(before);
    });

    it('removes the stored files again when the request is refused after the upload', async () => {
      const before = { requests: await requestCount(), files: (await storedFiles()).length };
      const form = requestForm({ ...valid, subjectId: '2b0b3b1e-6a4f-4f7e-9a55-000000000001' }, [
        { bytes: TINY_PNG, filename: 'a.png' },
      ]);
      const response = await post(t, await signedInStudent(t), form);
      expect(response.json()).toMatchObject({ fields: { subjectId: 'Unknown subject' } });
      expect({ requests: await requestCount(), files: (await storedFiles()).length }).toEqual(before);
    });
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
    const response = await post(t, student, {
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

describe('a student’s requests and offers', () => {
  let t: TestApp;
  let subjectId: string;
  beforeAll(async () => {
    t = await createTestApp();
    subjectId = (await createSubject(t.db, { name: 'Microeconomics' })).id;
  });
  afterAll(() => t.close());

  it('answers 401 without a session and 403 to a teacher on every student route', async () => {
    const student = await signedInStudent(t);
    const request = await createRequest(t.db, { studentId: student.user.id, subjectId });
    const teacher = await signedInTeacher(t, [subjectId]);
    for (const route of ['/api/requests/mine', `/api/requests/${request.id}`, `/api/requests/${request.id}/bids`]) {
      expect((await call(t, undefined, 'GET', route)).statusCode).toBe(401);
      expect((await call(t, teacher, 'GET', route)).statusCode).toBe(403);
    }
  });

  it('lists only the student’s own requests, newest first, split into Live and Expired, with subject name and bid count', async () => {
    const student = await signedInStudent(t);
    const other = await signedInStudent(t);
    await createRequest(t.db, { studentId: other.user.id, subjectId });
    const live = await createRequest(t.db, { studentId: student.user.id, subjectId, createdAt: hoursAgo(2) });
    const newest = await createRequest(t.db, {
      studentId: student.user.id,
      subjectId,
      status: 'accepted',
      createdAt: hoursAgo(1),
    });
    const old = await createRequest(t.db, { studentId: student.user.id, subjectId, createdAt: hoursAgo(49) });
    const closed = await createRequest(t.db, {
      studentId: student.user.id,
      subjectId,
      status: 'closed',
      createdAt: hoursAgo(3),
    });
    const bidder = await createTeacher(t.db, { subjectIds: [subjectId] });
    await t.db.insert(tutorBids).values({ requestId: live.id, tutorId: bidder.id, amountCents: 900 });

    const liveTab = await call(t, student, 'GET', '/api/requests/mine');
    expect(liveTab.statusCode).toBe(200);
    expect(liveTab.json().requests.map((r: { id: string }) => r.id)).toEqual([newest.id, live.id]);
    expect(liveTab.json().requests[1]).toMatchObject({ subjectName: 'Microeconomics', bidCount: 1, status: 'open' });
    expect(liveTab.json().nextCursor).toBeNull();

    const expiredTab = await call(t, student, 'GET', '/api/requests/mine?status=expired');
    expect(expiredTab.json().requests.map((r: { id: string }) => r.id)).toEqual([closed.id, old.id]);
  });

  it('pages through many requests created at the same instant without skipping or repeating one', async () => {
    const student = await signedInStudent(t);
    const createdAt = new Date();
    for (let i = 0; i < 45; i++) await createRequest(t.db, { studentId: student.user.id, subjectId, createdAt });
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response = await call(t, student, 'GET', `/api/requests/mine${cursor ? `?cursor=${cursor}` : ''}`);
      seen.push(...response.json().requests.map((r: { id: string }) => r.id));
      cursor = response.json().nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(45);
    expect(seen).toHaveLength(45);
  });

  it('refuses a forged cursor with a 400', async () => {
    const student = await signedInStudent(t);
    for (const cursor of ['nonsense', Buffer.from('["x","y"]').toString('base64url')]) {
      const response = await call(t, student, 'GET', `/api/requests/mine?cursor=${cursor}`);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ fields: { cursor: INVALID_CURSOR_MESSAGE } });
    }
  });

  it('shows the owner a request with its offers summary and reach, and anyone else a 404', async () => {
    const student = await signedInStudent(t);
    const request = await createRequest(t.db, {
      studentId: student.user.id,
      subjectId,
      type: 'assignment',
      budgetMinCents: 500,
      budgetMaxCents: 999_900,
    });
    const [a, b] = await Promise.all([
      createTeacher(t.db, { subjectIds: [subjectId] }),
      createTeacher(t.db, { subjectIds: [subjectId] }),
    ]);
    await t.db.insert(tutorBids).values([
      { requestId: request.id, tutorId: a.id, amountCents: 4000 },
      { requestId: request.id, tutorId: b.id, amountCents: 2550 },
    ]);
    await t.db.insert(teacherNotifications).values(
      [a, b].map((teacher) => ({
        teacherId: teacher.id,
        requestId: request.id,
        subjectTitle: 'x',
        budget: '$5+',
        description: 'x',
        jobUrl: '/x',
      })),
    );

    const response = await call(t, student, 'GET', `/api/requests/${request.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      request: { id: request.id, subjectName: 'Microeconomics', budgetMaxCents: 999_900, status: 'open' },
      offers: { count: 2, lowestCents: 2550, highestCents: 4000 },
      notifiedCount: 2,
    });

    const stranger = await signedInStudent(t);
    for (const path of [`/api/requests/${request.id}`, `/api/requests/${request.id}/bids`]) {
      const notYours = await call(t, stranger, 'GET', path);
      expect(notYours.statusCode).toBe(404);
      expect(notYours.json()).toEqual({ code: 'NOT_FOUND', message: 'Request not found' });
    }
    expect((await call(t, student, 'GET', '/api/requests/2b0b3b1e-6a4f-4f7e-9a55-000000000000')).statusCode).toBe(404);
    expect((await call(t, student, 'GET', '/api/requests/not-a-uuid')).statusCode).toBe(400);
  });

  it('lists the offers with each tutor’s public profile, newest first, and an empty list without offers', async () => {
    const student = await signedInStudent(t);
    const request = await createRequest(t.db, { studentId: student.user.id, subjectId });
    expect((await call(t, student, 'GET', `/api/requests/${request.id}/bids`)).json()).toEqual({ offers: [] });
    const tutor = await createTeacher(t.db, { subjectIds: [subjectId], image: '/api/files/avatars/x.png' });
    const later = await createTeacher(t.db, { subjectIds: [subjectId] });
    await t.db.insert(tutorBids).values({
      requestId: request.id,
      tutorId: tutor.id,
      amountCents: 900,
      message: 'I teach this daily',
      createdAt: hoursAgo(1),
    });
    await t.db.insert(tutorBids).values({ requestId: request.id, tutorId: later.id, amountCents: 1200 });

    const { offers } = (await call(t, student, 'GET', `/api/requests/${request.id}/bids`)).json();
    expect(offers.map((offer: { tutorId: string }) => offer.tutorId)).toEqual([later.id, tutor.id]);
    expect(offers[1]).toEqual({
      id: expect.any(String),
      tutorId: tutor.id,
      username: tutor.username,
      image: '/api/files/avatars/x.png',
      vhNumber: tutor.vhNumber,
      amountCents: 900,
      message: 'I teach this daily',
      status: 'pending',
      createdAt: expect.any(String),
      ratingAverage: null,
      reviewCount: 0,
      jobsCompleted: 0,
    });
    expect(offers[1]).not.toHaveProperty('email');
  });
});

describe('request attachments', () => {
  let t: TestApp;
  let subjectId: string;
  let owner: Caller;
  beforeAll(async () => {
    t = await createTestApp();
    subjectId = (await createSubject(t.db)).id;
    owner = await signedInStudent(t);
  });
  afterAll(() => t.close());

  // Each test posts its own request, so that none depends on what another did to it.
  const postRequestWithPhoto = async () => {
    const response = await post(
      t,
      owner,
      requestForm(
        {
          type: 'tutoring',
          subjectId,
          description: 'Please check my notes',
          budgetMinCents: 800,
          budgetMaxCents: 1500,
        },
        [{ bytes: TINY_PNG, filename: 'page one.png' }],
      ),
    );
    return response.json().request.id as string;
  };
  const download = (caller: Caller | undefined, requestId: string, index = 0) =>
    call(t, caller, 'GET', `/api/requests/${requestId}/attachments/${index}`);

  it('serves a file to its student and to teachers who can see the job, as a download with its detected type', async () => {
    const requestId = await postRequestWithPhoto();
    for (const caller of [owner, await signedInTeacher(t, [subjectId])]) {
      const response = await download(caller, requestId);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/png');
      expect(response.headers['content-disposition']).toBe(
        `attachment; filename="page one.png"; filename*=UTF-8''page%20one.png`,
      );
      expect(response.rawPayload.equals(TINY_PNG)).toBe(true);
    }
  });

  it('answers 401 signed out, and 404 to other students, teachers of other subjects and unknown files', async () => {
    const requestId = await postRequestWithPhoto();
    expect((await download(undefined, requestId)).statusCode).toBe(401);
    expect((await download(await signedInStudent(t), requestId)).statusCode).toBe(404);
    expect((await download(await signedInTeacher(t, [(await createSubject(t.db)).id]), requestId)).statusCode).toBe(
      404,
    );
    expect((await download(owner, requestId, 1)).statusCode).toBe(404);
    expect((await download(owner, requestId, 99)).statusCode).toBe(400);
  });

  it('keeps the file for teachers who bid once the job is gone, and hides it from the others', async () => {
    const requestId = await postRequestWithPhoto();
    const bidder = await signedInTeacher(t, [subjectId]);
    const onlooker = await signedInTeacher(t, [subjectId]);
    await t.db.insert(tutorBids).values({ requestId, tutorId: bidder.user.id, amountCents: 1000 });
    await t.db.update(tutoringRequests).set({ status: 'closed' }).where(eq(tutoringRequests.id, requestId));
    expect((await download(bidder, requestId)).statusCode).toBe(200);
    expect((await download(onlooker, requestId)).statusCode).toBe(404);
    expect((await download(owner, requestId)).statusCode).toBe(200);
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
