import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, sessions, users } from '../../db/schema/auth.ts';
import { mailOutbox } from '../../db/schema/notifications.ts';
import {
  DEFAULT_TEST_PASSWORD,
  SESSION_COOKIE,
  createUser,
  freshClientAddress,
} from '../../../../tests/support/factories.ts';
import { registerStudent } from '../../../../tests/support/callers.ts';
import { linkIn, waitForDevMails } from '../../../../tests/support/mailbox.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';

let created = 0;

const signIn = (t: TestApp, payload: object, remoteAddress = freshClientAddress()) =>
  t.app.inject({ method: 'POST', url: '/api/auth/sign-in/email', payload, remoteAddress });

const getSession = (t: TestApp, cookie: string) =>
  t.app.inject({ method: 'GET', url: '/api/auth/get-session', headers: { cookie } });

const sessionCookieOf = (response: Awaited<ReturnType<typeof signIn>>) => {
  const cookie = response.cookies.find((c) => c.name === SESSION_COOKIE);
  if (!cookie) throw new Error(`No session cookie in ${JSON.stringify(response.headers['set-cookie'])}`);
  return cookie;
};

/** A registered, not yet confirmed account (through the real registration route). */
async function registerUnconfirmed(t: TestApp) {
  const name = `pending${Date.now().toString(36)}${++created}`;
  const response = await registerStudent(t, name);
  expect(response.statusCode).toBe(201);
  return { email: `${name}@example.com`, password: 'secret1', id: response.json().user.id as string };
}

describe('sign-in, e-mail confirmation and sessions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('signs in a confirmed user with an http-only, SameSite=Lax session cookie', async () => {
    const user = await createUser(t.db);
    const response = await signIn(t, { email: user.email, password: DEFAULT_TEST_PASSWORD });
    expect(response.statusCode).toBe(200);
    const cookie = sessionCookieOf(response);
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Lax');
    expect(cookie.path).toBe('/');
  });

  it('includes username, role, VH number and avatar in the session, and never a password hash', async () => {
    const user = await createUser(t.db, { role: 'teacher', image: '/api/files/avatars/x.png' });
    const [account] = await t.db
      .select({ password: accounts.password })
      .from(accounts)
      .where(eq(accounts.userId, user.id));
    const response = await signIn(t, { email: user.email, password: DEFAULT_TEST_PASSWORD });
    const session = await getSession(t, `${SESSION_COOKIE}=${sessionCookieOf(response).value}`);
    expect(session.statusCode).toBe(200);
    expect(session.json().user).toMatchObject({
      id: user.id,
      email: user.email,
      username: user.username,
      role: 'teacher',
      vhNumber: user.vhNumber,
      image: '/api/files/avatars/x.png',
    });
    for (const body of [response.body, session.body]) {
      expect(body).not.toContain(account!.password!);
      expect(body).not.toMatch(/"password"/);
    }
  });

  it.each([
    ['email', { email: 'not-an-email', password: 'whatever1' }, 'Invalid email address'],
    ['password', { email: 'someone@example.com', password: '12345' }, 'Password must be at least 6 characters'],
  ])('refuses a bad %s with the login form’s SPEC message', async (field, payload, message) => {
    const response = await signIn(t, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: 'VALIDATION_FAILED', message, fields: { [field]: message } });
  });

  it('answers a wrong password and an unknown address alike', async () => {
    const user = await createUser(t.db);
    const wrong = await signIn(t, { email: user.email, password: 'Wrong-password1' });
    const unknown = await signIn(t, { email: 'nobody@example.com', password: 'Wrong-password1' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' });
    expect(unknown.json()).toEqual(wrong.json());
  });

  it('refuses an unconfirmed account with a clear 403 and sends a new confirmation link', async () => {
    const account = await registerUnconfirmed(t);
    await waitForDevMails(t.app, account.email, { count: 1 });
    const response = await signIn(t, { email: account.email, password: account.password });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      code: 'EMAIL_NOT_VERIFIED',
      message: 'Please confirm your e-mail address first. We have sent you a new confirmation link.',
    });
    expect(response.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
    await waitForDevMails(t.app, account.email, { count: 2 });
  });

  it('confirms the address through the link in the mail, after which sign-in works', async () => {
    const account = await registerUnconfirmed(t);
    const [mail] = await waitForDevMails(t.app, account.email);
    const link = new URL(linkIn(mail!.text));
    expect(link.origin).toBe(t.config.publicUrl);

    const confirm = await t.app.inject({ method: 'GET', url: link.pathname + link.search });
    expect(confirm.statusCode).toBe(302);
    expect(confirm.headers.location).toBe('/auth/login?confirmed=1');
    const [user] = await t.db
      .select({ emailVerified: users.emailVerified })
      .from(users)
      .where(eq(users.id, account.id));
    expect(user!.emailVerified).toBe(true);

    const response = await signIn(t, { email: account.email, password: account.password });
    expect(response.statusCode).toBe(200);
  });

  it('sends the user back to the sign-in page with an error for a broken confirmation link', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/auth/verify-email?token=forged&callbackURL=${encodeURIComponent('/auth/login?confirmed=1')}`,
    });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/auth/login?confirmed=1&error=INVALID_TOKEN');
  });

  it('resends a confirmation link on request, with the same answer for unknown addresses', async () => {
    const account = await registerUnconfirmed(t);
    const send = (email: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/send-verification-email',
        payload: { email, callbackURL: '/auth/login?confirmed=1' },
        remoteAddress: freshClientAddress(),
      });
    const known = await send(account.email);
    const unknown = await send('nobody-at-all@example.com');
    expect(known.statusCode).toBe(200);
    expect(unknown.json()).toEqual(known.json());
    await waitForDevMails(t.app, account.email, { count: 2 });
  });

  it('sends at most 3 confirmation mails to one address in 15 minutes, whatever the client addresses', async () => {
    const account = await registerUnconfirmed(t);
    for (let i = 0; i < 4; i++)
      expect((await signIn(t, { email: account.email, password: account.password })).statusCode).toBe(403);
    expect(await t.db.$count(mailOutbox, eq(mailOutbox.toAddress, account.email))).toBe(3);
  });

  it('limits sign-in to 5 attempts a minute per address, with a friendly message', async () => {
    const user = await createUser(t.db);
    const address = freshClientAddress();
    for (let i = 0; i < 5; i++)
      expect((await signIn(t, { email: user.email, password: 'Wrong-password1' }, address)).statusCode).toBe(401);
    const limited = await signIn(t, { email: user.email, password: DEFAULT_TEST_PASSWORD }, address);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      code: 'RATE_LIMITED',
      message: 'Too many attempts. Please wait a moment and try again.',
    });
    expect((await signIn(t, { email: user.email, password: DEFAULT_TEST_PASSWORD })).statusCode).toBe(200);
  });

  it('keys the sign-in limit on the connecting address, not on a forwarding header the client writes', async () => {
    const user = await createUser(t.db);
    const address = freshClientAddress();
    const attempt = (n: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        payload: { email: user.email, password: 'Wrong-password1' },
        remoteAddress: address,
        headers: { 'x-forwarded-for': `198.51.100.${n}` },
      });
    for (let n = 0; n < 5; n++) expect((await attempt(n)).statusCode).toBe(401);
    expect((await attempt(5)).statusCode).toBe(429);
  });

  it('ends the session on sign-out', async () => {
    const user = await createUser(t.db);
    const cookie = `${SESSION_COOKIE}=${sessionCookieOf(await signIn(t, { email: user.email, password: DEFAULT_TEST_PASSWORD })).value}`;
    const signOut = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      payload: {},
      headers: { cookie, origin: t.config.publicUrl },
    });
    expect(signOut.statusCode).toBe(200);
    expect((await getSession(t, cookie)).json()).toBeNull();
    expect((await t.app.inject({ method: 'GET', url: '/api/profile', headers: { cookie } })).statusCode).toBe(401);
  });

  it('never hands a session token to the page: sign-in, get-session and list-sessions name none', async () => {
    const user = await createUser(t.db);
    const signedIn = await signIn(t, { email: user.email, password: DEFAULT_TEST_PASSWORD });
    const cookie = `${SESSION_COOKIE}=${sessionCookieOf(signedIn).value}`;
    const [session] = await t.db.select({ token: sessions.token }).from(sessions).where(eq(sessions.userId, user.id));
    const current = await getSession(t, cookie);
    const listed = await t.app.inject({ method: 'GET', url: '/api/auth/list-sessions', headers: { cookie } });
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual([expect.objectContaining({ id: expect.any(String), userId: user.id })]);
    expect(current.json().session).toMatchObject({ userId: user.id });
    for (const body of [signedIn.body, current.body, listed.body]) {
      expect(body).not.toContain(session!.token);
      expect(body).not.toMatch(/"token"/);
    }
  });

  it('ends every other session when the password changes, and keeps the one that changed it signed in', async () => {
    const user = await createUser(t.db);
    const cookieOf = async () =>
      `${SESSION_COOKIE}=${sessionCookieOf(await signIn(t, { email: user.email, password: DEFAULT_TEST_PASSWORD })).value}`;
    const [here, stolen] = [await cookieOf(), await cookieOf()];
    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/change-password',
      // Asking to keep the other sessions changes nothing.
      payload: { currentPassword: DEFAULT_TEST_PASSWORD, newPassword: 'Changed-pass1', revokeOtherSessions: false },
      headers: { cookie: here, origin: t.config.publicUrl },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.body).not.toMatch(/"token"/);
    expect((await getSession(t, stolen)).json()).toBeNull();
    const renewed = `${SESSION_COOKIE}=${sessionCookieOf(changed).value}`;
    expect((await getSession(t, renewed)).json().user.id).toBe(user.id);
    expect(await t.db.$count(sessions, eq(sessions.userId, user.id))).toBe(1);
  });
});
