import { eq } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewBackupCodes } from '#shared/schemas/two-factor.ts';
import { twoFactorMessages } from '#shared/two-factor.ts';
import { adminAuditLog } from '../../db/schema/admin.ts';
import { sessions, twoFactors, users } from '../../db/schema/auth.ts';
import {
  DEFAULT_TEST_PASSWORD,
  SESSION_COOKIE,
  TEST_BACKUP_CODES,
  TEST_TOTP_SECRET,
  createSessionCookie,
  createSubAdmin,
  createSuperAdminCookie,
  createUser,
  enrolSecondFactor,
  freshClientAddress,
} from '../../../../tests/support/factories.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { TEST_ADMIN } from '../../../../tests/support/test-config.ts';
import { secretOfOtpauthUri, totpCode } from '../../../../tests/support/totp.ts';

/** The Cookie header a browser would send after this answer: its cookies that were set, not expired. */
const cookiesSetBy = (response: LightMyRequestResponse) =>
  response.cookies
    .filter((cookie) => cookie.value !== '' && (cookie.maxAge === undefined || cookie.maxAge > 0))
    .map((cookie) => `${cookie.name}=${cookie.value}`)
    .join('; ');

/** A six-digit code the app does not show now, nor 30 seconds before or after. */
function wrongCodeFor(secret: string) {
  const near = [-30_000, 0, 30_000].map((offset) => totpCode(secret, Date.now() + offset));
  return ['000000', '111111', '222222', '333333'].find((code) => !near.includes(code))!;
}

describe('an admin’s second factor', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const post = (url: string, payload: object, cookie?: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/auth${url}`,
      payload,
      remoteAddress: freshClientAddress(),
      headers: cookie ? { cookie } : {},
    });
  const get = (url: string, cookie: string, extra: Partial<InjectOptions> = {}) =>
    t.app.inject({ method: 'GET', url, headers: { cookie }, ...extra });
  const sessionOf = async (cookie: string) => (await get('/api/auth/get-session', cookie)).json();
  const twoFactorRowsOf = (userId: string) => t.db.$count(twoFactors, eq(twoFactors.userId, userId));
  const signInWithPassword = (email: string, password = DEFAULT_TEST_PASSWORD) =>
    post('/sign-in/email', { email, password });
  const isEnabledFor = async (userId: string) =>
    (await t.db.select().from(users).where(eq(users.id, userId)))[0]!.twoFactorEnabled;
  const auditedActionsOf = async (adminId: string) =>
    (await t.db.select().from(adminAuditLog).where(eq(adminAuditLog.actorId, adminId))).map((row) => ({
      action: row.action,
      objectId: row.objectId,
    }));

  /** Turns the second factor on as the enrolment screen does; answers the new session's cookie, the secret and the code. */
  async function enrol(cookie: string, password = DEFAULT_TEST_PASSWORD) {
    const enabled = await post('/two-factor/enable', { password }, cookie);
    expect(enabled.statusCode, enabled.body).toBe(200);
    const secret = secretOfOtpauthUri(enabled.json().totpURI);
    const code = totpCode(secret);
    const confirmed = await post('/two-factor/verify-totp', { code }, cookie);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    return { cookie: cookiesSetBy(confirmed), secret, code, enabled, confirmed };
  }

  it('enrols an admin: the password gives the app’s address and ten backup codes, a code from it turns it on', async () => {
    const admin = await createSubAdmin(t.db, ['reports']);
    const { header: cookie } = await createSessionCookie(t.db, admin.id);

    const refused = [
      [
        await post('/two-factor/enable', { password: 'Wrong-password-1' }, cookie),
        400,
        twoFactorMessages.wrongPassword,
      ],
      [await post('/two-factor/enable', { password: '' }, cookie), 400, twoFactorMessages.passwordRequired],
    ] as const;
    for (const [response, status, message] of refused) {
      expect(response.statusCode).toBe(status);
      expect(response.json().message).toBe(message);
    }
    expect(await twoFactorRowsOf(admin.id)).toBe(0);

    const enabled = await post('/two-factor/enable', { password: DEFAULT_TEST_PASSWORD }, cookie);
    expect(enabled.statusCode).toBe(200);
    const { totpURI, backupCodes } = enabled.json();
    expect(totpURI).toMatch(/^otpauth:\/\/totp\/Virtual%20Help:/);
    expect(backupCodes).toHaveLength(10);
    const secret = secretOfOtpauthUri(totpURI);
    // Not on until a code from the app confirms the secret reached it.
    const [pending] = await t.db.select().from(users).where(eq(users.id, admin.id));
    expect(pending!.twoFactorEnabled).toBe(false);

    const wrong = await post('/two-factor/verify-totp', { code: wrongCodeFor(secret) }, cookie);
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe(twoFactorMessages.wrongCode);
    const malformed = await post('/two-factor/verify-totp', { code: '12ab' }, cookie);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toBe(twoFactorMessages.codeRequired);
    expect((await t.db.select().from(users).where(eq(users.id, admin.id)))[0]!.twoFactorEnabled).toBe(false);

    const confirmed = await post('/two-factor/verify-totp', { code: totpCode(secret) }, cookie);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.body).not.toContain('"token"');
    expect((await t.db.select().from(users).where(eq(users.id, admin.id)))[0]!.twoFactorEnabled).toBe(true);
    const me = await get('/api/admin/me', cookiesSetBy(confirmed));
    expect(me.json()).toMatchObject({ twoFactorEnabled: true, twoFactorRequired: false });
  });

  it('ends the sessions opened with the password alone when the second factor is turned on', async () => {
    const admin = await createSubAdmin(t.db, ['reports']);
    const { header: enrolling } = await createSessionCookie(t.db, admin.id);
    const { header: elsewhere } = await createSessionCookie(t.db, admin.id);
    const { cookie } = await enrol(enrolling);
    expect(await sessionOf(enrolling)).toBeNull();
    expect(await sessionOf(elsewhere)).toBeNull();
    expect((await sessionOf(cookie)).user.id).toBe(admin.id);
  });

  it('signs an enrolled admin in only with the app’s code after the password', async () => {
    const admin = await createSubAdmin(t.db, ['reports']);
    await enrolSecondFactor(t.db, admin.id);

    const password = await signInWithPassword(admin.email);
    expect(password.statusCode).toBe(200);
    expect(password.json()).toEqual({ twoFactorRedirect: true, twoFactorMethods: ['totp'] });
    const challenge = cookiesSetBy(password);
    expect(challenge).not.toContain(`${SESSION_COOKIE}=`);
    expect((await get('/api/admin/me', challenge)).statusCode).toBe(401);

    const wrong = await post('/two-factor/verify-totp', { code: wrongCodeFor(TEST_TOTP_SECRET) }, challenge);
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe(twoFactorMessages.wrongCode);
    expect(cookiesSetBy(wrong)).not.toContain(`${SESSION_COOKIE}=`);

    const right = await post('/two-factor/verify-totp', { code: totpCode(TEST_TOTP_SECRET) }, challenge);
    expect(right.statusCode).toBe(200);
    expect(right.body).not.toContain('"token"');
    const me = await get('/api/admin/me', cookiesSetBy(right));
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ roleName: 'moderator', twoFactorEnabled: true });

    // The challenge was spent: the same cookie opens no second session.
    const again = await post('/two-factor/verify-totp', { code: totpCode(TEST_TOTP_SECRET) }, challenge);
    expect(again.statusCode).toBe(401);
    expect(again.json().message).toBe(twoFactorMessages.challengeExpired);
    const withoutChallenge = await post('/two-factor/verify-totp', { code: totpCode(TEST_TOTP_SECRET) });
    expect(withoutChallenge.statusCode).toBe(401);
  });

  it('takes each app code once: the same code again is refused, the next period’s code still signs in', async () => {
    const admin = await createSubAdmin(t.db, ['reports']);
    await enrolSecondFactor(t.db, admin.id);
    const challenge = () => signInWithPassword(admin.email).then(cookiesSetBy);
    const code = totpCode(TEST_TOTP_SECRET);

    const first = await post('/two-factor/verify-totp', { code }, await challenge());
    expect(first.statusCode).toBe(200);
    const replayed = await post('/two-factor/verify-totp', { code }, await challenge());
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json().message).toBe(twoFactorMessages.wrongCode);
    expect(cookiesSetBy(replayed)).not.toContain(`${SESSION_COOKIE}=`);

    const next = totpCode(TEST_TOTP_SECRET, Date.now() + 30_000);
    const nextPeriod = await post('/two-factor/verify-totp', { code: next }, await challenge());
    expect(nextPeriod.statusCode).toBe(200);
    expect((await sessionOf(cookiesSetBy(nextPeriod))).user.id).toBe(admin.id);
    // Once a later code was accepted, an earlier one still inside the window is refused too.
    const earlier = await post('/two-factor/verify-totp', { code }, await challenge());
    expect(earlier.statusCode).toBe(401);
  });

  it('opens one session for two racing sign-ins with the same code', async () => {
    const admin = await createSubAdmin(t.db, ['reports']);
    await enrolSecondFactor(t.db, admin.id);
    const challenges = [
      cookiesSetBy(await signInWithPassword(admin.email)),
      cookiesSetBy(await signInWithPassword(admin.email)),
    ];
    const code = totpCode(TEST_TOTP_SECRET);
    const answers = await Promise.all(challenges.map((cookie) => post('/two-factor/verify-totp', { code }, cookie)));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 401]);
    expect(await t.db.$count(sessions, eq(sessions.userId, admin.id))).toBe(1);
  });

  it('does not take the code that confirmed the enrolment at the next sign-in', async () => {
    const admin = await createSubAdmin(t.db, ['reports']);
    const { header } = await createSessionCookie(t.db, admin.id);
    const { secret, code: enrolmentCode } = await enrol(header);

    const challenge = () => signInWithPassword(admin.email).then(cookiesSetBy);
    const replayed = await post('/two-factor/verify-totp', { code: enrolmentCode }, await challenge());
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json().message).toBe(twoFactorMessages.wrongCode);
    const next = await post(
      '/two-factor/verify-totp',
      { code: totpCode(secret, Date.now() + 30_000) },
      await challenge(),
    );
    expect(next.statusCode).toBe(200);
  });

  it('takes each backup code once', async () => {
    const admin = await createSubAdmin(t.db, ['reports']);
    await enrolSecondFactor(t.db, admin.id);
    const [first, second] = TEST_BACKUP_CODES;

    const challenge = () => signInWithPassword(admin.email).then(cookiesSetBy);
    const used = await post('/two-factor/verify-backup-code', { code: first }, await challenge());
    expect(used.statusCode).toBe(200);
    expect((await sessionOf(cookiesSetBy(used))).user.id).toBe(admin.id);

    const reused = await post('/two-factor/verify-backup-code', { code: first }, await challenge());
    expect(reused.statusCode).toBe(401);
    expect(reused.json().message).toBe(twoFactorMessages.wrongBackupCode);
    const malformed = await post('/two-factor/verify-backup-code', { code: 'not a code' }, await challenge());
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toBe(twoFactorMessages.backupCodeRequired);
    expect((await post('/two-factor/verify-backup-code', { code: second }, await challenge())).statusCode).toBe(200);
  });

  it('is for admins only: 401 signed out, 403 for students and teachers, nothing written', async () => {
    expect((await post('/two-factor/enable', { password: DEFAULT_TEST_PASSWORD })).statusCode).toBe(401);
    for (const role of ['student', 'teacher'] as const) {
      const user = await createUser(t.db, { role });
      const { header } = await createSessionCookie(t.db, user.id);
      const refused = await post('/two-factor/enable', { password: DEFAULT_TEST_PASSWORD }, header);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe(twoFactorMessages.adminsOnly);
      expect(await twoFactorRowsOf(user.id)).toBe(0);
      // Their sign-in is unchanged: the password opens the session.
      expect(cookiesSetBy(await signInWithPassword(user.email))).toContain(`${SESSION_COOKIE}=`);
    }
  });

  it('keeps the super-admin’s panel closed until the second factor is set up', async () => {
    const [superAdmin] = await t.db.select().from(users).where(eq(users.email, TEST_ADMIN.email));
    const signedIn = await signInWithPassword(TEST_ADMIN.email, TEST_ADMIN.password);
    const cookie = cookiesSetBy(signedIn);
    expect(cookie).toContain(`${SESSION_COOKIE}=`);

    const me = await get('/api/admin/me', cookie);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ isSuperAdmin: true, twoFactorEnabled: false, twoFactorRequired: true });
    for (const url of ['/api/admin/stats', '/api/admin/sub-admins', '/api/admin/audit-log']) {
      const refused = await get(url, cookie);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json().message).toBe(twoFactorMessages.required);
    }

    const enrolled = await enrol(cookie, TEST_ADMIN.password);
    expect((await get('/api/admin/stats', enrolled.cookie)).statusCode).toBe(200);
    expect(await twoFactorRowsOf(superAdmin!.id)).toBe(1);
  });

  it('turns off a sub-admin’s second factor with the password and a code from the app, recorded in the audit log', async () => {
    const admin = await createSubAdmin(t.db, ['reports']);
    await enrolSecondFactor(t.db, admin.id);
    const { header: cookie } = await createSessionCookie(t.db, admin.id);
    const code = totpCode(TEST_TOTP_SECRET);

    expect((await post('/two-factor/disable', { password: DEFAULT_TEST_PASSWORD, code })).statusCode).toBe(401);
    const refused = [
      [
        await post('/two-factor/disable', { password: DEFAULT_TEST_PASSWORD }, cookie),
        400,
        twoFactorMessages.codeRequired,
      ],
      [await post('/two-factor/disable', { code }, cookie), 400, twoFactorMessages.passwordRequired],
      [
        await post('/two-factor/disable', { password: 'Wrong-password-1', code }, cookie),
        400,
        twoFactorMessages.wrongPassword,
      ],
      [
        await post(
          '/two-factor/disable',
          { password: DEFAULT_TEST_PASSWORD, code: wrongCodeFor(TEST_TOTP_SECRET) },
          cookie,
        ),
        401,
        twoFactorMessages.wrongCode,
      ],
    ] as const;
    for (const [response, status, message] of refused) {
      expect(response.statusCode).toBe(status);
      expect(response.json().message).toBe(message);
    }
    expect(await isEnabledFor(admin.id)).toBe(true);
    expect(await twoFactorRowsOf(admin.id)).toBe(1);
    expect(await auditedActionsOf(admin.id)).toEqual([]);

    // The wrong password did not spend the code.
    const turnedOff = await post('/two-factor/disable', { password: DEFAULT_TEST_PASSWORD, code }, cookie);
    expect(turnedOff.statusCode, turnedOff.body).toBe(200);
    expect(await isEnabledFor(admin.id)).toBe(false);
    expect(await twoFactorRowsOf(admin.id)).toBe(0);
    expect(await auditedActionsOf(admin.id)).toEqual([{ action: 'two_factor.disable', objectId: admin.id }]);
    // The password alone signs in again.
    expect(cookiesSetBy(await signInWithPassword(admin.email))).toContain(`${SESSION_COOKIE}=`);
  });

  it('counts wrong codes sent with a session toward the lock sign-in has: ten lock every route for the account', async () => {
    const admin = await createSubAdmin(t.db, ['reports']);
    await enrolSecondFactor(t.db, admin.id);
    const { header: cookie } = await createSessionCookie(t.db, admin.id);
    const wrong = wrongCodeFor(TEST_TOTP_SECRET);
    const factorOf = async () => (await t.db.select().from(twoFactors).where(eq(twoFactors.userId, admin.id)))[0]!;
    const { backupCodes } = await factorOf();

    const wrongAttempts = [
      () => post('/two-factor/verify-totp', { code: wrong }, cookie),
      () => post('/two-factor/disable', { password: DEFAULT_TEST_PASSWORD, code: wrong }, cookie),
      () => post('/two-factor/verify-backup-code', { code: 'aaaaa-aaaaa' }, cookie),
    ];
    for (let attempt = 0; attempt < 10; attempt++) {
      const refused = await wrongAttempts[attempt % wrongAttempts.length]!();
      expect(refused.statusCode, `attempt ${attempt}`).toBe(401);
      expect([twoFactorMessages.wrongCode, twoFactorMessages.wrongBackupCode]).toContain(refused.json().message);
    }

    const right = totpCode(TEST_TOTP_SECRET);
    const lockedAnswers = [
      await post('/two-factor/verify-totp', { code: right }, cookie),
      await post('/two-factor/disable', { password: DEFAULT_TEST_PASSWORD, code: right }, cookie),
      await post('/two-factor/verify-backup-code', { code: TEST_BACKUP_CODES[0] }, cookie),
      await post('/two-factor/verify-totp', { code: right }, cookiesSetBy(await signInWithPassword(admin.email))),
    ];
    for (const locked of lockedAnswers) {
      expect(locked.statusCode).toBe(429);
      expect(locked.json()).toEqual({ code: 'ACCOUNT_TEMPORARILY_LOCKED', message: twoFactorMessages.locked });
      expect(cookiesSetBy(locked)).not.toContain(`${SESSION_COOKIE}=`);
    }
    // The right codes were not taken, the factor stays on, and no session or audit record was made.
    expect(await factorOf()).toMatchObject({ failedVerificationCount: 10, lastAcceptedTotpStep: null, backupCodes });
    expect(await isEnabledFor(admin.id)).toBe(true);
    expect(await t.db.$count(sessions, eq(sessions.userId, admin.id))).toBe(1);
    expect(await auditedActionsOf(admin.id)).toEqual([]);
  });

  it('keeps the super-admin’s second factor on, and gives no one else a way to change one', async () => {
    const { userId, header } = await createSuperAdminCookie(t.db);
    const code = totpCode(TEST_TOTP_SECRET);
    const kept = await post('/two-factor/disable', { password: TEST_ADMIN.password, code }, header);
    expect(kept.statusCode).toBe(403);
    expect(kept.json().message).toBe(twoFactorMessages.superAdminKeepsIt);
    expect(await isEnabledFor(userId)).toBe(true);
    expect(await auditedActionsOf(userId)).toEqual([]);

    const student = await createUser(t.db, { role: 'student' });
    const { header: studentCookie } = await createSessionCookie(t.db, student.id);
    for (const [url, payload] of [
      ['/two-factor/disable', { password: DEFAULT_TEST_PASSWORD, code }],
      ['/two-factor/generate-backup-codes', { password: DEFAULT_TEST_PASSWORD }],
    ] as const) {
      const refused = await post(url, payload, studentCookie);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json().message).toBe(twoFactorMessages.adminsOnly);
    }
  });

  it('gives an admin ten new backup codes for the password; the earlier ones stop working', async () => {
    const admin = await createSubAdmin(t.db, ['reports']);
    await enrolSecondFactor(t.db, admin.id);
    const { header: cookie } = await createSessionCookie(t.db, admin.id);
    const storedCodes = async () =>
      (await t.db.select().from(twoFactors).where(eq(twoFactors.userId, admin.id)))[0]!.backupCodes;
    const before = await storedCodes();

    expect((await post('/two-factor/generate-backup-codes', { password: DEFAULT_TEST_PASSWORD })).statusCode).toBe(401);
    const empty = await post('/two-factor/generate-backup-codes', { password: '' }, cookie);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(twoFactorMessages.passwordRequired);
    const wrong = await post('/two-factor/generate-backup-codes', { password: 'Wrong-password-1' }, cookie);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(twoFactorMessages.wrongPassword);
    expect(await storedCodes()).toBe(before);
    expect(await auditedActionsOf(admin.id)).toEqual([]);

    const renewed = await post('/two-factor/generate-backup-codes', { password: DEFAULT_TEST_PASSWORD }, cookie);
    expect(renewed.statusCode).toBe(200);
    const { backupCodes } = renewed.json<NewBackupCodes>();
    expect(backupCodes).toHaveLength(10);
    expect(await auditedActionsOf(admin.id)).toEqual([{ action: 'two_factor.backup_codes', objectId: admin.id }]);

    const challenge = () => signInWithPassword(admin.email).then(cookiesSetBy);
    const old = await post('/two-factor/verify-backup-code', { code: TEST_BACKUP_CODES[0] }, await challenge());
    expect(old.statusCode).toBe(401);
    expect(old.json().message).toBe(twoFactorMessages.wrongBackupCode);
    expect((await post('/two-factor/verify-backup-code', { code: backupCodes[0] }, await challenge())).statusCode).toBe(
      200,
    );

    // Without a second factor there are no backup codes to renew.
    const unenrolled = await createSubAdmin(t.db, ['reports']);
    const { header: unenrolledCookie } = await createSessionCookie(t.db, unenrolled.id);
    const none = await post('/two-factor/generate-backup-codes', { password: DEFAULT_TEST_PASSWORD }, unenrolledCookie);
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe(twoFactorMessages.notEnabled);
  });
});
