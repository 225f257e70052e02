import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushMessages } from '#shared/schemas/push.ts';
import { pushDeliveries, pushSubscriptions } from '../../db/schema/push.ts';
import { call, signedInStudent, signedInTeacher, type Caller } from '../../../../tests/support/callers.ts';
import { startPushReceiver } from '../../../../tests/support/push-receiver.ts';
import { createTestApp, createTestAppBeside, type TestApp } from '../../../../tests/support/test-app.ts';
import { eventually } from '../../../../tests/support/time.ts';
import { isPublicAddress } from './public-endpoint.ts';
import { queuePushes } from './service.ts';

let t: TestApp;
let receiver: Awaited<ReturnType<typeof startPushReceiver>>;

beforeAll(async () => {
  receiver = await startPushReceiver();
  t = await createTestApp({
    PUSH_TEST_ENDPOINT_ORIGIN: receiver.origin,
    VAPID_SUBJECT: 'mailto:push@virtualhelp.example',
  });
});

afterAll(async () => {
  await t.close();
  await receiver.close();
});

const subscribe = (caller: Caller | undefined, body: object) =>
  call(t, caller, 'POST', '/api/push/subscriptions', body);
const subscriptionsOf = (userId: string) =>
  t.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));

describe('push subscriptions', () => {
  it('lists the user’s devices with push, newest first, this browser’s marked, and nobody else’s', async () => {
    const student = await signedInStudent(t);
    const other = await signedInStudent(t);
    const phone = receiver.subscribe();
    const laptop = receiver.subscribe();
    await subscribe(student, phone.json);
    await subscribe(other, laptop.json);
    const listed = await call(t, student, 'GET', '/api/push/subscriptions');
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual({
      devices: [
        {
          id: expect.any(String),
          endpoint: phone.json.endpoint,
          browser: expect.any(String),
          device: expect.any(String),
          createdAt: expect.any(String),
          isCurrent: true,
        },
      ],
    });
    expect((await call(t, undefined, 'GET', '/api/push/subscriptions')).statusCode).toBe(401);
  });

  it('keeps a device’s subscription, which only its owner forgets', async () => {
    const student = await signedInStudent(t);
    const other = await signedInTeacher(t, []);
    const device = receiver.subscribe();

    const created = await subscribe(student, device.json);
    expect(created.statusCode).toBe(201);
    const { id } = created.json<{ id: string }>();
    expect((await subscriptionsOf(student.user.id)).map((row) => row.endpoint)).toEqual([device.json.endpoint]);
    // The same browser subscribing again replaces what was kept for it.
    expect((await subscribe(student, device.json)).json()).toEqual({ id });
    expect(await subscriptionsOf(student.user.id)).toHaveLength(1);

    expect((await call(t, other, 'DELETE', `/api/push/subscriptions/${id}`)).statusCode).toBe(404);
    expect((await call(t, undefined, 'DELETE', `/api/push/subscriptions/${id}`)).statusCode).toBe(401);
    expect(await subscriptionsOf(student.user.id)).toHaveLength(1);
    expect((await call(t, student, 'DELETE', `/api/push/subscriptions/${id}`)).statusCode).toBe(204);
    expect(await subscriptionsOf(student.user.id)).toHaveLength(0);
  });

  it('gives the VAPID public key to signed-in users only', async () => {
    const student = await signedInStudent(t);
    const answer = await call(t, student, 'GET', '/api/push/public-key');
    expect(answer.statusCode).toBe(200);
    expect(Buffer.from(answer.json<{ publicKey: string }>().publicKey, 'base64url')).toHaveLength(65);
    expect((await call(t, undefined, 'GET', '/api/push/public-key')).statusCode).toBe(401);
    expect((await subscribe(undefined, receiver.subscribe().json)).statusCode).toBe(401);
  });

  it('refuses endpoints that are not https addresses of public hosts, and keeps nothing', async () => {
    const student = await signedInStudent(t);
    const { keys } = receiver.subscribe().json;
    for (const endpoint of [
      'http://push.example.com/send/1',
      'https://127.0.0.1/send/1',
      'https://localhost/send/1',
      'https://10.0.0.8/send/1',
      'https://172.20.1.1/send/1',
      'https://192.168.1.10/send/1',
      'https://169.254.169.254/latest/meta-data',
      'https://100.64.0.1/send/1',
      'https://[::1]/send/1',
      'https://[fe80::1]/send/1',
      'https://[fd00::1]/send/1',
      'https://[::ffff:127.0.0.1]/send/1',
      'https://user:secret@push.example.com/send/1',
      'https://no-such-host.invalid/send/1',
      `${receiver.origin.replace('127.0.0.1', 'localhost')}/push/1`,
    ]) {
      const answer = await subscribe(student, { endpoint, keys });
      expect(answer.statusCode, endpoint).toBe(400);
      expect(answer.json<{ fields: Record<string, string> }>().fields.endpoint, endpoint).toBe(pushMessages.endpoint);
    }
    const missingKeys = await subscribe(student, { endpoint: receiver.subscribe().json.endpoint });
    expect(missingKeys.statusCode).toBe(400);
    expect(missingKeys.json<{ fields: Record<string, string> }>().fields.keys).toBe(pushMessages.keys);
    expect(await subscriptionsOf(student.user.id)).toHaveLength(0);
  });

  it('tells public addresses from the others', () => {
    for (const address of ['8.8.8.8', '142.250.185.234', '2a00:1450:4001:829::200a', '::ffff:8.8.8.8']) {
      expect(isPublicAddress(address), address).toBe(true);
    }
    for (const address of ['0.0.0.0', '127.1.2.3', '10.1.1.1', '172.31.255.255', '192.168.0.1', '169.254.1.1']) {
      expect(isPublicAddress(address), address).toBe(false);
    }
    for (const address of ['::', '::1', 'fe80::abcd', 'fc00::1', 'ff02::1', '::ffff:10.0.0.1', 'not an address']) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it('ends with the session that subscribed: signing out forgets it', async () => {
    const student = await signedInStudent(t);
    expect((await subscribe(student, receiver.subscribe().json)).statusCode).toBe(201);
    const signOut = await call(t, student, 'POST', '/api/auth/sign-out');
    expect(signOut.statusCode).toBe(200);
    expect(await subscriptionsOf(student.user.id)).toHaveLength(0);
  });
});

describe('push delivery', () => {
  it('sends each queued push once, encrypted for the device and signed with the server’s key', async () => {
    const student = await signedInStudent(t);
    const [phone, laptop] = [receiver.subscribe(), receiver.subscribe()];
    await subscribe(student, phone.json);
    await subscribe(student, laptop.json);
    const publicKey = (await call(t, student, 'GET', '/api/push/public-key')).json<{ publicKey: string }>().publicKey;
    const payload = {
      title: 'New message from Ada',
      body: 'Can we move our session to…',
      url: '/chat',
      tag: 'chat-message',
    };

    await queuePushes(t.db, { userIds: [student.user.id], payload });
    const ours = () => receiver.received.filter(({ subscriptionId }) => [phone.id, laptop.id].includes(subscriptionId));
    await eventually(() => ours().length === 2);
    expect(receiver.failures).toEqual([]);
    for (const push of ours()) {
      expect(push.payload).toEqual(payload);
      expect(push.vapidPublicKey).toBe(publicKey);
      expect(push.claims.aud).toBe(receiver.origin);
      expect(push.claims.sub).toBe('mailto:push@virtualhelp.example');
      expect(push.claims.exp * 1000).toBeGreaterThan(Date.now());
    }
    await eventually(async () => (await t.db.select().from(pushDeliveries)).length === 0);
    expect(ours()).toHaveLength(2);
  });

  it('forgets a subscription its push service says is gone (410), with what was queued for it', async () => {
    const student = await signedInStudent(t);
    const device = receiver.subscribe({ status: 410 });
    await subscribe(student, device.json);
    await queuePushes(t.db, { userIds: [student.user.id], payload: { title: 'New offer', body: '$20', url: '/chat' } });
    await eventually(async () => (await subscriptionsOf(student.user.id)).length === 0);
    expect(receiver.received.filter(({ subscriptionId }) => subscriptionId === device.id)).toHaveLength(1);
  });

  it('sends a push once when two servers share the database', async () => {
    const second = await createTestAppBeside(t);
    try {
      const students = await Promise.all(Array.from({ length: 20 }, () => signedInStudent(t)));
      const devices = students.map(() => receiver.subscribe());
      for (const [index, student] of students.entries()) await subscribe(student, devices[index]!.json);
      const ids = new Set(devices.map(({ id }) => id));
      await Promise.all(
        students.map((student) =>
          queuePushes(t.db, {
            userIds: [student.user.id],
            payload: { title: 'New job', body: 'Algebra', url: '/chat' },
          }),
        ),
      );
      const ours = () => receiver.received.filter(({ subscriptionId }) => ids.has(subscriptionId));
      await eventually(async () => ours().length >= 20 && (await t.db.select().from(pushDeliveries)).length === 0);
      expect(new Set(ours().map(({ subscriptionId }) => subscriptionId)).size).toBe(20);
      expect(ours()).toHaveLength(20);
    } finally {
      await second.close();
    }
  });
});
