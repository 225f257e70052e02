import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { illegalContentFlags, moderationAttempts } from '../../db/schema/moderation.ts';
import { call, signIn, signedInStudent, signedInTeacher, type Caller } from '../../../../tests/support/callers.ts';
import { createSubAdmin, createSubject, createUser } from '../../../../tests/support/factories.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';

// Refused attempts reach the admins: every one counted, a few flags an hour per user, repeated senders on top.

describe('refused attempts', () => {
  let t: TestApp;
  let admin: Caller;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await signIn(t, await createSubAdmin(t.db, ['content', 'users']));
  });
  afterAll(() => t.close());

  const attemptPhone = async (sender: Caller, receiverId: string) => {
    const response = await call(t, sender, 'POST', '/api/chat/messages', {
      clientId: randomUUID(),
      receiverId,
      content: 'call me on 079 123 45 67',
    });
    expect(response.json().code).toBe('MESSAGE_BLOCKED');
  };
  const flagsOf = (userId: string) =>
    t.db.select().from(illegalContentFlags).where(eq(illegalContentFlags.senderId, userId));
  const repeatedSenders = async (caller: Caller | undefined = admin) =>
    call(t, caller, 'GET', '/api/admin/flags/repeated-senders');

  it('counts every refused attempt, racing ones too, but keeps at most 3 flags a user an hour', async () => {
    const sender = await signedInStudent(t);
    const receiver = await createUser(t.db);
    await Promise.all(Array.from({ length: 12 }, () => attemptPhone(sender, receiver.id)));
    // A refused profile text counts like a refused message.
    const teacher = await signedInTeacher(t, [(await createSubject(t.db)).id]);
    const refusedAbout = await call(t, teacher, 'PUT', '/api/profile/about', {
      headline: null,
      about: 'mail me: a@b.ch',
    });
    expect(refusedAbout.statusCode).toBe(400);

    const flags = await flagsOf(sender.user.id);
    expect(flags).toHaveLength(3);
    expect(flags[0]).toMatchObject({ flagType: 'phone', content: 'call me on 079 123 45 67', status: 'pending' });
    const page = (await call(t, admin, 'GET', `/api/admin/users/${sender.user.id}`)).json();
    expect(page.refusedAttempts).toEqual({ last24Hours: 12, last30Days: 12, total: 12 });
    expect(page.flags).toHaveLength(3);
    const teacherPage = (await call(t, admin, 'GET', `/api/admin/users/${teacher.user.id}`)).json();
    expect(teacherPage.refusedAttempts).toEqual({ last24Hours: 1, last30Days: 1, total: 1 });
    expect(teacherPage.flags).toEqual([expect.objectContaining({ flagType: 'email', content: 'mail me: a@b.ch' })]);
  });

  it('puts users with 3 or more refused attempts in 24 hours at the top of Illegal Content, most first', async () => {
    const [often, twice, once] = [await signedInStudent(t), await signedInStudent(t), await signedInStudent(t)];
    const receiver = await createUser(t.db);
    for (let i = 0; i < 5; i++) await attemptPhone(often, receiver.id);
    for (let i = 0; i < 2; i++) await attemptPhone(twice, receiver.id);
    await attemptPhone(once, receiver.id);
    // Attempts of a day ago are no longer "repeated".
    await t.db
      .insert(moderationAttempts)
      .values({ userId: twice.user.id, hour: new Date(Date.now() - 30 * 3_600_000), attempts: 9 });

    const response = await repeatedSenders();
    expect(response.statusCode).toBe(200);
    const items: Array<{ user: { id: string }; attempts: number }> = response.json().items;
    const ids = items.map((item) => item.user.id);
    expect(ids).toContain(often.user.id);
    expect(ids).not.toContain(twice.user.id);
    expect(ids).not.toContain(once.user.id);
    expect(items.find((item) => item.user.id === often.user.id)).toEqual({
      user: { id: often.user.id, username: often.user.username },
      attempts: 5,
      latest: { flagType: 'phone', content: 'call me on 079 123 45 67', createdAt: expect.any(String) },
    });
    expect(items.map((item) => item.attempts)).toEqual([...items.map((item) => item.attempts)].sort((a, b) => b - a));
    const twicePage = (await call(t, admin, 'GET', `/api/admin/users/${twice.user.id}`)).json();
    expect(twicePage.refusedAttempts).toEqual({ last24Hours: 2, last30Days: 11, total: 11 });
  });

  it('shows repeated senders to admins with the content permission only', async () => {
    expect((await call(t, undefined, 'GET', '/api/admin/flags/repeated-senders')).statusCode).toBe(401);
    expect((await repeatedSenders(await signedInStudent(t))).statusCode).toBe(403);
    expect((await repeatedSenders(await signIn(t, await createSubAdmin(t.db, ['users'])))).statusCode).toBe(403);
  });
});
