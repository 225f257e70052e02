import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USER_LIMITS } from '#shared/constants.ts';
import { VH_SEARCH_INVALID } from '#shared/schemas/search.ts';
import { adminRoles } from '../../db/schema/admin.ts';
import { usageCounters } from '../../db/schema/limits.ts';
import { users } from '../../db/schema/auth.ts';
import { createSubject, createTeacher, createUser } from '../../../../tests/support/factories.ts';
import { call, signIn, signedInStudent, type Caller } from '../../../../tests/support/callers.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';

/** A person's trust fields before any completed job or review. */
const noTrust = { ratingAverage: null, reviewCount: 0, jobsCompleted: 0 };

describe('search by VH number', () => {
  let t: TestApp;
  let teacher: Caller;
  let student: Caller;
  // Each test searches its own number, so people made by other tests never show up.
  let nextNumber = 500;
  const freshNumber = async () => {
    const vhNumber = nextNumber++;
    await t.db.update(users).set({ vhNumber: 999 }).where(eq(users.vhNumber, vhNumber));
    return vhNumber;
  };

  beforeAll(async () => {
    t = await createTestApp();
    teacher = await signIn(t, await createTeacher(t.db, { subjectIds: [], vhNumber: 998 }));
    student = await signedInStudent(t);
  });
  afterAll(() => t.close());

  const search = (caller: Caller | undefined, kind: 'students' | 'experts', vh: string) =>
    call(t, caller, 'GET', `/api/search/${kind}?vh=${encodeURIComponent(vh)}`);

  it('finds the students with a number, for teachers only, without any e-mail address', async () => {
    const vhNumber = await freshNumber();
    const [a, b] = [
      await createUser(t.db, { role: 'student', vhNumber, username: `bstudent${vhNumber}` }),
      await createUser(t.db, { role: 'student', vhNumber, username: `astudent${vhNumber}` }),
    ];
    await createTeacher(t.db, { subjectIds: [], vhNumber });

    const response = await search(teacher, 'students', ` ${vhNumber} `);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toEqual({
      results: [
        { id: b.id, username: b.username, role: 'student', vhNumber, image: null, specializations: [], ...noTrust },
        { id: a.id, username: a.username, role: 'student', vhNumber, image: null, specializations: [], ...noTrust },
      ],
    });
    expect(response.body).not.toMatch(/@/);

    const refused = await search(student, 'students', String(vhNumber));
    expect(refused.statusCode).toBe(403);
    expect((await search(undefined, 'students', String(vhNumber))).statusCode).toBe(401);
    expect((await search(undefined, 'experts', String(vhNumber))).statusCode).toBe(401);
  });

  it('finds only teachers among experts, with their subjects, for students and teachers alike', async () => {
    const vhNumber = await freshNumber();
    const subject = await createSubject(t.db, { name: `Geometry ${vhNumber}` });
    const expert = await createTeacher(t.db, { subjectIds: [subject.id], vhNumber });
    await createUser(t.db, { role: 'student', vhNumber });

    for (const caller of [student, teacher]) {
      const response = await search(caller, 'experts', String(vhNumber));
      expect(response.statusCode).toBe(200);
      expect(response.json().results).toEqual([
        {
          id: expert.id,
          username: expert.username,
          role: 'teacher',
          vhNumber,
          image: null,
          specializations: [{ id: subject.id, name: subject.name, category: subject.category }],
          ...noTrust,
        },
      ]);
      expect(response.body).not.toContain(expert.email);
      expect(response.body).not.toMatch(/@/);
    }
  });

  it('answers at most 10 people, and never the searcher, an admin or a system account', async () => {
    const vhNumber = await freshNumber();
    for (let n = 0; n < 12; n++) await createUser(t.db, { role: 'student', vhNumber });
    const me = await signIn(t, await createTeacher(t.db, { subjectIds: [], vhNumber }));
    const admin = await createTeacher(t.db, { subjectIds: [], vhNumber });
    await t.db.insert(adminRoles).values({ userId: admin.id, roleName: 'moderator' });
    await createTeacher(t.db, { subjectIds: [], vhNumber, isSystem: true });

    expect((await search(me, 'students', String(vhNumber))).json().results).toHaveLength(10);
    expect((await search(student, 'experts', String(vhNumber))).json().results).toEqual([
      expect.objectContaining({ id: me.user.id }),
    ]);
    expect((await search(me, 'experts', String(vhNumber))).json().results).toEqual([]);
  });

  it('refuses anything but three ASCII digits with the search message', async () => {
    for (const vh of ['', '   ', '12', '1234', '1 2', 'abc', '12a', '١٢٣', '１２３', '-12', '1.5', '0x1']) {
      const response = await search(student, 'experts', vh);
      expect(response.statusCode, JSON.stringify(vh)).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: VH_SEARCH_INVALID });
    }
    expect((await call(t, student, 'GET', '/api/search/experts')).json().message).toBe(VH_SEARCH_INVALID);
    // Numbers outside 100–999 are well formed and simply find nobody.
    expect((await search(student, 'experts', '007')).json()).toEqual({ results: [] });
  });

  it(`stops a user's searches past ${USER_LIMITS.vhSearches.max} a minute, counted in the database`, async () => {
    const searcher = await signedInStudent(t);
    // As another server process would have counted them: the limit lives in the database, not in memory.
    await t.db
      .insert(usageCounters)
      .values({ key: `vhSearches:${searcher.user.id}`, hits: USER_LIMITS.vhSearches.max - 1 });
    expect((await search(searcher, 'experts', '123')).statusCode).toBe(200);
    const refused = await search(searcher, 'experts', '123');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('RATE_LIMITED');
    // Invalid searches count too, and someone else is not affected.
    expect((await search(searcher, 'experts', 'abc')).statusCode).toBe(429);
    expect((await search(student, 'experts', '123')).statusCode).toBe(200);
  });
});
