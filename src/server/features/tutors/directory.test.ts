import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bestMatchScore } from '#shared/rules/best-match.ts';
import { DIRECTORY, DIRECTORY_SORTS, type DirectorySort, type TutorCard } from '#shared/schemas/directory.ts';
import { users } from '../../db/schema/auth.ts';
import { subjects, teacherSpecializations } from '../../db/schema/subjects.ts';
import { call, signedInStudent, signedInTeacher, type Caller } from '../../../../tests/support/callers.ts';
import { createRequest, createSubject, createTeacher } from '../../../../tests/support/factories.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { HOUR_MS } from '../../../../tests/support/time.ts';

// Find Tutors against a plain query over the same rows: every filter and sort, paged to the end.

/** Made-up words the stemmer leaves alone, written into headlines, so a search matches only this file's tutors. */
const TAGS = ['quaxor', 'blimtu', 'zarkov'] as const;
const NO_RATE = 2_147_483_647;

type Filters = {
  q?: string;
  subjects?: string[];
  minRating?: number;
  minRateCents?: number;
  maxRateCents?: number;
  respondsWithin?: number;
  sort: DirectorySort;
};

const toUrl = (filters: Filters, cursor?: string | null) => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) params.set(key, String(value));
  if (cursor) params.set('cursor', cursor);
  return `/api/tutors?${params}`;
};

describe('Find Tutors', () => {
  let t: TestApp;
  let subjectIds: string[];
  let viewer: Caller;

  /** Every page of a search, in order. */
  async function pageThrough(caller: Caller | undefined, filters: Filters) {
    const seen: TutorCard[] = [];
    let cursor: string | null = null;
    do {
      const response = await call(t, caller, 'GET', toUrl(filters, cursor));
      expect(response.statusCode, response.body).toBe(200);
      const page = response.json<{ tutors: TutorCard[]; nextCursor: string | null }>();
      expect(page.tutors.length).toBeLessThanOrEqual(DIRECTORY.pageSize);
      seen.push(...page.tutors);
      cursor = page.nextCursor;
    } while (cursor);
    return seen;
  }

  /** The same search by hand: every teacher row read plainly, filtered and sorted here. */
  async function expectedIds(filters: Filters, isSignedIn: boolean) {
    const rows = await t.db
      .select({
        id: users.id,
        isSystem: users.isSystem,
        suspendedAt: users.suspendedAt,
        isVisibleToVisitors: users.isVisibleToVisitors,
        headline: users.headline,
        reviewCount: users.reviewCount,
        reviewRatingSum: users.reviewRatingSum,
        jobsCompleted: users.jobsCompleted,
        responseMinutes: users.responseMinutes,
        hourlyRateCents: users.hourlyRateCents,
        createdMicros: sql<string>`(extract(epoch from ${users.createdAt}) * 1000000)::bigint::text`,
        subjectIds: sql<
          string[]
        >`array(select subject_id from ${teacherSpecializations} where teacher_id = ${users.id})`,
      })
      .from(users)
      .where(eq(users.role, 'teacher'));
    const words = filters.q?.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
    const chosen = filters.subjects ?? [];
    const kept = rows.filter(
      (row) =>
        !row.isSystem &&
        row.suspendedAt === null &&
        (isSignedIn || row.isVisibleToVisitors) &&
        words.every((word) =>
          (row.headline ?? '')
            .toLowerCase()
            .split(/\s+/)
            .some((w) => w.startsWith(word)),
        ) &&
        (chosen.length === 0 || row.subjectIds.some((id) => chosen.includes(id))) &&
        (filters.minRating === undefined ||
          (row.reviewCount > 0 && row.reviewRatingSum >= filters.minRating * row.reviewCount)) &&
        (filters.minRateCents === undefined ||
          (row.hourlyRateCents !== null && row.hourlyRateCents >= filters.minRateCents)) &&
        (filters.maxRateCents === undefined ||
          (row.hourlyRateCents !== null && row.hourlyRateCents <= filters.maxRateCents)) &&
        (filters.respondsWithin === undefined ||
          (row.responseMinutes !== null && row.responseMinutes <= filters.respondsWithin)),
    );
    const keysOf = (row: (typeof rows)[number]): bigint[] => {
      switch (filters.sort) {
        case 'best':
          return [BigInt(bestMatchScore(row))];
        case 'rating':
          return [
            row.reviewCount === 0 ? 0n : (BigInt(row.reviewRatingSum) * 10000n) / BigInt(row.reviewCount),
            BigInt(row.reviewCount),
          ];
        case 'price':
          return [BigInt(row.hourlyRateCents ?? NO_RATE)];
        case 'newest':
          return [BigInt(row.createdMicros)];
      }
    };
    const sign = filters.sort === 'price' ? 1 : -1;
    const compare = (a: (typeof rows)[number], b: (typeof rows)[number]) => {
      const [ka, kb] = [keysOf(a), keysOf(b)];
      for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return (ka[i]! < kb[i]! ? -1 : 1) * sign;
      return (a.id < b.id ? -1 : 1) * sign;
    };
    return kept.sort(compare).map((row) => row.id);
  }

  beforeAll(async () => {
    t = await createTestApp();
    subjectIds = [];
    for (const name of ['Directory algebra', 'Directory biology', 'Directory chemistry'])
      subjectIds.push((await createSubject(t.db, { name })).id);
    viewer = await signedInStudent(t);
    // Random tutors, some created at the same instant, so that ties in every key are paged too.
    const sameInstant = new Date();
    const tutors = fc.sample(
      fc.record({
        reviewCount: fc.integer({ min: 0, max: 40 }),
        stars: fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 40, maxLength: 40 }),
        jobsCompleted: fc.integer({ min: 0, max: 150 }),
        responseMinutes: fc.option(fc.constantFrom(5, 60, 61, 360, 1440, 1441, 5000), { nil: null }),
        hourlyRateCents: fc.option(fc.integer({ min: 800, max: 1500 }), { nil: null }),
        isVisibleToVisitors: fc.boolean(),
        isSuspended: fc.integer({ min: 0, max: 4 }).map((draw) => draw === 0),
        tags: fc.subarray([...TAGS]),
        subjects: fc.subarray([0, 1, 2]),
        sameInstant: fc.boolean(),
      }),
      { numRuns: 120, seed: 35 },
    );
    for (const tutor of tutors) {
      await createTeacher(t.db, {
        subjectIds: tutor.subjects.map((index) => subjectIds[index]!),
        headline: `Tutor ${tutor.tags.join(' ')}`,
        reviewCount: tutor.reviewCount,
        reviewRatingSum: tutor.stars.slice(0, tutor.reviewCount).reduce((sum, stars) => sum + stars, 0),
        jobsCompleted: tutor.jobsCompleted,
        responseMinutes: tutor.responseMinutes,
        hourlyRateCents: tutor.hourlyRateCents,
        isVisibleToVisitors: tutor.isVisibleToVisitors,
        suspendedAt: tutor.isSuspended ? new Date() : null,
        ...(tutor.sameInstant ? { createdAt: sameInstant } : {}),
      });
    }
  });
  afterAll(() => t.close());

  it('answers every filter and sort as the plain query over the same rows, signed in and out', async () => {
    const filters = fc.record(
      {
        q: fc.constantFrom(...TAGS, 'quax', 'blimtu zar'),
        subjects: fc.subarray([0, 1, 2], { minLength: 1 }),
        minRating: fc.constantFrom(...DIRECTORY.minRatings),
        minRateCents: fc.integer({ min: 800, max: 1100 }),
        maxRateCents: fc.integer({ min: 1100, max: 1500 }),
        respondsWithin: fc.constantFrom(...DIRECTORY.respondsWithinMinutes),
        sort: fc.constantFrom(...DIRECTORY_SORTS),
        signedIn: fc.boolean(),
      },
      { requiredKeys: ['sort', 'signedIn'] },
    );
    let severalFound = 0;
    await fc.assert(
      fc.asyncProperty(filters, async ({ signedIn, subjects: chosen, ...rest }) => {
        const search: Filters = { ...rest, ...(chosen ? { subjects: chosen.map((i) => subjectIds[i]!) } : {}) };
        const got = await pageThrough(signedIn ? viewer : undefined, search);
        expect(got.map((card) => card.id)).toEqual(await expectedIds(search, signedIn));
        if (got.length > 1) severalFound++;
      }),
      { numRuns: 100, seed: 35 },
    );
    // The random searches are not all empty: the order is really compared.
    expect(severalFound).toBeGreaterThan(20);
  });

  it('searches headline, about text and subject names by word beginnings', async () => {
    const teacher = await createTeacher(t.db, {
      subjectIds: [subjectIds[2]!],
      headline: 'Patient tutor',
      about: 'I explain photosynthesis with drawings.',
    });
    const ids = async (q: string) => (await pageThrough(viewer, { q, sort: 'best' })).map((card) => card.id);
    expect(await ids('photosynth')).toEqual([teacher.id]);
    expect(await ids('patient photosynthesis')).toEqual([teacher.id]);
    expect(await ids('directory chemistry')).toContain(teacher.id);
    expect(await ids('patient zarkov')).toEqual([]);
    // Query syntax is only text: none of it is an error.
    for (const q of ["photo:* & !'", '(((', '!!!', '<->', ' '])
      expect((await call(t, viewer, 'GET', toUrl({ q, sort: 'best' }))).statusCode).toBe(200);
    // The document follows the subjects and the texts.
    await t.db.delete(teacherSpecializations).where(eq(teacherSpecializations.teacherId, teacher.id));
    expect(await ids('directory chemistry')).not.toContain(teacher.id);
    await t.db.update(users).set({ about: 'Mitochondria stories' }).where(eq(users.id, teacher.id));
    expect(await ids('photosynth')).toEqual([]);
    expect(await ids('mitochond')).toEqual([teacher.id]);
  });

  it('keeps the cards’ subjects and the subject filter with the tutor’s subjects and their names', async () => {
    const subject = await createSubject(t.db, { name: 'Directory optics' });
    const teacher = await createTeacher(t.db, { subjectIds: [subject.id], headline: 'Optics tutor' });
    const card = async () =>
      (await pageThrough(viewer, { subjects: [subject.id], sort: 'best' })).find((found) => found.id === teacher.id);
    expect((await card())?.subjects).toEqual(['Directory optics']);
    await t.db.update(subjects).set({ name: 'Directory wave optics' }).where(eq(subjects.id, subject.id));
    expect((await card())?.subjects).toEqual(['Directory wave optics']);
    await t.db.delete(teacherSpecializations).where(eq(teacherSpecializations.teacherId, teacher.id));
    expect(await card()).toBeUndefined();
  });

  it('pages without gaps or repeats while tutors are added between pages', async () => {
    const tag = 'vorpelt';
    const make = (score: number) =>
      createTeacher(t.db, {
        subjectIds: [],
        headline: `Tutor ${tag}`,
        jobsCompleted: score,
        createdAt: new Date(Date.now() - score * HOUR_MS),
      });
    const before: string[] = [];
    for (let i = 0; i < 45; i++) before.push((await make(i)).id);
    for (const sort of DIRECTORY_SORTS) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { tutors: TutorCard[]; nextCursor: string | null } = (
          await call(t, viewer, 'GET', toUrl({ q: tag, sort }, cursor))
        ).json();
        seen.push(...page.tutors.map((card) => card.id));
        cursor = page.nextCursor;
        // One tutor who sorts first and one who sorts last arrive after each page.
        await make(0);
        await make(100);
      } while (cursor);
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).toEqual(expect.arrayContaining(before));
    }
  });

  it('never shows suspended tutors, shows hidden ones only to signed-in users and no private field to anyone', async () => {
    const tag = 'plimsor';
    const visible = await createTeacher(t.db, { subjectIds: [], headline: `Tutor ${tag}` });
    const hidden = await createTeacher(t.db, { subjectIds: [], headline: `Tutor ${tag}`, isVisibleToVisitors: false });
    await createTeacher(t.db, { subjectIds: [], headline: `Tutor ${tag}`, suspendedAt: new Date() });
    const signedOut = await call(t, undefined, 'GET', toUrl({ q: tag, sort: 'newest' }));
    expect(signedOut.json().tutors.map((card: TutorCard) => card.id)).toEqual([visible.id]);
    for (const field of ['email', 'vhNumber', 'isVisibleToVisitors', 'suspended'])
      expect(signedOut.body).not.toContain(field);
    expect(signedOut.body).not.toContain(visible.email);
    expect(signedOut.headers['cache-control']).toBe('no-store');
    const teacher = await signedInTeacher(t, []);
    for (const caller of [viewer, teacher]) {
      const signedIn = (await call(t, caller, 'GET', toUrl({ q: tag, sort: 'newest' }))).json();
      expect(signedIn.tutors.map((card: TutorCard) => card.id)).toEqual([hidden.id, visible.id]);
    }
  });

  it('refuses bad filters and cursors with their message', async () => {
    const cases: [string, string, string][] = [
      ['minRating=2', 'minRating', 'Please choose a minimum rating from the list'],
      ['respondsWithin=5', 'respondsWithin', 'Please choose a response time from the list'],
      ['sort=cheapest', 'sort', 'Please choose a sort from the list'],
      ['subjects=abc', 'subjects', 'Unknown subject'],
      ['minRateCents=799', 'minRateCents', 'Rates are between $8 and $15'],
      ['maxRateCents=12.5', 'maxRateCents', 'Rates are between $8 and $15'],
      ['minRateCents=1200&maxRateCents=1000', 'maxRateCents', 'The lowest rate cannot be above the highest rate'],
      // Well formed, but no such subject: refused as a request for it would be.
      [`subjects=${subjectIds[0]},${randomUUID()}`, 'subjects', 'Unknown subject'],
      [`q=${'a'.repeat(101)}`, 'q', 'A search can be at most 100 characters'],
      ['cursor=1_x', 'cursor', 'Invalid page cursor'],
      [`sort=rating&cursor=400_${viewer.user.id}`, 'cursor', 'Invalid page cursor'],
      [`sort=best&cursor=1.2_${viewer.user.id}`, 'cursor', 'Invalid page cursor'],
      // Past the database's bigint: refused, never a failed query.
      [`sort=newest&cursor=${'9'.repeat(20)}_${viewer.user.id}`, 'cursor', 'Invalid page cursor'],
    ];
    for (const [query, field, message] of cases) {
      const response = await call(t, undefined, 'GET', `/api/tutors?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(Object.entries(response.json().fields ?? {}), query).toContainEqual([
        expect.stringContaining(field),
        message,
      ]);
    }
  });

  it('keeps a tutor’s median response time when they bid', async () => {
    const tutor = await signedInTeacher(t, [subjectIds[0]!]);
    const student = await signedInStudent(t);
    const request = await createRequest(t.db, {
      studentId: student.user.id,
      subjectId: subjectIds[0]!,
      createdAt: new Date(Date.now() - 2 * HOUR_MS),
    });
    const bid = await call(t, tutor, 'POST', `/api/jobs/${request.id}/bids`, { amountCents: 1000 });
    expect(bid.statusCode, bid.body).toBe(201);
    const [row] = await t.db.select({ minutes: users.responseMinutes }).from(users).where(eq(users.id, tutor.user.id));
    expect(row!.minutes).toBe(120);
  });
});
