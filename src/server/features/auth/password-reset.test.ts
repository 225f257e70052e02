import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from 'better-auth/crypto';
import { AI_USER_ID } from '#shared/constants.ts';
import { accounts, users, verifications } from '../../db/schema/auth.ts';
import { mailOutbox } from '../../db/schema/notifications.ts';
import {
  DEFAULT_TEST_PASSWORD,
  SESSION_COOKIE,
  createUser,
  freshClientAddress,
} from '../../../../tests/support/factories.ts';
import { linkIn, waitForDevMails } from '../../../../tests/support/mailbox.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';

const post = (
  t: TestApp,
  url: string,
  payload: object,
  remoteAddress = freshClientAddress(),
  headers: Record<string, string> = {},
) => t.app.inject({ method: 'POST', url, payload, remoteAddress, headers });
const requestReset = (t: TestApp, email: string, remoteAddress?: string) =>
  post(t, '/api/auth/request-password-reset', { email, redirectTo: '/auth/reset-password' }, remoteAddress);
const resetPassword = (t: TestApp, token: string, newPassword: string) =>
  post(t, '/api/auth/reset-password', { token, newPassword });
const signIn = (t: TestApp, email: string, password: string) => post(t, '/api/auth/sign-in/email', { email, password });
const isSignedIn = async (t: TestApp, cookie: string) =>
  (await t.app.inject({ method: 'GET', url: '/api/auth/get-session', headers: { cookie } })).json() !== null;

/** Asks for a reset of the user's password and follows the mail's link to the page the web app shows. */
async function resetLinkFor(t: TestApp, email: string, mailCount = 1) {
  expect((await requestReset(t, email)).statusCode).toBe(200);
  const [mail] = await waitForDevMails(t.app, email, { count: mailCount });
  return new URL(linkIn(mail!.text));
}

async function openLink(t: TestApp, link: URL) {
  const response = await t.app.inject({ method: 'GET', url: link.pathname + link.search });
  expect(response.statusCode).toBe(302);
  return new URL(response.headers.location as string, t.config.publicUrl);
}

describe('forgotten password', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers the same whether or not the address has an account', async () => {
    const user = await createUser(t.db);
    const known = await requestReset(t, user.email);
    const unknown = await requestReset(t, 'nobody-here@example.com');
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual(known.json());
    expect(await t.db.$count(mailOutbox, eq(mailOutbox.toAddress, 'nobody-here@example.com'))).toBe(0);
  });

  it('pauses password sign-in after 10 failures from any addresses; the reset mail still works and lifts it', async () => {
    const user = await createUser(t.db);
    const bystander = await createUser(t.db);
    // Each guess from its own address, so the per-address limit never applies.
    for (let n = 0; n < 10; n++) expect((await signIn(t, user.email, `Wrong-guess-${n}`)).statusCode).toBe(401);

    const locked = await signIn(t, user.email, DEFAULT_TEST_PASSWORD);
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({
      code: 'ACCOUNT_LOCKED',
      message:
        'Too many failed sign-in attempts for this account. Password sign-in is paused for 15 minutes; you can still reset your password.',
    });
    expect(locked.cookies).toEqual([]);
    expect((await signIn(t, user.email.toUpperCase(), DEFAULT_TEST_PASSWORD)).statusCode).toBe(429);
    expect((await signIn(t, bystander.email, DEFAULT_TEST_PASSWORD)).statusCode).toBe(200);

    const page = await openLink(t, await resetLinkFor(t, user.email));
    expect((await resetPassword(t, page.searchParams.get('token')!, 'Brand-new-pass1')).statusCode).toBe(200);
    expect((await signIn(t, user.email, 'Brand-new-pass1')).statusCode).toBe(200);
    // Some 15 password checks, each deliberately slow.
  }, 120_000);

  it('lets a device that signed in to the account before through a pause that guessing elsewhere caused', async () => {
    const owner = await createUser(t.db);
    const ownDevice = (await signIn(t, owner.email, DEFAULT_TEST_PASSWORD)).cookies.find(
      (cookie) => cookie.name === 'vh.known_device',
    );
    expect(ownDevice).toMatchObject({ httpOnly: true, path: '/api/auth' });
    const fromOwnDevice = (password: string, cookie = `vh.known_device=${ownDevice!.value}`) =>
      post(t, '/api/auth/sign-in/email', { email: owner.email, password }, freshClientAddress(), { cookie });

    for (let n = 0; n < 10; n++) expect((await signIn(t, owner.email, `Wrong-guess-${n}`)).statusCode).toBe(401);
    expect((await signIn(t, owner.email, DEFAULT_TEST_PASSWORD)).statusCode).toBe(429);
    // A made-up cookie, or one this browser holds for another account, is a new device.
    const other = await createUser(t.db);
    const otherDevice = (await signIn(t, other.email, DEFAULT_TEST_PASSWORD)).cookies.find(
      (cookie) => cookie.name === 'vh.known_device',
    );
    expect((await fromOwnDevice(DEFAULT_TEST_PASSWORD, `vh.known_device=${otherDevice!.value}`)).statusCode).toBe(429);
    expect((await fromOwnDevice(DEFAULT_TEST_PASSWORD, `vh.known_device=${'a'.repeat(64)}`)).statusCode).toBe(429);

    // The owner's own browser still signs in, and keeps its own budget against guessing with a stolen cookie.
    expect((await fromOwnDevice(DEFAULT_TEST_PASSWORD)).statusCode).toBe(200);
    for (let n = 0; n < 10; n++) expect((await fromOwnDevice(`Wrong-guess-${n}`)).statusCode).toBe(401);
    expect((await fromOwnDevice(DEFAULT_TEST_PASSWORD)).statusCode).toBe(429);
    // Some 30 password checks, each deliberately slow.
  }, 120_000);

  it('forgets earlier failures after a successful sign-in', async () => {
    const user = await createUser(t.db);
    for (let n = 0; n < 9; n++) expect((await signIn(t, user.email, `Wrong-guess-${n}`)).statusCode).toBe(401);
    expect((await signIn(t, user.email, DEFAULT_TEST_PASSWORD)).statusCode).toBe(200);
    for (let n = 0; n < 9; n++) expect((await signIn(t, user.email, `Wrong-guess-${n}`)).statusCode).toBe(401);
    expect((await signIn(t, user.email, DEFAULT_TEST_PASSWORD)).statusCode).toBe(200);
    // 20 password checks, each deliberately slow.
  }, 120_000);

  it('never gives the Guru AI system account a password, nor signs anyone in as it', async () => {
    const [guru] = await t.db.select({ email: users.email }).from(users).where(eq(users.id, AI_USER_ID));
    const asked = await requestReset(t, guru!.email);
    expect(asked.statusCode).toBe(200);
    expect(asked.json()).toEqual((await requestReset(t, 'nobody-at-all@example.com')).json());
    expect(await t.db.$count(mailOutbox, eq(mailOutbox.toAddress, guru!.email))).toBe(0);

    // Even with a credential row (as an older version could have created), sign-in is refused like a wrong password.
    await t.db.insert(accounts).values({
      userId: AI_USER_ID,
      accountId: AI_USER_ID,
      providerId: 'credential',
      password: await hashPassword('Known-password1'),
    });
    const signedIn = await signIn(t, guru!.email, 'Known-password1');
    expect(signedIn.statusCode).toBe(401);
    expect(signedIn.json()).toEqual({ code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' });
    expect(signedIn.cookies).toEqual([]);
  });

  it('refuses an invalid address with the SPEC message', async () => {
    const response = await requestReset(t, 'not-an-email');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'Invalid email address',
      fields: { email: 'Invalid email address' },
    });
  });

  it('resets through the mailed link once, with the reset rules, ending every session', async () => {
    const user = await createUser(t.db);
    const cookies = await Promise.all(
      [1, 2].map(async () => {
        const response = await signIn(t, user.email, DEFAULT_TEST_PASSWORD);
        return `${SESSION_COOKIE}=${response.cookies.find((c) => c.name === SESSION_COOKIE)!.value}`;
      }),
    );

    const link = await resetLinkFor(t, user.email);
    expect(link.origin).toBe(t.config.publicUrl);
    expect(link.pathname).toMatch(/^\/api\/auth\/reset-password\/[^/]+$/);
    const page = await openLink(t, link);
    expect(page.pathname).toBe('/auth/reset-password');
    const token = page.searchParams.get('token')!;
    expect(token).toBe(link.pathname.split('/').pop());

    for (const [password, message] of [
      ['Short1A', 'Password must be at least 8 characters'],
      ['alllowercase1', 'Password must contain at least one uppercase letter'],
      ['ALLUPPERCASE1', 'Password must contain at least one lowercase letter'],
      ['NoDigitsHere', 'Password must contain at least one number'],
    ] as const) {
      const weak = await resetPassword(t, token, password);
      expect(weak.statusCode).toBe(400);
      expect(weak.json()).toEqual({ code: 'VALIDATION_FAILED', message, fields: { newPassword: message } });
    }

    const reset = await resetPassword(t, token, 'New-password1');
    expect(reset.statusCode).toBe(200);
    for (const cookie of cookies) expect(await isSignedIn(t, cookie)).toBe(false);
    expect((await signIn(t, user.email, DEFAULT_TEST_PASSWORD)).statusCode).toBe(401);
    expect((await signIn(t, user.email, 'New-password1')).statusCode).toBe(200);

    // The link works once.
    expect((await openLink(t, link)).searchParams.get('error')).toBe('INVALID_TOKEN');
    const again = await resetPassword(t, token, 'Other-password1');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({
      code: 'INVALID_TOKEN',
      message: 'The password reset link is invalid or has expired.',
    });
  });

  it('refuses the link after 10 minutes', async () => {
    const user = await createUser(t.db);
    const link = await resetLinkFor(t, user.email);
    const token = link.pathname.split('/').pop()!;
    // Tokens are stored hashed: the row is found by the user it belongs to.
    const [row] = await t.db
      .select({ expiresAt: verifications.expiresAt })
      .from(verifications)
      .where(eq(verifications.value, user.id));
    const minutesValid = (row!.expiresAt.getTime() - Date.now()) / 60_000;
    expect(minutesValid).toBeGreaterThan(9.9);
    expect(minutesValid).toBeLessThanOrEqual(10);
    expect(await t.db.$count(verifications, sql`${verifications.identifier} like ${`%${token}%`}`)).toBe(0);

    await t.db
      .update(verifications)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(verifications.value, user.id));
    expect((await openLink(t, link)).searchParams.get('error')).toBe('INVALID_TOKEN');
    const response = await resetPassword(t, token, 'New-password1');
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('INVALID_TOKEN');
  });

  it('limits reset requests to 3 a minute per client address, and 3 mails per account in 15 minutes', async () => {
    const user = await createUser(t.db);
    const address = freshClientAddress();
    for (let i = 0; i < 3; i++) expect((await requestReset(t, user.email, address)).statusCode).toBe(200);
    const limited = await requestReset(t, user.email, address);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('RATE_LIMITED');

    expect((await requestReset(t, user.email)).statusCode).toBe(200);
    expect(await t.db.$count(mailOutbox, eq(mailOutbox.toAddress, user.email))).toBe(3);
  });
});
