import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEETINGS_PER_CHAT } from '#shared/constants.ts';
import { messages } from '../../db/schema/chat.ts';
import { meetingJoins, meetingReminders, meetings } from '../../db/schema/meetings.ts';
import { tutoringRequests } from '../../db/schema/requests.ts';
import { mailOutbox, notifications } from '../../db/schema/notifications.ts';
import { runJobOnce } from '../../platform/jobs/interval-jobs.ts';
import { createBid, createRequest, createSubject, createUser } from '../../../../tests/support/factories.ts';
import { call, signIn, type Caller } from '../../../../tests/support/callers.ts';
import { startSmtpSink, type SmtpSink } from '../../../../tests/support/smtp-sink.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { meetingRemindersJob } from './meetings.ts';
import { HOUR_MS, MINUTE_MS } from '../../../../tests/support/time.ts';

/** The properties of an iCalendar text, with folded lines joined again. */
function icsProperties(ics: string) {
  const unfolded = ics.replace(/\r\n /g, '');
  expect(unfolded.endsWith('\r\n')).toBe(true);
  return Object.fromEntries(
    unfolded
      .split('\r\n')
      .filter(Boolean)
      .map((line) => {
        const colon = line.search(/:(?![^"]*"[^"]*$)/);
        return [line.slice(0, colon), line.slice(colon + 1)];
      }),
  );
}

describe('meetings', () => {
  let t: TestApp;
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await createTestApp(
      { SMTP_URL: sink.url, MAIL_FROM: 'Virtual Help <no-reply@virtualhelp.example>' },
      { mailOutbox: { intervalMs: 50, retryBaseMs: 10 } },
    );
  });
  afterAll(async () => {
    await t.close();
    await sink.close();
  });

  /** A teacher and a student with a room, and a meeting `aheadMs` from now scheduled by the teacher. */
  async function scheduled(aheadMs: number, title = 'Calculus review') {
    const teacher = await signIn(t, await createUser(t.db, { role: 'teacher' }));
    const student = await signIn(t, await createUser(t.db, { role: 'student' }));
    const room = await call(t, teacher, 'POST', '/api/chat/rooms', { partnerId: student.user.id });
    const startTime = new Date(Date.now() + aheadMs);
    startTime.setMilliseconds(0);
    const created = await call(t, teacher, 'POST', `/api/chat/rooms/${room.json().room.id}/meetings`, {
      title,
      description: 'Chapter 4; bring questions, please',
      startTime: startTime.toISOString(),
    });
    expect(created.statusCode).toBe(201);
    const meetingId: string = created.json().meeting.id;
    return { teacher, student, meetingId, startTime, joinUrl: created.json().meeting.joinUrl as string };
  }

  /** The first mail with this subject to this address, waiting for the outbox to send it (after earlier tests' mail). */
  async function mailTo(address: string, subject: string) {
    const find = () => sink.mails.find((mail) => mail.subject === subject && mail.to.includes(address));
    await expect.poll(find, { timeout: 15_000 }).toBeTruthy();
    return find()!;
  }

  const notificationsOf = (userId: string) => t.db.select().from(notifications).where(eq(notifications.userId, userId));
  const remindersOf = (meetingId: string) =>
    t.db.select().from(meetingReminders).where(eq(meetingReminders.meetingId, meetingId));

  it('tells the other participant in the bell and by e-mail with an invite.ics, never showing addresses', async () => {
    const { teacher, student, meetingId, startTime, joinUrl } = await scheduled(2 * 24 * HOUR_MS);
    const [notice] = await notificationsOf(student.user.id);
    expect(notice!.message).toContain(`${teacher.user.username} scheduled a video meeting "Calculus review"`);
    expect(notice!.link).toBe(`/chat?tutorId=${teacher.user.id}`);
    expect(await notificationsOf(teacher.user.id)).toEqual([]);

    const mail = await mailTo(student.user.email, 'Meeting scheduled - Virtual Help');
    const [invite] = mail.parsed.attachments;
    expect(invite!.filename).toBe('invite.ics');
    expect(invite!.contentType).toBe('text/calendar');
    const ics = invite!.content.toString('utf8');
    const props = icsProperties(ics);
    expect(ics).toMatch(/^BEGIN:VCALENDAR\r\n[\s\S]*BEGIN:VEVENT\r\n[\s\S]*END:VEVENT\r\nEND:VCALENDAR\r\n$/);
    expect(props).toMatchObject({
      VERSION: '2.0',
      METHOD: 'REQUEST',
      UID: `${meetingId}@virtual-help`,
      DTSTART: startTime.toISOString().replace(/[-:]/g, '').replace('.000', ''),
      SUMMARY: 'Calculus review',
      STATUS: 'CONFIRMED',
    });
    expect(props.DESCRIPTION).toBe(`Chapter 4\\; bring questions\\, please\\n\\nJoin the video meeting: ${joinUrl}`);
    expect(props[`ORGANIZER;CN="${teacher.user.username}"`]).toBe('mailto:no-reply@virtualhelp.example');
    expect(ics.split('\r\n').every((line) => Buffer.byteLength(line) <= 75)).toBe(true);
    for (const text of [ics, mail.text, mail.html]) expect(text).not.toContain(teacher.user.email);

    // Two days ahead: both reminders are planned.
    expect((await remindersOf(meetingId)).map((r) => r.kind).sort()).toEqual(['1h', '24h']);
  });

  it('keeps a title with a bare carriage return to its own property in the invite.ics', async () => {
    const { student } = await scheduled(2 * 24 * HOUR_MS, 'Review\rSTATUS:CANCELLED\u0001\u001b\u007f\u0085\tend');
    const mail = await mailTo(student.user.email, 'Meeting scheduled - Virtual Help');
    const ics = mail.parsed.attachments[0]!.content.toString('utf8');
    // A reader that ends a line at any CR or LF still sees one SUMMARY and no property the title brought.
    const lines = ics.replace(/\r\n /g, '').split(/\r\n|\r|\n/);
    expect(lines.filter((line) => line.startsWith('STATUS'))).toEqual(['STATUS:CONFIRMED']);
    expect(lines).toContain('SUMMARY:ReviewSTATUS:CANCELLED\tend');
    // eslint-disable-next-line no-control-regex -- the characters that must not be there
    expect(ics).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|\r(?!\n)|(?<!\r)\n/);
  });

  it('plans only the 1-hour reminder for a meeting less than a day ahead, and none within the hour', async () => {
    const soon = await scheduled(3 * HOUR_MS);
    expect((await remindersOf(soon.meetingId)).map((r) => r.kind)).toEqual(['1h']);
    const sooner = await scheduled(10 * MINUTE_MS);
    expect(await remindersOf(sooner.meetingId)).toEqual([]);
  });

  it('sends each due reminder to both participants once, across restarts and racing runners', async () => {
    const { teacher, student, meetingId } = await scheduled(2 * 24 * HOUR_MS, 'Exam prep');
    const reminder = (userId: string) =>
      t.db.$count(
        notifications,
        and(eq(notifications.userId, userId), sql`${notifications.message} like 'Reminder:%'`),
      );
    // The 24-hour reminder falls due: its row is moved back, as if a day had passed.
    await t.db
      .update(meetingReminders)
      .set({ dueAt: sql`now() - interval '1 second'` })
      .where(and(eq(meetingReminders.meetingId, meetingId), eq(meetingReminders.kind, '24h')));

    const job = () =>
      meetingRemindersJob({ realtime: t.realtime, ctx: { publicUrl: 'http://x', organizerEmail: 'n@x' } });
    // Two servers' runners at once, and each job's claim raced directly as well (without the job lock).
    await Promise.all([
      runJobOnce({ db: t.db, job: job() }),
      runJobOnce({ db: t.db, job: job() }),
      t.db.transaction((tx) => job().run({ db: tx })),
      t.db.transaction((tx) => job().run({ db: tx })),
    ]);
    // A restarted server runs the job again.
    await runJobOnce({ db: t.db, job: job() });

    expect(await reminder(teacher.user.id)).toBe(1);
    expect(await reminder(student.user.id)).toBe(1);
    const [notice] = await t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, student.user.id), sql`${notifications.message} like 'Reminder:%'`));
    expect(notice!.message).toContain(`"Exam prep" with ${teacher.user.username} starts in 24 hours`);
    await mailTo(teacher.user.email, 'Meeting reminder - Virtual Help');
    await mailTo(student.user.email, 'Meeting reminder - Virtual Help');
    const rows = await remindersOf(meetingId);
    expect(rows.find((r) => r.kind === '24h')!.sentAt).not.toBeNull();
    expect(rows.find((r) => r.kind === '1h')!.sentAt).toBeNull();
  });

  it(`schedules at most ${MEETINGS_PER_CHAT.max} meetings a day in one chat: the next is refused and leaves no trace`, async () => {
    const teacher = await signIn(t, await createUser(t.db, { role: 'teacher' }));
    const student = await signIn(t, await createUser(t.db, { role: 'student' }));
    const roomId: string = (await call(t, teacher, 'POST', '/api/chat/rooms', { partnerId: student.user.id })).json()
      .room.id;
    const schedule = (title: string) =>
      call(t, teacher, 'POST', `/api/chat/rooms/${roomId}/meetings`, {
        title,
        startTime: new Date(Date.now() + 2 * 24 * HOUR_MS).toISOString(),
      });
    for (let n = 1; n <= MEETINGS_PER_CHAT.max; n++) expect((await schedule(`Session ${n}`)).statusCode).toBe(201);
    const traces = async () => ({
      meetings: await t.db.$count(meetings, eq(meetings.chatRoomId, roomId)),
      messages: await t.db.$count(messages, eq(messages.roomId, roomId)),
      reminders: await t.db.$count(
        meetingReminders,
        sql`${meetingReminders.meetingId} in (select id from jitsi_meetings where chat_room_id = ${roomId})`,
      ),
      notifications: (await notificationsOf(student.user.id)).length,
      mails: await t.db.$count(mailOutbox, eq(mailOutbox.toAddress, student.user.email)),
    });
    const before = await traces();
    expect(before).toMatchObject({ meetings: 10, messages: 10, reminders: 20, notifications: 10 });

    const refused = await schedule('One too many');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({
      code: 'RATE_LIMITED',
      message: MEETINGS_PER_CHAT.message,
      details: { retryAfterSeconds: expect.any(Number) },
    });
    expect(refused.json().details.retryAfterSeconds).toBeGreaterThan(23 * 60 * 60);
    expect(await traces()).toEqual(before);

    // Another chat of the same teacher has its own day.
    const other = await signIn(t, await createUser(t.db, { role: 'student' }));
    const otherRoom = (await call(t, teacher, 'POST', '/api/chat/rooms', { partnerId: other.user.id })).json().room.id;
    const elsewhere = await call(t, teacher, 'POST', `/api/chat/rooms/${otherRoom}/meetings`, {
      title: 'Elsewhere',
      startTime: new Date(Date.now() + HOUR_MS * 2).toISOString(),
    });
    expect(elsewhere.statusCode).toBe(201);
  });

  it('shows a meeting to its two participants only, Scheduled then Completed', async () => {
    const { teacher, student, meetingId } = await scheduled(HOUR_MS);
    const outsider = await signIn(t, await createUser(t.db, { role: 'teacher' }));
    for (const caller of [teacher, student]) {
      const response = await call(t, caller, 'GET', `/api/chat/meetings/${meetingId}`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ id: meetingId, status: 'scheduled', cancelledAt: null });
      expect(response.body).not.toMatch(/@/);
    }
    expect((await call(t, outsider, 'GET', `/api/chat/meetings/${meetingId}`)).statusCode).toBe(404);
    expect((await call(t, undefined, 'GET', `/api/chat/meetings/${meetingId}`)).statusCode).toBe(401);
    expect((await call(t, teacher, 'GET', `/api/chat/meetings/${randomUUID()}`)).statusCode).toBe(404);

    await t.db
      .update(meetings)
      .set({ startTime: sql`now() - interval '1 minute'` })
      .where(eq(meetings.id, meetingId));
    expect((await call(t, student, 'GET', `/api/chat/meetings/${meetingId}`)).json().status).toBe('completed');
  });

  it('lets only the teacher who scheduled it cancel: the other is told, reminders stop', async () => {
    const { teacher, student, meetingId } = await scheduled(2 * 24 * HOUR_MS, 'Physics');
    const outsider = await signIn(t, await createUser(t.db, { role: 'teacher' }));
    const cancel = (caller: Caller | undefined) =>
      call(t, caller, 'POST', `/api/chat/meetings/${meetingId}/cancel`, {});
    expect((await cancel(undefined)).statusCode).toBe(401);
    expect((await cancel(outsider)).statusCode).toBe(404);
    const refused = await cancel(student);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Only the teacher who scheduled this meeting can cancel it.');
    expect((await remindersOf(meetingId)).length).toBe(2);

    const cancelled = await cancel(teacher);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', cancelledAt: expect.any(String) });
    expect(await remindersOf(meetingId)).toEqual([]);
    expect((await notificationsOf(student.user.id)).map((n) => n.message)).toContainEqual(
      expect.stringContaining(`${teacher.user.username} cancelled the video meeting "Physics"`),
    );
    const cancelMail = await mailTo(student.user.email, 'Meeting cancelled - Virtual Help');
    const props = icsProperties(cancelMail.parsed.attachments[0]!.content.toString('utf8'));
    expect(props).toMatchObject({ METHOD: 'CANCEL', STATUS: 'CANCELLED', UID: `${meetingId}@virtual-help` });

    expect((await cancel(teacher)).statusCode).toBe(409);

    const started = await scheduled(HOUR_MS);
    await t.db
      .update(meetings)
      .set({ startTime: sql`now() - interval '1 minute'` })
      .where(eq(meetings.id, started.meetingId));
    const late = await call(t, started.teacher, 'POST', `/api/chat/meetings/${started.meetingId}/cancel`, {});
    expect([late.statusCode, late.json().message]).toEqual([
      409,
      'This meeting has already started and can no longer be cancelled.',
    ]);
  });

  /** A job of this student with this tutor: accepted, or completed. */
  async function jobOf(studentId: string, tutorId: string, status: 'accepted' | 'completed' = 'accepted') {
    const subject = await createSubject(t.db);
    const request = await createRequest(t.db, { studentId, subjectId: subject.id });
    const bid = await createBid(t.db, { requestId: request.id, tutorId, status: 'accepted' });
    await t.db
      .update(tutoringRequests)
      .set({ status, acceptedBidId: bid.id, completedAt: status === 'completed' ? new Date() : null })
      .where(eq(tutoringRequests.id, request.id));
    return request.id;
  }

  it("belongs to the newest job of the chat's student and tutor that is not completed, or to none", async () => {
    const teacher = await signIn(t, await createUser(t.db, { role: 'teacher' }));
    const student = await signIn(t, await createUser(t.db, { role: 'student' }));
    const roomId: string = (await call(t, teacher, 'POST', '/api/chat/rooms', { partnerId: student.user.id })).json()
      .room.id;
    const schedule = async () => {
      const created = await call(t, teacher, 'POST', `/api/chat/rooms/${roomId}/meetings`, {
        title: 'Session',
        startTime: new Date(Date.now() + 2 * HOUR_MS).toISOString(),
      });
      const [row] = await t.db.select().from(meetings).where(eq(meetings.id, created.json().meeting.id));
      return row!.requestId;
    };
    expect(await schedule()).toBeNull();

    const older = await jobOf(student.user.id, teacher.user.id);
    const newer = await jobOf(student.user.id, teacher.user.id);
    await jobOf(student.user.id, teacher.user.id, 'completed');
    // Another tutor's job with the same student is not this chat's.
    await jobOf(student.user.id, (await createUser(t.db, { role: 'teacher' })).id);
    expect(await schedule()).toBe(newer);

    await t.db
      .update(tutoringRequests)
      .set({ status: 'completed', completedAt: new Date() })
      .where(eq(tutoringRequests.id, newer));
    expect(await schedule()).toBe(older);
  });

  it('records each Join of a participant, in the window the button is offered, before the meeting opens', async () => {
    const { teacher, student, meetingId } = await scheduled(5 * MINUTE_MS, 'Starting soon');
    const outsider = await signIn(t, await createUser(t.db, { role: 'student' }));
    const join = (caller: Caller | undefined, id = meetingId) =>
      call(t, caller, 'POST', `/api/chat/meetings/${id}/join`, {});
    const joinsOf = () => t.db.select().from(meetingJoins).where(eq(meetingJoins.meetingId, meetingId));

    expect((await join(undefined)).statusCode).toBe(401);
    expect((await join(outsider)).statusCode).toBe(404);
    expect((await join(teacher, randomUUID())).statusCode).toBe(404);
    expect((await call(t, teacher, 'POST', '/api/chat/meetings/not-a-uuid/join', {})).statusCode).toBe(400);
    expect(await joinsOf()).toEqual([]);

    const joined = await join(teacher);
    expect(joined.statusCode).toBe(201);
    expect(joined.json()).toEqual({ meetingId, joinedAt: expect.any(String) });
    expect((await join(student)).statusCode).toBe(201);
    // Joining again (a dropped call) is another record.
    expect((await join(teacher)).statusCode).toBe(201);
    const rows = await joinsOf();
    expect(rows.map((row) => row.userId).sort()).toEqual([teacher.user.id, teacher.user.id, student.user.id].sort());
    expect(rows.find((row) => row.userId === teacher.user.id)!.joinedAt.toISOString()).toBe(joined.json().joinedAt);
  });

  it('refuses a Join too early, after the meeting, or of a cancelled meeting, and records nothing', async () => {
    const early = await scheduled(2 * HOUR_MS, 'Later');
    const refusal = async (caller: Caller, meetingId: string) => {
      const response = await call(t, caller, 'POST', `/api/chat/meetings/${meetingId}/join`, {});
      return [response.statusCode, response.json().message];
    };
    expect(await refusal(early.student, early.meetingId)).toEqual([
      409,
      'This meeting opens 10 minutes before its start.',
    ]);
    await call(t, early.teacher, 'POST', `/api/chat/meetings/${early.meetingId}/cancel`, {});
    expect(await refusal(early.teacher, early.meetingId)).toEqual([409, 'This meeting was cancelled.']);

    const over = await scheduled(HOUR_MS, 'Long ago');
    await t.db
      .update(meetings)
      .set({ startTime: sql`now() - interval '11 hours'` })
      .where(eq(meetings.id, over.meetingId));
    expect(await refusal(over.teacher, over.meetingId)).toEqual([409, 'This meeting is over.']);
    expect(
      await t.db.$count(meetingJoins, sql`${meetingJoins.meetingId} in (${early.meetingId}, ${over.meetingId})`),
    ).toBe(0);
  });
});
