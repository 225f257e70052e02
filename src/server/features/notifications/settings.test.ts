import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  mailOutbox,
  notificationSettings,
  studentNotifications,
  teacherNotifications,
} from '../../db/schema/notifications.ts';
import { visibleTabs } from '../../db/schema/push.ts';
import { call, signedInStudent, signedInTeacher, type Caller } from '../../../../tests/support/callers.ts';
import { createRequest, createSubject, freshClientAddress } from '../../../../tests/support/factories.ts';
import { startPushReceiver } from '../../../../tests/support/push-receiver.ts';
import { createListeningTestApp } from '../../../../tests/support/test-app.ts';
import { eventually } from '../../../../tests/support/time.ts';

let t: Awaited<ReturnType<typeof createListeningTestApp>>;
let receiver: Awaited<ReturnType<typeof startPushReceiver>>;
let subjectId: string;

beforeAll(async () => {
  receiver = await startPushReceiver();
  t = await createListeningTestApp({ PUSH_TEST_ENDPOINT_ORIGIN: receiver.origin });
  subjectId = (await createSubject(t.db, { name: 'Organic chemistry' })).id;
});

afterAll(async () => {
  await t.close();
  await receiver.close();
});

/** A device of the caller's, subscribed through the API; `pushes()` is what reached it. */
async function deviceOf(caller: Caller) {
  const device = receiver.subscribe();
  expect((await call(t, caller, 'POST', '/api/push/subscriptions', device.json)).statusCode).toBe(201);
  return { pushes: () => receiver.received.filter(({ subscriptionId }) => subscriptionId === device.id) };
}

const settings = (caller: Caller | undefined) => call(t, caller, 'GET', '/api/notifications/settings');
const change = (caller: Caller | undefined, body: object) =>
  call(t, caller, 'PATCH', '/api/notifications/settings', body);
const mailsTo = (email: string) => t.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email));

describe('notification settings', () => {
  it('has every kind on in every way but product news, until the user chooses', async () => {
    const student = await signedInStudent(t);
    const answer = await settings(student);
    expect(answer.statusCode).toBe(200);
    const on = { inApp: true, email: true, push: true };
    expect(answer.json()).toEqual({
      topics: {
        messages: on,
        jobs: on,
        offers: on,
        meetings: on,
        reviews: on,
        payments: on,
        news: { inApp: false, email: false, push: false },
      },
    });
  });

  it('changes only the channels named, for the signed-in user only', async () => {
    const student = await signedInStudent(t);
    const other = await signedInStudent(t);
    const answer = await change(student, { topics: { offers: { push: false }, news: { email: true } } });
    expect(answer.statusCode).toBe(200);
    const { topics } = answer.json<{ topics: Record<string, object> }>();
    expect(topics.offers).toEqual({ inApp: true, email: true, push: false });
    expect(topics.news).toEqual({ inApp: false, email: true, push: false });
    // A later change of another channel keeps the first.
    await change(student, { topics: { offers: { email: false } } });
    expect((await settings(student)).json().topics.offers).toEqual({ inApp: true, email: false, push: false });
    expect((await settings(other)).json().topics.offers).toEqual({ inApp: true, email: true, push: true });
  });

  it('refuses no session (401) and a malformed change (400), writing nothing', async () => {
    const student = await signedInStudent(t);
    expect((await settings(undefined)).statusCode).toBe(401);
    expect((await change(undefined, { topics: { offers: { push: false } } })).statusCode).toBe(401);
    for (const body of [
      { topics: { offers: { push: 'no' } } },
      { topics: { lottery: { push: false } } },
      { topics: { offers: { fax: true } } },
      { topics: [] },
      {},
    ]) {
      const answer = await change(student, body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
      expect(answer.json().code).toBe('VALIDATION_FAILED');
    }
    expect(await t.db.$count(notificationSettings, eq(notificationSettings.userId, student.user.id))).toBe(0);
  });
});

describe('what is told, and how', () => {
  it('tells a new offer in the app, by e-mail and pushed, as each student chose', async () => {
    const [everyWay, appOnly] = [await signedInStudent(t), await signedInStudent(t)];
    await change(appOnly, { topics: { offers: { email: false, push: false } } });
    const devices = [await deviceOf(everyWay), await deviceOf(appOnly)];
    const teacher = await signedInTeacher(t, [subjectId]);
    for (const student of [appOnly, everyWay]) {
      const request = await createRequest(t.db, { studentId: student.user.id, subjectId });
      const bid = await call(t, teacher, 'POST', `/api/jobs/${request.id}/bids`, { amountCents: 1200 });
      expect(bid.statusCode, bid.body).toBe(201);
    }
    await eventually(() => devices[0]!.pushes().length === 1);
    expect(devices[0]!.pushes()[0]!.payload).toEqual({
      title: 'New offer on your request',
      body: `${teacher.user.username} (VH ${teacher.user.vhNumber}) offered $12 on your Organic chemistry request.`,
      url: expect.stringMatching(/^\/student\/offers/),
    });
    expect(devices[1]!.pushes()).toEqual([]);
    for (const student of [everyWay, appOnly]) {
      expect(await t.db.$count(studentNotifications, eq(studentNotifications.studentId, student.user.id))).toBe(1);
    }
    expect(await mailsTo(everyWay.user.email)).toHaveLength(1);
    expect(await mailsTo(appOnly.user.email)).toHaveLength(0);
  });

  it('tells teachers of the subject about a new job in the ways each chose, once for any number of them', async () => {
    const subject = (await createSubject(t.db, { name: `Botany ${randomUUID()}` })).id;
    const [everyWay, pushOnly, nothing] = [
      await signedInTeacher(t, [subject]),
      await signedInTeacher(t, [subject]),
      await signedInTeacher(t, [subject]),
    ];
    await change(pushOnly, { topics: { jobs: { inApp: false, email: false } } });
    await change(nothing, { topics: { jobs: { inApp: false, email: false, push: false } } });
    const devices = [await deviceOf(everyWay), await deviceOf(pushOnly), await deviceOf(nothing)];
    const student = await signedInStudent(t);
    const posted = await call(
      t,
      student,
      'POST',
      '/api/requests',
      {
        type: 'tutoring',
        subjectId: subject,
        description: 'Photosynthesis, step by step',
        budgetMinCents: 800,
        budgetMaxCents: 1500,
      },
      { remoteAddress: freshClientAddress() },
    );
    expect(posted.statusCode, posted.body).toBe(201);
    expect(posted.json().notifiedCount).toBe(1);
    await eventually(() => devices[0]!.pushes().length === 1 && devices[1]!.pushes().length === 1);
    expect(devices[1]!.pushes()[0]!.payload).toEqual({
      title: 'New job available',
      body: expect.stringContaining('Photosynthesis, step by step'),
      url: expect.stringMatching(/^\/teacher\/jobs\?highlight=/),
    });
    expect(devices[2]!.pushes()).toEqual([]);
    const told = await t.db
      .select()
      .from(teacherNotifications)
      .where(eq(teacherNotifications.requestId, posted.json().request.id));
    expect(told.map((row) => row.teacherId)).toEqual([everyWay.user.id]);
    expect(await mailsTo(everyWay.user.email)).toHaveLength(1);
    expect(await mailsTo(pushOnly.user.email)).toHaveLength(0);
    expect(await mailsTo(nothing.user.email)).toHaveLength(0);
  });

  it('pushes a chat message with its sender and first words under the chat-message tag, not while a tab is shown', async () => {
    const [ada, bob] = [await signedInStudent(t), await signedInTeacher(t, [])];
    const device = await deviceOf(bob);
    const send = (content: string) =>
      call(t, ada, 'POST', '/api/chat/messages', { clientId: randomUUID(), receiverId: bob.user.id, content });
    const long = 'Could we move Thursday’s session to Friday afternoon, same time?';
    expect((await send(long)).statusCode).toBe(201);
    await eventually(() => device.pushes().length === 1);
    expect(device.pushes()[0]!.payload).toEqual({
      title: `New message from ${ada.user.username}`,
      body: `${long.slice(0, 47)}...`,
      url: `/chat?tutorId=${ada.user.id}`,
      tag: 'chat-message',
    });

    // A shown tab on any node is enough (its row in the database): nothing is pushed while it is there.
    const socket = await t.connect(bob.cookie);
    socket.emit('tab:visibility', true);
    await eventually(async () => (await t.db.$count(visibleTabs, eq(visibleTabs.userId, bob.user.id))) === 1);
    expect((await send('Are you there?')).statusCode).toBe(201);
    socket.emit('tab:visibility', false);
    await eventually(async () => (await t.db.$count(visibleTabs, eq(visibleTabs.userId, bob.user.id))) === 0);
    expect((await send('Hidden now')).statusCode).toBe(201);
    await eventually(() => device.pushes().length === 2);
    expect(device.pushes()[1]!.payload).toMatchObject({ body: 'Hidden now' });

    // Closing the tab forgets it too; message pushes turned off are not sent.
    socket.emit('tab:visibility', true);
    await eventually(async () => (await t.db.$count(visibleTabs, eq(visibleTabs.userId, bob.user.id))) === 1);
    socket.close();
    await eventually(async () => (await t.db.$count(visibleTabs, eq(visibleTabs.userId, bob.user.id))) === 0);
    await change(bob, { topics: { messages: { push: false } } });
    expect((await send('Silent')).statusCode).toBe(201);
    await change(bob, { topics: { messages: { push: true } } });
    expect((await send('Loud')).statusCode).toBe(201);
    await eventually(() => device.pushes().length === 3);
    expect(device.pushes().map(({ payload }) => (payload as { body: string }).body)).toEqual([
      `${long.slice(0, 47)}...`,
      'Hidden now',
      'Loud',
    ]);
  });
});
