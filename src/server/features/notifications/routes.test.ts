import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  emailLogs,
  mailOutbox,
  notifications,
  studentNotifications,
  teacherNotifications,
} from '../../db/schema/notifications.ts';
import { createRequest, createSubject, createUser } from '../../../../tests/support/factories.ts';
import { call, signedInStudent, signedInTeacher, type Caller } from '../../../../tests/support/callers.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { INVALID_EMAIL_FORMAT, queueNotificationEmails } from './email.ts';
import { fromNow, MINUTE_MS } from '../../../../tests/support/time.ts';

const minutesAgo = (minutes: number) => fromNow(-minutes * MINUTE_MS);

describe('notifications', () => {
  let t: TestApp;
  let subjectId: string;
  beforeAll(async () => {
    t = await createTestApp();
    subjectId = (await createSubject(t.db, { name: 'Astrophysics' })).id;
  });
  afterAll(() => t.close());

  const list = (caller: Caller) => call(t, caller, 'GET', '/api/notifications');

  it('answers 401 without a session on every route', async () => {
    for (const [method, url] of [
      ['GET', '/api/notifications'],
      ['POST', '/api/notifications/2b0b3b1e-6a4f-4f7e-9a55-000000000000/read'],
      ['POST', '/api/notifications/read-all'],
    ] as const) {
      const response = await call(t, undefined, method, url);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ code: 'UNAUTHENTICATED', message: 'Not authenticated' });
    }
  });

  it('lists a teacher’s latest 20 of every kind, newest first, with links, and counts every unread one exactly', async () => {
    const teacher = await signedInTeacher(t, [subjectId]);
    const student = await createUser(t.db);
    const requests = await Promise.all(
      Array.from({ length: 24 }, () => createRequest(t.db, { studentId: student.id, subjectId })),
    );
    await t.db.insert(teacherNotifications).values(
      requests.map((request, i) => ({
        teacherId: teacher.user.id,
        requestId: request.id,
        subjectTitle: 'Astrophysics',
        budget: '$5+',
        description: `Job ${i}`,
        jobUrl: `/teacher/jobs?highlight=${request.id}`,
        read: i < 2,
        createdAt: minutesAgo(100 - i),
      })),
    );
    const [general] = await t.db
      .insert(notifications)
      .values({ userId: teacher.user.id, message: 'Your offer was accepted', link: '/chat', createdAt: minutesAgo(90) })
      .returning();
    // Someone else's notifications never show.
    await t.db.insert(notifications).values({ userId: student.id, message: 'Not for the teacher' });

    const response = await list(teacher);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.unreadCount).toBe(23);
    expect(body.notifications).toHaveLength(20);
    const times = body.notifications.map((n: { createdAt: string }) => n.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(body.notifications[0]).toEqual({
      id: expect.any(String),
      kind: 'job',
      requestId: requests[23]!.id,
      message: 'New job in Astrophysics - $5+',
      link: `/teacher/jobs?highlight=${requests[23]!.id}`,
      read: false,
      createdAt: expect.any(String),
      subjectTitle: 'Astrophysics',
      budget: '$5+',
      description: 'Job 23',
    });
    expect(body.notifications.find((n: { kind: string }) => n.kind === 'general')).toEqual({
      id: general!.id,
      kind: 'general',
      requestId: null,
      message: 'Your offer was accepted',
      link: '/chat',
      read: false,
      createdAt: expect.any(String),
    });
  });

  it('lists a student’s offers with the tutor’s details and a link to the offers page', async () => {
    const student = await signedInStudent(t);
    const tutor = await createUser(t.db, { role: 'teacher', image: '/api/files/avatars/t.png' });
    const request = await createRequest(t.db, { studentId: student.user.id, subjectId });
    await t.db.insert(studentNotifications).values({
      studentId: student.user.id,
      requestId: request.id,
      tutorId: tutor.id,
      tutorName: tutor.username,
      tutorAvatar: tutor.image,
      tutorVhNumber: tutor.vhNumber,
      bidAmountCents: 1250,
      bidMessage: 'I can help',
    });
    const { notifications: items, unreadCount } = (await list(student)).json();
    expect(unreadCount).toBe(1);
    expect(items).toEqual([
      {
        id: expect.any(String),
        kind: 'offer',
        requestId: request.id,
        message: `${tutor.username} offered $12.50 on your request`,
        link: `/student/offers/${request.id}`,
        read: false,
        createdAt: expect.any(String),
        tutorId: tutor.id,
        tutorName: tutor.username,
        tutorAvatar: '/api/files/avatars/t.png',
        tutorVhNumber: tutor.vhNumber,
        bidAmountCents: 1250,
        bidMessage: 'I can help',
      },
    ]);
  });

  it('marks one of the user’s own notifications read, and answers 404 for anyone else’s, changing nothing', async () => {
    const student = await signedInStudent(t);
    const other = await signedInStudent(t);
    const [mine] = await t.db.insert(notifications).values({ userId: student.user.id, message: 'Mine' }).returning();
    const [theirs] = await t.db.insert(notifications).values({ userId: other.user.id, message: 'Theirs' }).returning();

    const response = await call(t, student, 'POST', `/api/notifications/${mine!.id}/read`);
    expect(response.statusCode).toBe(204);
    expect((await list(student)).json()).toMatchObject({
      unreadCount: 0,
      notifications: [{ id: mine!.id, read: true }],
    });

    const stolen = await call(t, student, 'POST', `/api/notifications/${theirs!.id}/read`);
    expect(stolen.statusCode).toBe(404);
    expect((await t.db.select().from(notifications).where(eq(notifications.id, theirs!.id)))[0]!.read).toBe(false);
    expect(
      (await call(t, student, 'POST', '/api/notifications/2b0b3b1e-6a4f-4f7e-9a55-000000000000/read')).statusCode,
    ).toBe(404);
    expect((await call(t, student, 'POST', '/api/notifications/not-an-id/read')).statusCode).toBe(400);
  });

  it('marks every kind of the user’s notifications read in one call, and no one else’s', async () => {
    const teacher = await signedInTeacher(t, [subjectId]);
    const student = await signedInStudent(t);
    const request = await createRequest(t.db, { studentId: student.user.id, subjectId });
    await t.db.insert(teacherNotifications).values({
      teacherId: teacher.user.id,
      requestId: request.id,
      subjectTitle: 'A',
      budget: '$8 - $15',
      description: 'd',
      jobUrl: '/x',
    });
    await t.db.insert(notifications).values([
      { userId: teacher.user.id, message: 'a' },
      { userId: teacher.user.id, message: 'b' },
      { userId: student.user.id, message: 'c' },
    ]);
    await t.db
      .insert(studentNotifications)
      .values({ studentId: student.user.id, requestId: request.id, tutorName: 'x', bidAmountCents: 900 });

    const response = await call(t, teacher, 'POST', '/api/notifications/read-all');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ updated: 3 });
    expect((await list(teacher)).json().unreadCount).toBe(0);
    expect((await list(student)).json().unreadCount).toBe(2);
    expect((await call(t, teacher, 'POST', '/api/notifications/read-all')).json()).toEqual({ updated: 0 });
  });
});

describe('notification e-mails', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'https://virtualhelp.example' });
  });
  afterAll(() => t.close());

  it('queues a mail with every send-notification-email field for a valid recipient and logs an invalid one as failed', async () => {
    const timestamp = new Date('2026-11-21T10:00:00Z');
    const common = {
      userId: '2b0b3b1e-6a4f-4f7e-9a55-0000000000aa',
      username: 'ada',
      type: 'new_offer' as const,
      message: 'bob offered $12 on your Algebra request.',
      link: '/student/offers/1',
      role: 'student' as const,
      sender: 'bob',
      timestamp,
    };
    const ids = [
      '2b0b3b1e-6a4f-4f7e-9a55-000000000001',
      '2b0b3b1e-6a4f-4f7e-9a55-000000000002',
      '2b0b3b1e-6a4f-4f7e-9a55-000000000003',
    ];
    await queueNotificationEmails({
      db: t.db,
      publicUrl: t.config.publicUrl,
      emails: [
        { ...common, recipient: 'ada@example.com', notificationId: ids[0]! },
        { ...common, recipient: 'no at sign', notificationId: ids[1]! },
        { ...common, recipient: 'two@@example', notificationId: ids[2]! },
      ],
    });
    // Only this test's recipients: the other tests of this block queue mail too.
    const mails = await t.db
      .select()
      .from(mailOutbox)
      .where(inArray(mailOutbox.toAddress, ['ada@example.com', 'no at sign', 'two@@example']));
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      toAddress: 'ada@example.com',
      subject: 'New offer on your request - Virtual Help',
      // Queued; the app's outbox worker may have delivered it already.
      status: expect.stringMatching(/^(pending|sent)$/),
      // Its one-click unsubscribe is signed from these when it is sent.
      unsubscribeUserId: common.userId,
      unsubscribeTopic: 'offers',
    });
    expect(mails[0]!.textBody).toBe(
      'Hello ada,\n\nbob offered $12 on your Algebra request.\n\nOpen it in Virtual Help:\nhttps://virtualhelp.example/student/offers/1\n\n' +
        'Sent by bob on Sat, 21 Nov 2026 10:00:00 GMT. You receive this e-mail because you have a student account on Virtual Help.\n\n— The Virtual Help team\n',
    );
    expect(mails[0]!.htmlBody).toContain('href="https://virtualhelp.example/student/offers/1"');

    const logs = await t.db.select().from(emailLogs).where(inArray(emailLogs.notificationId, ids));
    expect(
      logs
        .map(({ recipientEmail, status, error, notificationId }) => ({ recipientEmail, status, error, notificationId }))
        .sort((a, b) => a.notificationId!.localeCompare(b.notificationId!)),
    ).toEqual([
      { recipientEmail: 'ada@example.com', status: 'queued', error: null, notificationId: ids[0] },
      { recipientEmail: 'no at sign', status: 'failed', error: INVALID_EMAIL_FORMAT, notificationId: ids[1] },
      { recipientEmail: 'two@@example', status: 'failed', error: 'Invalid email format', notificationId: ids[2] },
    ]);
  });

  it('escapes what users wrote in the HTML version', async () => {
    await queueNotificationEmails({
      db: t.db,
      publicUrl: t.config.publicUrl,
      emails: [
        {
          userId: '2b0b3b1e-6a4f-4f7e-9a55-0000000000ee',
          recipient: 'eve@example.com',
          username: '<b>eve</b>',
          type: 'new_job',
          message: '<script>alert(1)</script>',
          link: '/teacher/jobs',
          role: 'teacher',
          sender: 'x',
          timestamp: new Date(),
          notificationId: '2b0b3b1e-6a4f-4f7e-9a55-000000000009',
        },
      ],
    });
    const [mail] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, 'eve@example.com'));
    expect(mail!.htmlBody).not.toContain('<script>');
    expect(mail!.htmlBody).toContain('&#60;script&#62;');
  });
});
