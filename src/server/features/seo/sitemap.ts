import { and, asc, eq } from 'drizzle-orm';
import { paths } from '#shared/paths.ts';
import { escapeHtml } from '#shared/rules/text.ts';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema/auth.ts';
import { visibleToVisitors } from '../tutors/service.ts';

// sitemap.xml: the public pages and every tutor visible to visitors, with when their profile last changed. One file
// while it fits in a page; past that, an index of pages (`/sitemap.xml?page=N`), the first with the public pages.

/** Tutors a sitemap page lists: well under the 50,000 addresses a sitemap may hold, and a quick query. */
export const SITEMAP_PAGE_SIZE = 10_000;

/** The public pages worth a search engine's reading: the content pages, contact and Find Tutors. */
export const SITEMAP_PUBLIC_PAGES = [
  paths.home.path,
  paths.tutors.path,
  paths.about.path,
  paths.contact.path,
  paths.privacyPolicy.path,
  paths.terms.path,
  paths.disclaimer.path,
];

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const NAMESPACE = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';

type Entry = { loc: string; lastmod?: Date };

const urlset = (entries: Entry[]) =>
  `${XML_HEAD}<urlset ${NAMESPACE}>\n${entries
    .map(
      ({ loc, lastmod }) =>
        `<url><loc>${escapeHtml(loc)}</loc>${lastmod ? `<lastmod>${lastmod.toISOString()}</lastmod>` : ''}</url>`,
    )
    .join('\n')}\n</urlset>\n`;

const sitemapIndex = (locs: string[]) =>
  `${XML_HEAD}<sitemapindex ${NAMESPACE}>\n${locs.map((loc) => `<sitemap><loc>${escapeHtml(loc)}</loc></sitemap>`).join('\n')}\n</sitemapindex>\n`;

const visibleTutors = () => and(eq(users.role, 'teacher'), eq(users.isSystem, false), visibleToVisitors());

/**
 * The sitemap, or one page of it (`page` from 1); null for a page past the last. Without `page`: the whole sitemap
 * when the tutors fit in one page, else the index of its pages.
 */
export async function buildSitemap({
  db,
  publicUrl,
  page,
  pageSize = SITEMAP_PAGE_SIZE,
}: {
  db: Executor;
  publicUrl: string;
  page: number | undefined;
  pageSize?: number;
}): Promise<string | null> {
  const pages = Math.max(1, Math.ceil((await db.$count(users, visibleTutors())) / pageSize));
  if (page === undefined && pages > 1) {
    return sitemapIndex(Array.from({ length: pages }, (_, index) => `${publicUrl}/sitemap.xml?page=${index + 1}`));
  }
  const number = page ?? 1;
  if (number > pages) return null;
  const tutors = await db
    .select({ id: users.id, updatedAt: users.updatedAt })
    .from(users)
    .where(visibleTutors())
    .orderBy(asc(users.id))
    .limit(pageSize)
    .offset((number - 1) * pageSize);
  return urlset([
    ...(number === 1
      ? SITEMAP_PUBLIC_PAGES.map((pagePath) => ({ loc: `${publicUrl}${pagePath === '/' ? '/' : pagePath}` }))
      : []),
    ...tutors.map((tutor) => ({ loc: `${publicUrl}${paths.tutor.getHref(tutor.id)}`, lastmod: tutor.updatedAt })),
  ]);
}

/** Areas only a signed-in user reaches, and the API: nothing there for a search engine. */
const PRIVATE_AREAS = [
  '/api/',
  '/admin',
  '/chat',
  '/profile',
  '/settings/',
  '/checkout/',
  '/payments',
  '/earnings',
  '/student/',
  '/teacher/',
  '/search-',
  '/report-user/',
  '/auth/reset-password',
];

/** robots.txt: everything public may be read, the private areas not, and where the sitemap is. */
export const robotsTxt = (publicUrl: string) =>
  `User-agent: *\n${PRIVATE_AREAS.map((area) => `Disallow: ${area}`).join('\n')}\nAllow: /\n\nSitemap: ${publicUrl}/sitemap.xml\n`;
