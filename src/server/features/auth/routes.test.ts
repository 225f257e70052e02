import { readdir } from 'node:fs/promises';
import { verifyPassword } from 'better-auth/crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, users } from '../../db/schema/auth.ts';
import { mailOutbox } from '../../db/schema/notifications.ts';
import { teacherSpecializations } from '../../db/schema/subjects.ts';
import { createUser, freshClientAddress, subjectIdsNamed } from '../../../../tests/support/factories.ts';
import { FORGED_PNG, TINY_PNG, formData, pngOfSize } from '../../../../tests/support/files.ts';
import { studentRegistration } from '../../../../tests/support/callers.ts';
import { waitForDevMails } from '../../../../tests/support/mailbox.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';

let created = 0;
const uniqueName = () => `user${Date.now().toString(36)}${(++created).toString(36)}`;

const validFields = () => studentRegistration(uniqueName());

type Fields = Record<string, string | boolean | readonly string[]>;
const register = (
  t: TestApp,
  fields: Fields,
  avatar?: { bytes: Uint8Array; filename: string; type: string },
  remoteAddress = freshClientAddress(),
) =>
  t.app.inject({
    method: 'POST',
    url: '/api/accounts/register',
    payload: formData(fields, avatar && { field: 'avatar', ...avatar }),
    remoteAddress,
  });

const availability = (t: TestApp, query: string, remoteAddress = freshClientAddress()) =>
  t.app.inject({ method: 'GET', url: `/api/accounts/availability?${query}`, remoteAddress });

/** Everything a registration writes, to prove a refused one wrote nothing. */
async function footprint(t: TestApp) {
  const uploadsDir = t.config.storage.kind === 'local' ? t.config.storage.dir : '';
  const entries = await readdir(uploadsDir, { recursive: true, withFileTypes: true }).catch(() => []);
  return {
    users: await t.db.$count(users),
    accounts: await t.db.$count(accounts),
    specializations: await t.db.$count(teacherSpecializations),
    mails: await t.db.$count(mailOutbox),
    files: entries.filter((entry) => entry.isFile()).length,
  };
}

describe('username and e-mail availability', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it.each([
    ['username=', false, 'Username is required'],
    ['username=freename42', true, 'Username is available'],
    [
      'username=Bad%20Name',
      false,
      'Username can only contain lowercase letters and numbers, no spaces or special characters',
    ],
    ['username=admin', false, 'This username is already taken'],
    ['username=admin7', false, 'This username is already taken'],
    ['username=guruai', false, 'This username is already taken'],
    ['username=support', false, 'This username is already taken'],
    ['email=', false, 'Valid email is required'],
    ['email=no-at-sign', false, 'Valid email is required'],
    ['email=free%40example.com', true, 'Email is available'],
    ['email=a%40b', false, 'Invalid email address'],
  ])('%s answers available=%s with "%s"', async (query, available, message) => {
    const response = await availability(t, query);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ available, message });
  });

  it('counts an existing user’s username, and e-mail in any case, as taken', async () => {
    const user = await createUser(t.db);
    expect((await availability(t, `username=${user.username}`)).json()).toEqual({
      available: false,
      message: 'This username is already taken',
    });
    expect((await availability(t, `email=${encodeURIComponent(user.email.toUpperCase())}`)).json()).toEqual({
      available: false,
      message: 'An account with this email already exists',
    });
  });

  it('asks about exactly one thing at a time', async () => {
    expect((await availability(t, '')).statusCode).toBe(400);
    expect((await availability(t, 'username=abc&email=a%40b.co')).statusCode).toBe(400);
  });

  it('limits one address to 60 checks a minute, with a friendly message', async () => {
    const address = freshClientAddress();
    for (let i = 0; i < 60; i++) expect((await availability(t, 'username=abc', address)).statusCode).toBe(200);
    const limited = await availability(t, 'username=abc', address);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      code: 'RATE_LIMITED',
      message: 'Too many attempts. Please wait a moment and try again.',
    });
  });
});

describe('registration', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('creates a student who can be signed in by better-auth, and queues the confirmation mail', async () => {
    const fields = validFields();
    const before = new Date();
    const response = await register(t, {
      ...fields,
      email: fields.email.toUpperCase(),
      specializations: await subjectIdsNamed(t.db, ['Algebra']),
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toEqual({
      user: {
        id: expect.any(String),
        username: fields.name,
        email: fields.email,
        role: 'student',
        vhNumber: expect.any(Number),
      },
      requiresEmailConfirmation: true,
    });
    expect(body.user.vhNumber).toBeGreaterThanOrEqual(100);
    expect(body.user.vhNumber).toBeLessThanOrEqual(999);

    const [user] = await t.db.select().from(users).where(eq(users.id, body.user.id));
    expect(user).toMatchObject({
      username: fields.name,
      name: fields.name,
      email: fields.email,
      role: 'student',
      emailVerified: false,
      image: null,
    });
    // The minimum age's confirmation is kept with the time it was given.
    expect(user!.ageConfirmedAt!.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
    expect(user!.ageConfirmedAt!.getTime()).toBeLessThanOrEqual(Date.now());
    const [account] = await t.db.select().from(accounts).where(eq(accounts.userId, body.user.id));
    expect(account).toMatchObject({ providerId: 'credential', accountId: body.user.id });
    expect(await verifyPassword({ hash: account!.password!, password: 'secret1' })).toBe(true);
    expect(response.body).not.toContain(account!.password!);
    // A student's subjects are ignored.
    expect(await t.db.$count(teacherSpecializations, eq(teacherSpecializations.teacherId, body.user.id))).toBe(0);

    const [mail] = await waitForDevMails(t.app, fields.email);
    expect(mail!.subject).toBe('Confirm your e-mail address for Virtual Help');
    expect(mail!.text).toContain(`${t.config.publicUrl}/api/auth/verify-email?token=`);
    expect(mail!.text).toContain('callbackURL=%2Fauth%2Flogin%3Fconfirmed%3D1');
  });

  it('creates a Mathematics teacher with two subjects, sent as repeated fields or as one JSON array', async () => {
    const ids = await subjectIdsNamed(t.db, ['Algebra', 'Calculus']);
    for (const specializations of [ids, JSON.stringify(ids)]) {
      const response = await register(t, { ...validFields(), role: 'teacher', specializations });
      expect(response.statusCode).toBe(201);
      const rows = await t.db
        .select()
        .from(teacherSpecializations)
        .where(eq(teacherSpecializations.teacherId, response.json().user.id));
      expect(rows.map((row) => row.subjectId).sort()).toEqual([...ids].sort());
    }
  });

  it('creates a teacher with one subject outside Mathematics', async () => {
    const response = await register(t, {
      ...validFields(),
      role: 'teacher',
      specializations: await subjectIdsNamed(t.db, ['Physics']),
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().user.role).toBe('teacher');
  });

  const onlyMathematics = 'Only Mathematics allows several subjects; choose one subject in other categories';
  it.each([
    ['no subject', [], 'Please choose at least one subject'],
    ['two Sciences subjects', ['Physics', 'Chemistry'], onlyMathematics],
    ['Mathematics mixed with another category', ['Algebra', 'Physics'], onlyMathematics],
  ])('refuses a teacher with %s, writing nothing', async (_case, names, message) => {
    const before = await footprint(t);
    const response = await register(t, {
      ...validFields(),
      role: 'teacher',
      specializations: await subjectIdsNamed(t.db, names),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: 'VALIDATION_FAILED', message, fields: { specializations: message } });
    expect(await footprint(t)).toEqual(before);
  });

  it('refuses an unknown subject', async () => {
    const response = await register(t, {
      ...validFields(),
      role: 'teacher',
      specializations: ['6f1b1a44-3c6b-4f5e-9a55-0d3f7b2b9c11'],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ specializations: 'Unknown subject' });
  });

  it.each([
    ['name', { name: 'a' }, 'Name must be at least 2 characters'],
    [
      'name',
      { name: 'Has Space' },
      'Username can only contain lowercase letters and numbers, no spaces or special characters',
    ],
    [
      'name',
      { name: 'UPPER' },
      'Username can only contain lowercase letters and numbers, no spaces or special characters',
    ],
    [
      'name',
      { name: 'dash-ed' },
      'Username can only contain lowercase letters and numbers, no spaces or special characters',
    ],
    ['email', { email: 'not-an-email' }, 'Invalid email address'],
    ['password', { password: '12345' }, 'Password must be at least 6 characters'],
    ['role', { role: 'admin' }, 'Role must be student or teacher'],
    ['acceptTerms', { acceptTerms: false }, 'You must accept the Terms and Conditions'],
    ['acceptPrivacy', { acceptPrivacy: false }, 'You must accept the Privacy Policy'],
    ['confirmAge', { confirmAge: false }, 'You must be at least 13 years old to use Virtual Help'],
  ])('refuses a bad %s (%j) with its SPEC message and writes nothing', async (field, change, message) => {
    const before = await footprint(t);
    const response = await register(t, { ...validFields(), ...change });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED', message, fields: { [field]: message } });
    expect(await footprint(t)).toEqual(before);
  });

  it('refuses a form without the acceptances and the age confirmation, naming each', async () => {
    const { acceptTerms: _terms, acceptPrivacy: _privacy, confirmAge: _age, ...rest } = validFields();
    const response = await register(t, rest);
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toMatchObject({
      acceptTerms: 'You must accept the Terms and Conditions',
      acceptPrivacy: 'You must accept the Privacy Policy',
      confirmAge: 'You must be at least 13 years old to use Virtual Help',
    });
  });

  it('answers a taken username or e-mail (in any case) with 409, the SPEC text and the field', async () => {
    const existing = await createUser(t.db);
    const before = await footprint(t);
    const sameName = await register(t, { ...validFields(), name: existing.username });
    expect(sameName.statusCode).toBe(409);
    expect(sameName.json()).toEqual({
      code: 'USERNAME_TAKEN',
      message: 'This username is already taken',
      fields: { name: 'This username is already taken' },
    });
    const sameEmail = await register(t, { ...validFields(), email: existing.email.toUpperCase() });
    expect(sameEmail.statusCode).toBe(409);
    expect(sameEmail.json()).toEqual({
      code: 'EMAIL_TAKEN',
      message: 'An account with this email already exists',
      fields: { email: 'An account with this email already exists' },
    });
    const reserved = await register(t, { ...validFields(), name: 'administrator' });
    expect(reserved.json().code).toBe('USERNAME_TAKEN');
    expect(await footprint(t)).toEqual(before);
  });

  it('removes the stored avatar again when the account cannot be created', async () => {
    const existing = await createUser(t.db);
    const before = await footprint(t);
    const response = await register(
      t,
      { ...validFields(), email: existing.email },
      { bytes: TINY_PNG, filename: 'me.png', type: 'image/png' },
    );
    expect(response.statusCode).toBe(409);
    expect(await footprint(t)).toEqual(before);
  });

  it('ignores fields a client must not set (id, emailVerified, vhNumber)', async () => {
    const id = '11111111-2222-4333-8444-555555555555';
    const response = await register(t, { ...validFields(), id, emailVerified: true, vhNumber: '5', isSystem: true });
    expect(response.statusCode).toBe(201);
    const [user] = await t.db.select().from(users).where(eq(users.id, response.json().user.id));
    expect(user!.id).not.toBe(id);
    expect(user).toMatchObject({ emailVerified: false, isSystem: false, role: 'student' });
    expect(user!.vhNumber).toBeGreaterThanOrEqual(100);
  });

  it('stores an avatar under its detected type and serves it', async () => {
    const response = await register(t, validFields(), { bytes: TINY_PNG, filename: 'me.jpg', type: 'image/jpeg' });
    expect(response.statusCode).toBe(201);
    const [user] = await t.db.select().from(users).where(eq(users.id, response.json().user.id));
    expect(user!.image).toMatch(/^\/api\/files\/avatars\/[0-9a-f-]{36}\.png$/);
    const image = await t.app.inject({ method: 'GET', url: user!.image! });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.equals(TINY_PNG)).toBe(true);
  });

  it.each([
    ['a text file named .png', FORGED_PNG, 'Only .jpg, .jpeg, .png and .webp formats are supported'],
    [
      'a file over 5 MB',
      { bytes: pngOfSize(5 * 1024 * 1024 + 1), filename: 'big.png', type: 'image/png' },
      'Max file size is 5MB',
    ],
  ])('refuses %s as avatar with the SPEC message and writes nothing', async (_case, avatar, message) => {
    const before = await footprint(t);
    const response = await register(t, validFields(), avatar);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED', message, fields: { avatar: message } });
    expect(await footprint(t)).toEqual(before);
  });

  it('accepts an avatar of exactly 5 MB', async () => {
    const response = await register(t, validFields(), {
      bytes: pngOfSize(5 * 1024 * 1024),
      filename: 'big.png',
      type: 'image/png',
    });
    expect(response.statusCode).toBe(201);
  });

  it('also takes a JSON body (without an avatar)', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/register',
      payload: validFields(),
      remoteAddress: freshClientAddress(),
    });
    expect(response.statusCode).toBe(201);
  });

  it('limits one address to 10 registrations in 10 minutes', async () => {
    const address = freshClientAddress();
    for (let i = 0; i < 10; i++) await register(t, { name: 'x' }, undefined, address);
    const limited = await register(t, validFields(), undefined, address);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('RATE_LIMITED');
  });

  it('keeps better-auth’s own sign-up and user update closed: accounts are made and edited through our routes', async () => {
    for (const url of ['/api/auth/sign-up/email', '/api/auth/update-user']) {
      const response = await t.app.inject({
        method: 'POST',
        url,
        payload: { ...validFields(), username: 'sneaky', role: 'admin' },
        remoteAddress: freshClientAddress(),
      });
      expect(response.statusCode).toBe(404);
    }
  });

  // Last: it fills every VH number but one.
  it('gives the least-used VH number', async () => {
    const all = await t.db.execute<{ n: number; used: number }>(
      sql`select n, (select count(*)::int from users where vh_number = n) as used from generate_series(100, 999) as n`,
    );
    const least = Math.min(...all.rows.map((row) => row.used));
    const first = await register(t, validFields());
    expect(all.rows.find((row) => row.n === first.json().user.vhNumber)!.used).toBe(least);

    // Make 555 the only number used less than all the others.
    await t.db.execute(sql`
      insert into users (name, username, email, email_verified, vh_number)
      select 'filler' || n || '_' || k, 'filler' || n || 'k' || k, 'filler' || n || 'k' || k || '@example.com', true, n
      from generate_series(100, 999) as n, generate_series(1, 3) as k where n <> 555`);
    const response = await register(t, validFields());
    expect(response.json().user.vhNumber).toBe(555);
  });
});

describe('registration without e-mail confirmation', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ REQUIRE_EMAIL_CONFIRMATION: 'false' });
  });
  afterAll(() => t.close());

  it('marks the account confirmed, sends no mail and lets it sign in at once', async () => {
    const fields = validFields();
    const response = await register(t, fields);
    expect(response.statusCode).toBe(201);
    expect(response.json().requiresEmailConfirmation).toBe(false);
    expect(await t.db.$count(mailOutbox, eq(mailOutbox.toAddress, fields.email))).toBe(0);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email: fields.email, password: fields.password },
      remoteAddress: freshClientAddress(),
    });
    expect(signIn.statusCode).toBe(200);
  });
});
