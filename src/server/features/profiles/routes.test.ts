import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema/auth.ts';
import { subjects, teacherSpecializations } from '../../db/schema/subjects.ts';
import { call, signedInStudent, signedInTeacher } from '../../../../tests/support/callers.ts';
import { subjectIdsNamed } from '../../../../tests/support/factories.ts';
import { FORGED_PNG, TINY_PNG, formData, pngOfSize } from '../../../../tests/support/files.ts';
import { createTestApp, storedKeys, type TestApp } from '../../../../tests/support/test-app.ts';

const uploadAvatar = (
  t: TestApp,
  cookie: string | undefined,
  file: { bytes: Uint8Array; filename: string; type: string },
) =>
  t.app.inject({
    method: 'POST',
    url: '/api/profile/avatar',
    payload: formData({}, { field: 'avatar', ...file }),
    headers: cookie ? { cookie } : {},
  });

const putSpecializations = (t: TestApp, cookie: string | undefined, subjectIds: string[]) =>
  t.app.inject({
    method: 'PUT',
    url: '/api/profile/specializations',
    payload: { subjectIds },
    headers: cookie ? { cookie } : {},
  });

const isStored = async (t: TestApp, image: string) =>
  (await storedKeys(t, 'avatars/')).includes(`avatars/${path.basename(image)}`);

describe('subjects and profiles', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('lists every subject by category then name, publicly and cacheably', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/subjects' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=300');
    const list = response.json().subjects as { id: string; name: string; category: string }[];
    expect(list.length).toBe(await t.db.$count(subjects));
    const sorted = [...list].sort(
      (a, b) => a.category.localeCompare(b.category, 'en') || a.name.localeCompare(b.name, 'en'),
    );
    expect(list.map((s) => s.category)).toEqual(sorted.map((s) => s.category));
    expect(list[0]).toEqual({ id: expect.any(String), name: expect.any(String), category: expect.any(String) });
  });

  it('answers every profile route with 401 without a session', async () => {
    for (const response of [
      await t.app.inject({ method: 'GET', url: '/api/profile' }),
      await uploadAvatar(t, undefined, { bytes: TINY_PNG, filename: 'a.png', type: 'image/png' }),
      await putSpecializations(t, undefined, []),
    ]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ code: 'UNAUTHENTICATED', message: 'Not authenticated' });
    }
  });

  it('shows the signed-in user their own profile, with a teacher’s subjects', async () => {
    const { user, cookie } = await signedInTeacher(t, []);
    const [algebra] = await subjectIdsNamed(t.db, ['Algebra']);
    await t.db.insert(teacherSpecializations).values({ teacherId: user.id, subjectId: algebra! });
    const response = await t.app.inject({ method: 'GET', url: '/api/profile', headers: { cookie } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      id: user.id,
      username: user.username,
      email: user.email,
      role: 'teacher',
      vhNumber: user.vhNumber,
      image: null,
      specializations: [{ id: algebra, name: 'Algebra', category: 'Mathematics' }],
      headline: null,
      about: null,
      hourlyRateCents: null,
      isVisibleToVisitors: true,
    });
  });

  it('replaces the avatar, serving the new one with its detected type and deleting the old file', async () => {
    const { user, cookie } = await signedInStudent(t);
    const first = await uploadAvatar(t, cookie, { bytes: TINY_PNG, filename: 'me.webp', type: 'image/webp' });
    expect(first.statusCode).toBe(200);
    const firstImage = first.json().image as string;
    expect(firstImage).toMatch(/^\/api\/files\/avatars\/[0-9a-f-]{36}\.png$/);

    const served = await t.app.inject({ method: 'GET', url: firstImage });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.rawPayload.equals(TINY_PNG)).toBe(true);

    const second = await uploadAvatar(t, cookie, { bytes: TINY_PNG, filename: 'me2.png', type: 'image/png' });
    const secondImage = second.json().image as string;
    expect(secondImage).not.toBe(firstImage);
    const [row] = await t.db.select({ image: users.image }).from(users).where(eq(users.id, user.id));
    expect(row!.image).toBe(secondImage);
    expect(await isStored(t, firstImage)).toBe(false);
    expect((await t.app.inject({ method: 'GET', url: firstImage })).statusCode).toBe(404);
    expect(await isStored(t, secondImage)).toBe(true);
  });

  it.each([
    ['a text file named .png', FORGED_PNG, 'Only .jpg, .jpeg, .png and .webp formats are supported'],
    [
      'a file over 5 MB',
      { bytes: pngOfSize(5 * 1024 * 1024 + 1), filename: 'big.png', type: 'image/png' },
      'Max file size is 5MB',
    ],
  ])('refuses %s as avatar with the SPEC message, keeping the old one', async (_case, file, message) => {
    const { user, cookie } = await signedInStudent(t);
    const response = await uploadAvatar(t, cookie, file);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED', message, fields: { avatar: message } });
    const [row] = await t.db.select({ image: users.image }).from(users).where(eq(users.id, user.id));
    expect(row!.image).toBeNull();
  });

  it('refuses an avatar request without a file', async () => {
    const { cookie } = await signedInStudent(t);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/profile/avatar',
      payload: formData({ avatar: 'text' }),
      headers: { cookie },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ avatar: 'Please choose a file' });
  });

  it('answers unknown and malformed avatar names with 404', async () => {
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/files/avatars/6f1b1a44-3c6b-4f5e-9a55-0d3f7b2b9c11.png' }))
        .statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/files/avatars/..%2F..%2Fauth-secret' })).statusCode).toBe(
      400,
    );
  });

  it('lets a teacher replace their subjects under the category rule', async () => {
    const { user, cookie } = await signedInTeacher(t, []);
    const maths = await subjectIdsNamed(t.db, ['Calculus', 'Algebra']);
    const response = await putSpecializations(t, cookie, maths);
    expect(response.statusCode).toBe(200);
    expect(response.json().specializations.map((s: { name: string }) => s.name)).toEqual(['Algebra', 'Calculus']);

    const physics = await subjectIdsNamed(t.db, ['Physics']);
    expect((await putSpecializations(t, cookie, physics)).json().specializations).toEqual([
      { id: physics[0], name: 'Physics', category: 'Sciences' },
    ]);

    for (const [names, message] of [
      [['Physics', 'Chemistry'], 'Only Mathematics allows several subjects; choose one subject in other categories'],
      [[], 'Please choose at least one subject'],
    ] as const) {
      const refused = await putSpecializations(t, cookie, await subjectIdsNamed(t.db, [...names]));
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ code: 'VALIDATION_FAILED', message, fields: { subjectIds: message } });
    }
    const rows = await t.db.select().from(teacherSpecializations).where(eq(teacherSpecializations.teacherId, user.id));
    expect(rows.map((row) => row.subjectId)).toEqual(physics);
  });

  it('refuses specializations for a student with 403', async () => {
    const { user, cookie } = await signedInStudent(t);
    const response = await putSpecializations(t, cookie, await subjectIdsNamed(t.db, ['Algebra']));
    expect(response.statusCode).toBe(403);
    expect(response.json().code).toBe('FORBIDDEN');
    expect(await t.db.$count(teacherSpecializations, eq(teacherSpecializations.teacherId, user.id))).toBe(0);
  });

  describe('a teacher’s hourly rate and visibility to visitors', () => {
    const listingOf = async (userId: string) =>
      (
        await t.db
          .select({ hourlyRateCents: users.hourlyRateCents, isVisibleToVisitors: users.isVisibleToVisitors })
          .from(users)
          .where(eq(users.id, userId))
      )[0];

    it('keeps a rate within the tutoring range in cents and the visibility, visible by default', async () => {
      const teacher = await signedInTeacher(t, []);
      expect(await listingOf(teacher.user.id)).toEqual({ hourlyRateCents: null, isVisibleToVisitors: true });
      for (const input of [
        { hourlyRateCents: 800, isVisibleToVisitors: false },
        { hourlyRateCents: 1500, isVisibleToVisitors: true },
        { hourlyRateCents: null, isVisibleToVisitors: true },
        { hourlyRateCents: 1234, isVisibleToVisitors: false },
      ]) {
        const response = await call(t, teacher, 'PUT', '/api/profile/listing', input);
        expect(response.statusCode).toBe(200);
        expect(response.json()).toEqual(input);
        expect(await listingOf(teacher.user.id)).toEqual(input);
      }
      expect((await call(t, teacher, 'GET', '/api/profile')).json()).toMatchObject({
        hourlyRateCents: 1234,
        isVisibleToVisitors: false,
      });
    });

    it('refuses a rate outside $8–$15, in fractions of a cent or missing fields, and writes nothing', async () => {
      const teacher = await signedInTeacher(t, []);
      for (const payload of [
        { hourlyRateCents: 799, isVisibleToVisitors: true },
        { hourlyRateCents: 1501, isVisibleToVisitors: true },
        { hourlyRateCents: 1000.5, isVisibleToVisitors: true },
        { hourlyRateCents: '1000', isVisibleToVisitors: true },
        { isVisibleToVisitors: false },
      ]) {
        const response = await call(t, teacher, 'PUT', '/api/profile/listing', payload);
        expect(response.statusCode).toBe(400);
        expect(response.json().fields).toEqual({ hourlyRateCents: 'Your hourly rate must be between $8 and $15' });
      }
      const noVisibility = await call(t, teacher, 'PUT', '/api/profile/listing', { hourlyRateCents: 900 });
      expect(noVisibility.statusCode).toBe(400);
      expect(noVisibility.json().fields).toEqual({
        isVisibleToVisitors: 'Please choose whether visitors see your profile',
      });
      expect(await listingOf(teacher.user.id)).toEqual({ hourlyRateCents: null, isVisibleToVisitors: true });
    });

    it('answers 403 to a student and 401 without a session, changing nothing', async () => {
      const student = await signedInStudent(t);
      const input = { hourlyRateCents: 900, isVisibleToVisitors: false };
      const refused = await call(t, student, 'PUT', '/api/profile/listing', input);
      expect(refused.statusCode).toBe(403);
      expect(await listingOf(student.user.id)).toEqual({ hourlyRateCents: null, isVisibleToVisitors: true });
      expect((await call(t, undefined, 'PUT', '/api/profile/listing', input)).statusCode).toBe(401);
    });
  });
});
