import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema/auth.ts';
import { createSessionCookie, createUser, SESSION_COOKIE } from '../../../tests/support/factories.ts';
import { createTestApp, type TestApp } from '../../../tests/support/test-app.ts';
import { pageFrameFile, prerenderedPageFile } from '#shared/prerendered-pages.ts';
import { settingsMetaTags, settingsPlaceholders, telHref } from '#shared/public-settings.ts';

const PAGE = `<!doctype html><title>Virtual Help</title>${'<p>A page.</p>'.repeat(100)}`;
const SCRIPT = `console.log(1);${' void 0;'.repeat(300)}`;
// Public pages as the build writes them: a content page, and a page with a form, which names the boot script (the
// whole pages have a describe of their own).
const ABOUT = `<!doctype html><title>Virtual Help</title>${'<p>About us.</p>'.repeat(100)}`;
const SIGN_IN = `<!doctype html><title>Virtual Help</title><script type="module" src="/assets/boot.js"></script>${'<p>Sign in.</p>'.repeat(100)}`;
// A signed-in page's own frame: index.html with the page's heading, for the roles that may see the page (the jobs
// page's is the teacher's), or one per role where the page's first look differs by role.
const JOBS_FRAME = `<!doctype html><title>Available Jobs</title>${'<h1>Available Jobs</h1>'.repeat(100)}`;
const chatFrame = (role: string) => `<!doctype html><title>Chat</title>${`<p>Buttons for a ${role}</p>`.repeat(100)}`;

describe('the web app', () => {
  let t: TestApp;
  beforeAll(async () => {
    const webDir = mkdtempSync(path.join(os.tmpdir(), 'vh-web-'));
    // As the build writes them: each text file with its brotli and gzip copies.
    const write = (file: string, text: string) => {
      writeFileSync(path.join(webDir, file), text);
      writeFileSync(path.join(webDir, `${file}.br`), brotliCompressSync(text));
      writeFileSync(path.join(webDir, `${file}.gz`), gzipSync(text));
    };
    write('index.html', PAGE);
    mkdirSync(path.join(webDir, 'prerendered/auth'), { recursive: true });
    write(prerenderedPageFile('/about', { payments: true }), ABOUT);
    write(prerenderedPageFile('/auth/login', { payments: true }), SIGN_IN);
    mkdirSync(path.join(webDir, path.dirname(pageFrameFile('/teacher/jobs'))), { recursive: true });
    write(pageFrameFile('/teacher/jobs', 'teacher'), JOBS_FRAME);
    for (const role of ['student', 'teacher']) write(pageFrameFile('/chat', role), chatFrame(role));
    mkdirSync(path.join(webDir, 'assets'));
    write('assets/app-1234.js', SCRIPT);
    t = await createTestApp({}, { webDir });
  });
  afterAll(() => t.close());

  it('answers HEAD like GET for pages and assets, without a body', async () => {
    for (const url of ['/', '/chat', '/assets/app-1234.js']) {
      const [get, head] = await Promise.all([
        t.app.inject({ method: 'GET', url }),
        t.app.inject({ method: 'HEAD', url }),
      ]);
      expect(get.statusCode, url).toBe(200);
      expect(head.statusCode, url).toBe(200);
      expect(head.headers['content-type']).toBe(get.headers['content-type']);
      expect(head.body).toBe('');
    }
  });

  it('sends a public page for its path (a page with a form only without a query string), and the shell for other pages', async () => {
    const page = async (url: string) => {
      const response = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
      expect(response.headers['content-type'], url).toMatch(/^text\/html/);
      expect(response.headers['content-security-policy'], url).toContain("script-src 'self'");
      return brotliDecompressSync(response.rawPayload).toString();
    };
    expect(await page('/about')).toBe(ABOUT);
    expect(await page('/about?ref=mail')).toBe(ABOUT);
    expect(await page('/auth/login')).toBe(SIGN_IN);
    expect(await page('/auth/login?redirectTo=%2Fchat')).toBe(PAGE);
    expect(await page('/chat')).toBe(PAGE);
    expect(await page('/auth')).toBe(PAGE);
    expect(await page('/prerendered/about')).toBe(PAGE);
  });

  it("sends a signed-in page's frame to a visitor of its role, whatever the query, and the shell otherwise", async () => {
    const page = async (url: string, headers: Record<string, string> = {}) => {
      const response = await t.app.inject({ method: 'GET', url, headers });
      expect(response.headers['content-type'], url).toMatch(/^text\/html/);
      expect(response.headers.vary, url).toContain('cookie');
      return response.body;
    };
    const teacher = (await createSessionCookie(t.db, (await createUser(t.db, { role: 'teacher' })).id)).header;
    const student = (await createSessionCookie(t.db, (await createUser(t.db, { role: 'student' })).id)).header;
    expect(await page('/teacher/jobs', { cookie: teacher })).toBe(JOBS_FRAME);
    expect(await page('/teacher/jobs?highlight=1', { cookie: teacher })).toBe(JOBS_FRAME);
    // A role without a frame of the page: the app, which tells a student that the page is for teachers.
    expect(await page('/teacher/jobs', { cookie: student })).toBe(PAGE);
    expect(await page('/teacher/jobs')).toBe(PAGE);
    // The frame's file is no public page of its own.
    for (const url of ['/frames/teacher/jobs', '/prerendered/frames/teacher/jobs.teacher.html']) {
      const response = await t.app.inject({ method: 'GET', url, headers: { cookie: teacher } });
      expect(response.body, url).not.toBe(JOBS_FRAME);
    }
  });

  it("sends a page's frame for the visitor's role, and the shell to a visitor whose session is not valid", async () => {
    const page = async (headers: Record<string, string> = {}) => {
      const response = await t.app.inject({ method: 'GET', url: '/chat', headers });
      expect(response.headers.vary).toContain('cookie');
      return response.body;
    };
    for (const role of ['student', 'teacher'] as const) {
      const { header } = await createSessionCookie(t.db, (await createUser(t.db, { role })).id);
      expect(await page({ cookie: header }), role).toBe(chatFrame(role));
    }
    expect(await page({ cookie: `${SESSION_COOKIE}=not-a-session` })).toBe(PAGE);
    expect(await page()).toBe(PAGE);
    // A suspended user's session counts for nothing.
    const suspended = await createUser(t.db, { role: 'student' });
    const { header } = await createSessionCookie(t.db, suspended.id);
    await t.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, suspended.id));
    expect(await page({ cookie: header })).toBe(PAGE);
  });

  it('answers an unknown API path with a JSON 404, for GET and HEAD', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/nothing-here' })).json()).toEqual({
      code: 'NOT_FOUND',
      message: 'Not found',
    });
    expect((await t.app.inject({ method: 'HEAD', url: '/api/nothing-here' })).statusCode).toBe(404);
  });

  it('sends the brotli or gzip copy the browser accepts, with its own length, and the original otherwise', async () => {
    for (const [url, original] of [
      ['/assets/app-1234.js', SCRIPT],
      ['/chat', PAGE],
    ] as const) {
      const br = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(br.headers['content-encoding'], url).toBe('br');
      expect(br.headers.vary).toMatch(/accept-encoding/i);
      expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(original);

      const gzip = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
      expect(gzip.headers['content-encoding'], url).toBe('gzip');
      expect(gunzipSync(gzip.rawPayload).toString()).toBe(original);

      const plain = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
      expect(plain.headers['content-encoding'], url).toBeUndefined();
      expect(plain.body).toBe(original);
    }
  });

  it('compresses JSON answers over 1 KB and leaves small ones alone', async () => {
    const large = await t.app.inject({
      method: 'GET',
      url: '/api/openapi.json',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(large.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(large.rawPayload).toString())).toHaveProperty('openapi');
    const small = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'accept-encoding': 'br' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toMatchObject({ ok: true });
  });
});

describe('a whole page', () => {
  const APP = `<!doctype html><title>Virtual Help</title><script type="module" src="/assets/app.js"></script>`;
  // As the build renders the home page: the support details are placeholders the server fills in.
  const HOME = `<!doctype html><title>Virtual Help</title>${'<p>Welcome.</p>'.repeat(100)}<footer><a href="${telHref(
    settingsPlaceholders.supportPhone,
  )}">${settingsPlaceholders.supportPhone}</a></footer>`;
  // A page with a form: the app that hydrates it reads the settings from its head.
  const HOLD = `document.title = 'held';`;
  const SIGN_IN = `<!doctype html><title>Sign in</title>${settingsMetaTags({ payments: true })}<script>${HOLD}</script><script type="module" src="/assets/boot.js"></script><form></form>`;
  let t: TestApp;
  beforeAll(async () => {
    const webDir = mkdtempSync(path.join(os.tmpdir(), 'vh-web-'));
    mkdirSync(path.join(webDir, 'prerendered/auth'), { recursive: true });
    writeFileSync(path.join(webDir, 'index.html'), APP);
    writeFileSync(path.join(webDir, prerenderedPageFile('/', { payments: true })), HOME);
    writeFileSync(path.join(webDir, prerenderedPageFile('/auth/login', { payments: true })), SIGN_IN);
    t = await createTestApp({ SUPPORT_PHONE: '+44 20 7946 0958' }, { webDir });
  });
  afterAll(() => t.close());

  const filledHome = HOME.replace(
    `<a href="tel:+990000000001">+990000000001</a>`,
    `<a href="tel:+442079460958">+44 20 7946 0958</a>`,
  );

  it("goes to a signed-out visitor with the server's support details, compressed as the browser accepts", async () => {
    expect(filledHome).not.toBe(HOME);
    const br = await t.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-type']).toMatch(/^text\/html/);
    expect(br.headers['cache-control']).toBe('no-cache');
    expect(br.headers.vary).toMatch(/cookie/i);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['content-encoding']).toBe('br');
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(filledHome);

    const gzip = await t.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(filledHome);

    const plain = await t.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(filledHome);

    const head = await t.app.inject({ method: 'HEAD', url: '/', headers: { 'accept-encoding': 'br' } });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe(br.headers['content-type']);
    expect(head.body).toBe('');
  });

  it('gives way to the app for a visitor with a session cookie', async () => {
    for (const headers of [{ cookie: `${SESSION_COOKIE}=anything` }, { cookie: `__Secure-${SESSION_COOKIE}=x` }]) {
      const response = await t.app.inject({ method: 'GET', url: '/', headers });
      expect(response.body).toBe(APP);
      expect(response.headers.vary).toMatch(/cookie/i);
    }
    // Another cookie is no session, and the page reads no query string.
    expect((await t.app.inject({ method: 'GET', url: '/', headers: { cookie: 'theme=dark' } })).body).toBe(filledHome);
    expect((await t.app.inject({ method: 'GET', url: '/?ref=mail' })).body).toBe(filledHome);
  });

  it('answers a browser that has the page already with 304 and no body', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'br' } });
    const etag = first.headers.etag;
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    // The same tag for another encoding of the same page.
    expect((await t.app.inject({ method: 'GET', url: '/' })).headers.etag).toBe(etag);
    const again = await t.app.inject({ method: 'GET', url: '/', headers: { 'if-none-match': `"other", ${etag}` } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const stale = await t.app.inject({ method: 'GET', url: '/', headers: { 'if-none-match': 'W/"old"' } });
    expect(stale.statusCode).toBe(200);
    expect(stale.body).toBe(filledHome);
  });

  it('does not send the file the build wrote, with its placeholders, by its own path', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/prerendered/index.html' });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain(settingsPlaceholders.supportPhone);
  });

  it("with a form goes out with the server's settings in its head, for its path alone and to a signed-out visitor", async () => {
    const signIn = await t.app.inject({ method: 'GET', url: '/auth/login' });
    expect(signIn.body).toContain('<meta name="settings:supportPhone" content="+44 20 7946 0958">');
    expect(signIn.body).toContain('<meta name="settings:supportEmail" content="support@virtualhelp.example">');
    expect(signIn.body).toContain('<meta name="settings:payments" content="true">');
    expect(signIn.body).toContain('<meta name="settings:releaseAfterDays" content="7">');
    expect(signIn.body).toContain('<meta name="settings:commissionPercent" content="15">');
    for (const placeholder of Object.values(settingsPlaceholders))
      expect(signIn.body).not.toContain(String(placeholder));
    expect(signIn.body).toContain('<script type="module" src="/assets/boot.js"></script><form></form>');
    expect(signIn.headers.vary).toMatch(/cookie/i);
    expect(signIn.headers.etag).toMatch(/^W\/"[\w-]+"$/);
    // The app hydrates it and reads the query string, which the page was rendered without; with a session, the app
    // sends the visitor on.
    for (const [url, headers] of [
      ['/auth/login?redirectTo=%2Fchat', {}],
      ['/auth/login', { cookie: `${SESSION_COOKIE}=anything` }],
    ] as const) {
      expect((await t.app.inject({ method: 'GET', url, headers })).body, url).toBe(APP);
    }
  });

  it("admits the pages' inline script by its hash, and no other inline script", async () => {
    const hash = createHash('sha256').update(HOLD).digest('base64');
    for (const url of ['/auth/login', '/', '/chat']) {
      const csp = (await t.app.inject({ method: 'GET', url })).headers['content-security-policy'];
      expect(String(csp).match(/script-src ([^;]*)/)?.[1], url).toBe(`'self' 'sha256-${hash}'`);
    }
  });
});

describe('a whole page in its two copies', () => {
  // As the build writes each public page: once with its payment texts, once without any (docs/decisions/0046).
  const TERMS = `<!doctype html><title>Terms</title><h2>Payments and refunds</h2><p>Released after ${settingsPlaceholders.releaseAfterDays} days.</p>`;
  const FREE_TERMS = `<!doctype html><title>Terms</title><h2>Conduct</h2>`;
  const signInPage = (payments: boolean) =>
    `<!doctype html><title>Sign in</title>${settingsMetaTags({ payments })}<form></form>`;
  let webDir: string;
  beforeAll(() => {
    webDir = mkdtempSync(path.join(os.tmpdir(), 'vh-web-'));
    writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>App</title>');
    for (const payments of [true, false]) {
      mkdirSync(path.join(webDir, path.dirname(prerenderedPageFile('/auth/login', { payments }))), {
        recursive: true,
      });
      writeFileSync(path.join(webDir, prerenderedPageFile('/terms', { payments })), payments ? TERMS : FREE_TERMS);
      writeFileSync(path.join(webDir, prerenderedPageFile('/auth/login', { payments })), signInPage(payments));
    }
  });

  it.each([
    ['test', 'with', 'Payments and refunds', 'true'],
    ['manual', 'with', 'Payments and refunds', 'true'],
    ['none', 'without', 'Conduct', 'false'],
  ])('under PAYMENTS_PROVIDER=%s are sent %s their payment texts', async (provider, _with, heading, payments) => {
    const t = await createTestApp({ PAYMENTS_PROVIDER: provider, PAYMENTS_RELEASE_AFTER_DAYS: '9' }, { webDir });
    try {
      const terms = await t.app.inject({ method: 'GET', url: '/terms' });
      expect(terms.body).toContain(`<h2>${heading}</h2>`);
      if (provider !== 'none') expect(terms.body).toContain('Released after 9 days.');
      else expect(terms.body).not.toMatch(/payment|refund|released/i);
      const signIn = await t.app.inject({ method: 'GET', url: '/auth/login' });
      expect(signIn.body).toContain(`<meta name="settings:payments" content="${payments}">`);
      // The file of the other copy is not sent by its path either.
      const copy = await t.app.inject({ method: 'GET', url: `/${prerenderedPageFile('/terms', { payments: false })}` });
      expect(copy.statusCode).toBe(404);
      const settings = await t.app.inject({ method: 'GET', url: '/api/settings/public' });
      expect(settings.json()).toMatchObject({ payments: payments === 'true', releaseAfterDays: 9 });
    } finally {
      await t.close();
    }
  });
});
