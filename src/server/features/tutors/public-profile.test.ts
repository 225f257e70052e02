import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_RENDERED_SLOT, serverRenderedTemplateFile } from '#shared/prerendered-pages.ts';
import { sessions, users } from '../../db/schema/auth.ts';
import { reviews } from '../../db/schema/reviews.ts';
import { tutoringRequests } from '../../db/schema/requests.ts';
import {
  createBid,
  createRequest,
  createSessionCookie,
  createSubject,
  createUser,
} from '../../../../tests/support/factories.ts';
import { call, signedInStudent, signedInTeacher, type Caller } from '../../../../tests/support/callers.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { scriptSafeJson } from './public-page-head.ts';

// A tutor's public page for visitors who are not signed in: the API answer and the server-rendered HTML hold nothing
// private, hidden or suspended tutors are not found, and sitemap.xml lists only the tutors visitors may see.

// Over http, so that the test's session cookies keep their plain name.
const PUBLIC_URL = 'http://tutors.example';
const INDEX = '<!doctype html><html><head><title>Virtual Help</title></head><body><div id="root"></div></body></html>';
const TEMPLATE = `<!doctype html><html><head><meta charset="utf-8">
<meta
  name="description"
  content="The site's own description."
/><title>Virtual Help</title></head><body><div id="root"><header>Find Tutors</header><main>${SERVER_RENDERED_SLOT}</main></div></body></html>`;

/** The text less its ids, which may hold any digits. */
const withoutUuids = (text: string) =>
  text.replaceAll(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '');

describe('a tutor’s public page for visitors', () => {
  let t: TestApp;
  let subjectId: string;
  beforeAll(async () => {
    const webDir = mkdtempSync(path.join(os.tmpdir(), 'vh-web-'));
    writeFileSync(path.join(webDir, 'index.html'), INDEX);
    const template = path.join(webDir, serverRenderedTemplateFile({ payments: true }));
    mkdirSync(path.dirname(template), { recursive: true });
    writeFileSync(template, TEMPLATE);
    t = await createTestApp({ PUBLIC_URL }, { webDir });
    subjectId = (await createSubject(t.db, { name: 'Quantum chemistry' })).id;
  });
  afterAll(() => t.close());

  /** A teacher with texts a page could leak through, and one review by a student whose name must not appear. */
  async function tutorWithReview(changes: Partial<typeof users.$inferInsert> = {}) {
    const tutor = await signedInTeacher(t, [subjectId]);
    await t.db
      .update(users)
      .set({
        headline: 'Calm chemistry help',
        about: 'Ten years of teaching.',
        vhNumber: 987,
        fullName: 'Private Fullname',
        ...changes,
      })
      .where(eq(users.id, tutor.user.id));
    const student = await createUser(t.db, { role: 'student', username: `reviewer${Date.now()}`, vhNumber: 654 });
    const request = await createRequest(t.db, { studentId: student.id, subjectId, status: 'completed' });
    const bid = await createBid(t.db, { requestId: request.id, tutorId: tutor.user.id, status: 'accepted' });
    await t.db.update(tutoringRequests).set({ acceptedBidId: bid.id }).where(eq(tutoringRequests.id, request.id));
    await t.db.insert(reviews).values({
      requestId: request.id,
      studentId: student.id,
      bidId: bid.id,
      tutorId: tutor.user.id,
      rating: 4,
      body: 'Explained orbitals clearly.',
    });
    await t.db
      .update(users)
      .set({ reviewCount: 1, reviewRatingSum: 4, jobsCompleted: 1 })
      .where(eq(users.id, tutor.user.id));
    return { tutor, student };
  }

  const page = (url: string, cookie?: string) =>
    t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

  it('answers a visitor with the public profile, without the e-mail or the VH number', async () => {
    const { tutor } = await tutorWithReview();
    const response = await call(t, undefined, 'GET', `/api/tutors/${tutor.user.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: tutor.user.id,
      username: tutor.user.username,
      headline: 'Calm chemistry help',
      vhNumber: null,
      ratingAverage: 4,
      reviewCount: 1,
    });
    const withoutIds = withoutUuids(response.body);
    for (const secret of [tutor.user.email, '"email"', '987', 'Private Fullname'])
      expect(withoutIds).not.toContain(secret);
    const member = await signedInStudent(t);
    expect((await call(t, member, 'GET', `/api/tutors/${tutor.user.id}`)).json().vhNumber).toBe(987);
  });

  it('is not found by visitors for a hidden or suspended tutor, a student or an unknown id; members see a hidden one', async () => {
    const { tutor: hidden } = await tutorWithReview({ isVisibleToVisitors: false });
    const { tutor: suspended } = await tutorWithReview({ suspendedAt: new Date() });
    const student = await signedInStudent(t);
    for (const id of [hidden.user.id, suspended.user.id, student.user.id, crypto.randomUUID()]) {
      expect((await call(t, undefined, 'GET', `/api/tutors/${id}`)).statusCode, id).toBe(404);
      const html = await page(`/tutors/${id}`);
      expect(html.statusCode, id).toBe(404);
      expect(html.body).toContain('Tutor not found');
      expect(html.body).toContain('<meta name="robots" content="noindex">');
      expect(html.body).not.toContain(hidden.user.username);
    }
    expect((await page('/tutors/not-an-id')).statusCode).toBe(404);
    expect((await call(t, student, 'GET', `/api/tutors/${hidden.user.id}`)).statusCode).toBe(200);
    expect((await call(t, undefined, 'GET', `/api/tutors/${hidden.user.id}/reviews`)).statusCode).toBe(401);
  });

  it('renders the page on the server: meta tags, canonical address, Open Graph, JSON-LD and reviews by "Student"', async () => {
    const { tutor, student } = await tutorWithReview();
    const response = await page(`/tutors/${tutor.user.id}?ref=search`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers.vary).toContain('cookie');
    const html = response.body;
    const url = `${PUBLIC_URL}/tutors/${tutor.user.id}`;
    expect(html).toContain(`<title>${tutor.user.username} – Tutor on Virtual Help</title>`);
    expect(html).toContain(
      '<meta name="description" content="Calm chemistry help. Rated 4.0 out of 5 from 1 review.">',
    );
    expect(html).not.toContain("The site's own description.");
    expect(html).toContain(`<link rel="canonical" href="${url}">`);
    expect(html).toContain(`<meta property="og:url" content="${url}">`);
    expect(html).toContain('<meta property="og:type" content="profile">');
    expect(html).toContain(`Sign up to ask ${tutor.user.username}`);
    expect(html).toContain('href="/auth/register?role=student"');
    expect(html).toContain('Explained orbitals clearly.');
    expect(html).toContain('>Student<');
    expect(html).toContain('Quantum chemistry');
    const secrets = [
      tutor.user.email,
      student.email,
      student.username,
      'Private Fullname',
      'VH',
      '987',
      '654',
      '<script>',
    ];
    for (const secret of secrets) {
      expect(withoutUuids(html), secret).not.toContain(secret);
    }
    const [, jsonLd] = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html) ?? [];
    expect(JSON.parse(jsonLd!)).toEqual({
      '@context': 'https://schema.org',
      '@type': 'Person',
      name: tutor.user.username,
      url,
      description: 'Calm chemistry help. Rated 4.0 out of 5 from 1 review.',
      jobTitle: 'Tutor',
      knowsAbout: ['Quantum chemistry'],
      aggregateRating: { '@type': 'AggregateRating', ratingValue: 4, reviewCount: 1, bestRating: 5, worstRating: 1 },
    });
  });

  it('keeps a tutor’s text inside its elements: no </script> or tag gets out of the JSON-LD or the page', async () => {
    const { tutor } = await tutorWithReview({ headline: '</script><script>alert(1)</script> & <b>"bold"</b>' });
    const html = (await page(`/tutors/${tutor.user.id}`)).body;
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(html).not.toContain('<b>');
    const [, jsonLd] = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html) ?? [];
    expect(JSON.parse(jsonLd!).description).toContain('</script><script>alert(1)</script> & <b>"bold"</b>');
    expect(scriptSafeJson({ text: '</script>\u2028' })).toBe('{"text":"\\u003c/script\\u003e\\u2028"}');
  });

  it('gives a visitor with a session the app, which shows its own profile screen', async () => {
    const { tutor } = await tutorWithReview();
    const member: Caller = await signedInStudent(t);
    const response = await page(`/tutors/${tutor.user.id}`, member.cookie);
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(INDEX);
  });

  it('gives a visitor whose session cookie is expired, ended or unknown the server’s page, not the app', async () => {
    const { tutor } = await tutorWithReview();
    const student = await createUser(t.db, { role: 'student' });
    const expired = await createSessionCookie(t.db, student.id);
    await t.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.id, expired.sessionId));
    const ended = await createSessionCookie(t.db, student.id);
    await t.db.delete(sessions).where(eq(sessions.id, ended.sessionId));
    const unknown = `${expired.name}=${encodeURIComponent('not-a-session.token')}`;
    for (const cookie of [expired.header, ended.header, unknown]) {
      const response = await page(`/tutors/${tutor.user.id}`, cookie);
      expect(response.statusCode, cookie).toBe(200);
      expect(response.headers.vary).toContain('cookie');
      expect(response.body).not.toBe(INDEX);
      expect(response.body).toContain(`Sign up to ask ${tutor.user.username}`);
    }
    // An unknown tutor is the server's 404 page for them too, not the app.
    const missing = await page(`/tutors/${crypto.randomUUID()}`, unknown);
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('Tutor not found');
  });

  it('lists the public pages and only the visible tutors in sitemap.xml, and points robots.txt to it', async () => {
    const { tutor: visible } = await tutorWithReview();
    const { tutor: hidden } = await tutorWithReview({ isVisibleToVisitors: false });
    const { tutor: suspended } = await tutorWithReview({ suspendedAt: new Date() });
    const student = await signedInStudent(t);
    const response = await page('/sitemap.xml');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/xml/);
    const sitemap = response.body;
    expect(sitemap).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset /);
    expect(sitemap).toContain(`<loc>${PUBLIC_URL}/</loc>`);
    expect(sitemap).toContain(`<loc>${PUBLIC_URL}/tutors</loc>`);
    expect(sitemap).toMatch(
      new RegExp(
        `<url><loc>${PUBLIC_URL}/tutors/${visible.user.id}</loc><lastmod>\\d{4}-\\d\\d-\\d\\dT[^<]+</lastmod></url>`,
      ),
    );
    for (const absent of [hidden, suspended, student]) expect(sitemap).not.toContain(absent.user.id);
    expect((await page('/sitemap.xml?page=2')).statusCode).toBe(404);
    expect((await page('/sitemap.xml?page=0')).statusCode).toBe(400);

    const robots = await page('/robots.txt');
    expect(robots.headers['content-type']).toMatch(/^text\/plain/);
    expect(robots.body).toContain('Disallow: /api/\n');
    expect(robots.body).toContain('Disallow: /admin\n');
    expect(robots.body).toContain(`Sitemap: ${PUBLIC_URL}/sitemap.xml\n`);
  });
});
