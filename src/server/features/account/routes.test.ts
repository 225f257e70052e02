import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorMessages } from '#shared/errors.ts';
import { accountMessages } from '#shared/schemas/account.ts';
import { twoFactorMessages } from '#shared/two-factor.ts';
import { sessions, users, verifications } from '../../db/schema/auth.ts';
import {
  DEFAULT_TEST_PASSWORD,
  createSessionCookie,
  createSubAdmin,
  createUser,
  freshClientAddress,
} from '../../../../tests/support/factories.ts';
import { linkIn, waitForDevMails } from '../../../../tests/support/mailbox.ts';
import type { TestSocket } from '../../../../tests/support/socket-client.ts';
import { createListeningTestApp, type ListeningTestApp } from '../../../../tests/support/test-app.ts';

const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const WINDOWS_FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

/** Resolves true once the socket is disconnected by the server, after it was told its session ended. */
const endedBy = (socket: TestSocket) =>
  new Promise<boolean>((resolve) => {
    let told = false;
    socket.once('session:ended', () => (told = true));
    socket.once('disconnect', () => resolve(told));
  });

describe('account settings', () => {
  let t: ListeningTestApp;
  beforeAll(async () => {
    t = await createListeningTestApp();
  });
  afterAll(() => t.close());

  const request = (cookie: string | undefined, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({
      method,
      url,
      payload,
      headers: cookie ? { cookie } : {},
      remoteAddress: freshClientAddress(),
    });
  const profileStatus = async (cookie: string) => (await request(cookie, 'GET', '/api/profile')).statusCode;
  const sessionCount = (userId: string) => t.db.$count(sessions, eq(sessions.userId, userId));

  describe('signed-in devices', () => {
    it('lists the user’s own sessions by id with device and browser, and no token', async () => {
      const user = await createUser(t.db);
      const phone = await createSessionCookie(t.db, user.id, undefined, { userAgent: IPHONE_SAFARI });
      const laptop = await createSessionCookie(t.db, user.id, undefined, { userAgent: WINDOWS_FIREFOX });
      await createSessionCookie(t.db, (await createUser(t.db)).id);

      const response = await request(phone.header, 'GET', '/api/account/devices');
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      const { devices } = response.json<{ devices: Array<Record<string, unknown>> }>();
      expect(devices).toHaveLength(2);
      expect(devices).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ id: phone.sessionId, device: 'iPhone', browser: 'Safari 18', isCurrent: true }),
          expect.objectContaining({
            id: laptop.sessionId,
            device: 'Windows computer',
            browser: 'Firefox 133',
            isCurrent: false,
          }),
        ]),
      );
      const tokens = await t.db.select({ token: sessions.token }).from(sessions).where(eq(sessions.userId, user.id));
      for (const { token } of tokens) expect(response.body).not.toContain(token);
      expect(Object.keys(devices[0]!).sort()).toEqual(
        ['browser', 'createdAt', 'device', 'id', 'isCurrent', 'lastSeenAt'].sort(),
      );
    });

    it('signs out one device by its id: its socket closes, the others stay', async () => {
      const user = await createUser(t.db);
      const [staying, leaving] = [await createSessionCookie(t.db, user.id), await createSessionCookie(t.db, user.id)];
      const stayingSocket = await t.connect(staying.header);
      const ended = endedBy(await t.connect(leaving.header));
      expect(await profileStatus(leaving.header)).toBe(200);

      const response = await request(staying.header, 'DELETE', `/api/account/devices/${leaving.sessionId}`);
      expect(response.statusCode).toBe(204);
      expect(await ended).toBe(true);
      expect(await profileStatus(leaving.header)).toBe(401);
      expect(await profileStatus(staying.header)).toBe(200);
      expect(stayingSocket.connected).toBe(true);
    });

    it('answers 404 for another user’s session and ends nothing; 401 signed out; 400 for a malformed id', async () => {
      const user = await createUser(t.db);
      const own = await createSessionCookie(t.db, user.id);
      const stranger = await createUser(t.db);
      const theirs = await createSessionCookie(t.db, stranger.id);

      const foreign = await request(own.header, 'DELETE', `/api/account/devices/${theirs.sessionId}`);
      expect(foreign.statusCode).toBe(404);
      expect(await profileStatus(theirs.header)).toBe(200);
      expect((await request(undefined, 'DELETE', `/api/account/devices/${theirs.sessionId}`)).statusCode).toBe(401);
      expect((await request(undefined, 'GET', '/api/account/devices')).statusCode).toBe(401);
      expect((await request(undefined, 'POST', '/api/account/devices/sign-out-others')).statusCode).toBe(401);
      expect((await request(own.header, 'DELETE', '/api/account/devices/not-an-id')).statusCode).toBe(400);
      expect(await sessionCount(stranger.id)).toBe(1);
    });

    it('signs out everywhere else: every other session and socket ends, this one stays', async () => {
      const user = await createUser(t.db);
      const here = await createSessionCookie(t.db, user.id);
      const elsewhere = [await createSessionCookie(t.db, user.id), await createSessionCookie(t.db, user.id)];
      const ended = (await Promise.all(elsewhere.map((cookie) => t.connect(cookie.header)))).map(endedBy);
      const hereSocket = await t.connect(here.header);
      const bystander = await createSessionCookie(t.db, (await createUser(t.db)).id);

      const response = await request(here.header, 'POST', '/api/account/devices/sign-out-others');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ signedOut: 2 });
      expect(await Promise.all(ended)).toEqual([true, true]);
      expect(await profileStatus(here.header)).toBe(200);
      expect(hereSocket.connected).toBe(true);
      expect(await profileStatus(bystander.header)).toBe(200);
    });
  });

  describe('password change', () => {
    it('needs the current password, then ends every other session and its sockets and keeps this tab signed in', async () => {
      const user = await createUser(t.db);
      const here = await createSessionCookie(t.db, user.id);
      const other = await createSessionCookie(t.db, user.id);
      const hereEnded = endedBy(await t.connect(here.header));
      const otherEnded = endedBy(await t.connect(other.header));

      const wrong = await request(here.header, 'POST', '/api/auth/change-password', {
        currentPassword: 'not-it-1A',
        newPassword: 'Another-pass1',
      });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toMatchObject({ message: twoFactorMessages.wrongPassword });
      expect(await sessionCount(user.id)).toBe(2);

      const weak = await request(here.header, 'POST', '/api/auth/change-password', {
        currentPassword: DEFAULT_TEST_PASSWORD,
        newPassword: 'short',
      });
      expect(weak.statusCode).toBe(400);
      expect(weak.json()).toMatchObject({ message: 'Password must be at least 8 characters' });

      const changed = await request(here.header, 'POST', '/api/auth/change-password', {
        currentPassword: DEFAULT_TEST_PASSWORD,
        newPassword: 'Another-pass1',
      });
      expect(changed.statusCode).toBe(200);
      expect(changed.body).not.toMatch(/"token"/);
      expect(await Promise.all([hereEnded, otherEnded])).toEqual([true, true]);
      expect(await profileStatus(other.header)).toBe(401);
      // The answer carries the session that replaces this tab's.
      const replacement = changed.headers['set-cookie'];
      const cookie = (Array.isArray(replacement) ? replacement : [replacement!])
        .map((setCookie) => setCookie.split(';')[0])
        .join('; ');
      expect(await profileStatus(cookie)).toBe(200);
      expect(await sessionCount(user.id)).toBe(1);
    });
  });

  describe('e-mail change', () => {
    const ask = (cookie: string | undefined, body: object) => request(cookie, 'POST', '/api/account/email', body);
    const pendingChanges = (userId: string) =>
      t.db.$count(verifications, eq(verifications.identifier, `email-change:${userId}`));
    const confirm = (link: string) => request(undefined, 'GET', new URL(link).pathname + new URL(link).search);

    it('mails a link to the new address only and a notice to the old one; the link changes the address once', async () => {
      const user = await createUser(t.db);
      const cookie = await createSessionCookie(t.db, user.id);
      const other = await createSessionCookie(t.db, user.id);
      const newEmail = `New.${user.username}@Example.org`;

      const asked = await ask(cookie.header, { newEmail, password: DEFAULT_TEST_PASSWORD });
      expect(asked.statusCode).toBe(202);
      const [toNew] = await waitForDevMails(t.app, newEmail.toLowerCase());
      const [toOld] = await waitForDevMails(t.app, user.email);
      const link = linkIn(toNew!.text);
      expect(link).toContain('/api/account/email/confirm?token=');
      const token = new URL(link).searchParams.get('token')!;
      expect(toOld!.text).not.toContain(token.split('.')[1]);
      expect(toOld!.text).not.toContain(newEmail.toLowerCase());
      expect(toOld!.text).toContain(`n••@example.org`);
      // Nothing changes until the link is opened.
      expect((await t.db.select().from(users).where(eq(users.id, user.id)))[0]!.email).toBe(user.email);

      const opened = await confirm(link);
      expect(opened.statusCode).toBe(302);
      expect(opened.headers.location).toBe('/settings/account?emailChange=changed');
      const [after] = await t.db.select().from(users).where(eq(users.id, user.id));
      expect(after!.email).toBe(newEmail.toLowerCase());
      expect(after!.emailVerified).toBe(true);
      // Sessions are kept, and the link works once.
      expect(await profileStatus(cookie.header)).toBe(200);
      expect(await profileStatus(other.header)).toBe(200);
      expect((await confirm(link)).headers.location).toBe('/settings/account?emailChange=invalid');
    });

    it('refuses an expired link, a wrong secret (the right link still works), and an address taken meanwhile', async () => {
      const user = await createUser(t.db);
      const cookie = await createSessionCookie(t.db, user.id);
      const newEmail = `later.${user.username}@example.org`;
      expect((await ask(cookie.header, { newEmail, password: DEFAULT_TEST_PASSWORD })).statusCode).toBe(202);
      const link = linkIn((await waitForDevMails(t.app, newEmail))[0]!.text);
      const token = new URL(link).searchParams.get('token')!;
      const [userId] = token.split('.');

      const forged = `/api/account/email/confirm?token=${encodeURIComponent(`${userId}.wrong`)}`;
      expect((await request(undefined, 'GET', forged)).headers.location).toBe('/settings/account?emailChange=invalid');
      expect(await pendingChanges(user.id)).toBe(1);

      await t.db
        .update(verifications)
        .set({ expiresAt: sql`now() - interval '1 second'` })
        .where(eq(verifications.identifier, `email-change:${user.id}`));
      expect((await confirm(link)).headers.location).toBe('/settings/account?emailChange=invalid');
      expect((await t.db.select().from(users).where(eq(users.id, user.id)))[0]!.email).toBe(user.email);

      const again = `again.${user.username}@example.org`;
      expect((await ask(cookie.header, { newEmail: again, password: DEFAULT_TEST_PASSWORD })).statusCode).toBe(202);
      const secondLink = linkIn((await waitForDevMails(t.app, again))[0]!.text);
      await createUser(t.db, { email: again });
      expect((await confirm(secondLink)).headers.location).toBe('/settings/account?emailChange=taken');
      expect(await pendingChanges(user.id)).toBe(0);
      expect((await t.db.select().from(users).where(eq(users.id, user.id)))[0]!.email).toBe(user.email);
    });

    it('refuses a fourth change within the mail limit, keeping the link sent before', async () => {
      const user = await createUser(t.db);
      const cookie = await createSessionCookie(t.db, user.id);
      const newEmail = `often.${user.username}@example.org`;
      for (let i = 0; i < 3; i++) {
        expect((await ask(cookie.header, { newEmail, password: DEFAULT_TEST_PASSWORD })).statusCode).toBe(202);
      }
      const mails = await waitForDevMails(t.app, newEmail, { count: 3 });
      const refused = await ask(cookie.header, { newEmail, password: DEFAULT_TEST_PASSWORD });
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ message: errorMessages.RATE_LIMITED });
      expect(await waitForDevMails(t.app, newEmail)).toHaveLength(3);
      // The third link, the one still waiting, makes the change; the earlier two were replaced.
      const outcomes = [];
      for (const mail of mails) outcomes.push((await confirm(linkIn(mail.text))).headers.location);
      expect(outcomes.filter((location) => location === '/settings/account?emailChange=changed')).toHaveLength(1);
      expect((await t.db.select().from(users).where(eq(users.id, user.id)))[0]!.email).toBe(newEmail);
    });

    it('counts wrong passwords per user, from any address: after 10, even the right one is refused', async () => {
      const user = await createUser(t.db);
      const cookie = await createSessionCookie(t.db, user.id);
      const newEmail = `guessed.${user.username}@example.org`;
      for (let attempt = 0; attempt < 10; attempt++) {
        const wrong = await ask(cookie.header, { newEmail, password: `wrong-${attempt}` });
        expect(wrong.statusCode).toBe(400);
      }
      const refused = await ask(cookie.header, { newEmail, password: DEFAULT_TEST_PASSWORD });
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ message: accountMessages.tooManyWrongPasswords });
      expect(await pendingChanges(user.id)).toBe(0);
      // Another user's budget is their own.
      const other = await createUser(t.db);
      const otherCookie = await createSessionCookie(t.db, other.id);
      const fine = await ask(otherCookie.header, {
        newEmail: `fine.${other.username}@example.org`,
        password: DEFAULT_TEST_PASSWORD,
      });
      expect(fine.statusCode).toBe(202);
    });

    it('refuses bad input, a wrong password, a taken or unchanged address and admins, writing nothing', async () => {
      const user = await createUser(t.db);
      const cookie = await createSessionCookie(t.db, user.id);
      const taken = await createUser(t.db);
      const admin = await createSubAdmin(t.db);
      const adminCookie = await createSessionCookie(t.db, admin.id);
      const outboxBefore = (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from mail_outbox`)).rows[0]!
        .n;

      expect((await ask(undefined, { newEmail: 'x@example.org', password: 'x' })).statusCode).toBe(401);
      const malformed = await ask(cookie.header, { newEmail: 'nope', password: '' });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json()).toMatchObject({
        fields: { newEmail: 'Invalid email address', password: accountMessages.passwordRequired },
      });
      const wrongPassword = await ask(cookie.header, { newEmail: 'free@example.org', password: 'wrong' });
      expect(wrongPassword.statusCode).toBe(400);
      expect(wrongPassword.json()).toMatchObject({ fields: { password: twoFactorMessages.wrongPassword } });
      const takenAnswer = await ask(cookie.header, {
        newEmail: taken.email.toUpperCase(),
        password: DEFAULT_TEST_PASSWORD,
      });
      expect(takenAnswer.statusCode).toBe(409);
      expect(takenAnswer.json()).toMatchObject({ fields: { newEmail: errorMessages.EMAIL_TAKEN } });
      const same = await ask(cookie.header, { newEmail: user.email, password: DEFAULT_TEST_PASSWORD });
      expect(same.statusCode).toBe(400);
      expect(same.json()).toMatchObject({ fields: { newEmail: accountMessages.sameEmail } });
      const byAdmin = await ask(adminCookie.header, {
        newEmail: 'admin2@example.org',
        password: DEFAULT_TEST_PASSWORD,
      });
      expect(byAdmin.statusCode).toBe(403);
      expect(byAdmin.json()).toMatchObject({ message: accountMessages.adminEmailManaged });

      expect(await pendingChanges(user.id)).toBe(0);
      expect(await pendingChanges(admin.id)).toBe(0);
      const outboxAfter = (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from mail_outbox`)).rows[0]!
        .n;
      expect(outboxAfter).toBe(outboxBefore);
    });
  });
});
