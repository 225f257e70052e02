import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema/auth.ts';
import { createTeacher } from '../../../../tests/support/factories.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { buildSitemap } from './sitemap.ts';

// What the routes answer is tested with the tutor's public page (features/tutors/public-profile.test.ts); here, the
// paging of a sitemap too large for one file, with pages of two tutors.

const PUBLIC_URL = 'http://tutors.example';

describe('a large sitemap', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL });
    for (let i = 0; i < 5; i++) await createTeacher(t.db, { subjectIds: [] });
    const hidden = await createTeacher(t.db, { subjectIds: [] });
    await t.db.update(users).set({ isVisibleToVisitors: false }).where(eq(users.id, hidden.id));
  });
  afterAll(() => t.close());

  it('is split into pages behind an index, each visible tutor on exactly one page, the public pages on the first', async () => {
    const visible = await t.db.$count(
      users,
      and(eq(users.role, 'teacher'), eq(users.isVisibleToVisitors, true), isNull(users.suspendedAt)),
    );
    const pageSize = 2;
    const build = (page: number | undefined) => buildSitemap({ db: t.db, publicUrl: PUBLIC_URL, page, pageSize });
    const index = (await build(undefined))!;
    expect(index).toContain('<sitemapindex');
    const pageUrls = [...index.matchAll(/<sitemap><loc>([^<]+)<\/loc><\/sitemap>/g)].map(([, loc]) => loc);
    expect(pageUrls).toHaveLength(Math.ceil(visible / pageSize));
    const listed: string[] = [];
    for (const [number, url] of pageUrls.entries()) {
      expect(url).toBe(`${PUBLIC_URL}/sitemap.xml?page=${number + 1}`);
      const sitemapPage = (await build(number + 1))!;
      expect(sitemapPage.includes(`<loc>${PUBLIC_URL}/about</loc>`)).toBe(number === 0);
      listed.push(...[...sitemapPage.matchAll(/\/tutors\/([0-9a-f-]{36})</g)].map(([, id]) => id!));
    }
    expect(new Set(listed).size).toBe(listed.length);
    expect(listed).toHaveLength(visible);
    expect(await build(pageUrls.length + 1)).toBeNull();
  });
});
