import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForDevMails } from '../../../../tests/support/mailbox.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { enqueueMail } from './outbox.ts';

describe('dev mailbox', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('lists the dev outbox newest first, escaped, with clickable links and no script', async () => {
    const to = 'reader@example.com';
    await enqueueMail({ db: t.db, to, subject: 'First', text: 'Older mail' });
    await waitForDevMails(t.app, to, { count: 1 });
    await enqueueMail({
      db: t.db,
      to,
      subject: '<script>alert(1)</script>',
      text: 'Open https://example.com/confirm?a=1&b=2 now <b>',
    });
    const [newest] = await waitForDevMails(t.app, to, { count: 2 });
    expect(newest!.subject).toBe('<script>alert(1)</script>');

    const page = await t.app.inject({ method: 'GET', url: '/dev/mailbox' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toMatch(/^default-src 'none';/);
    expect(page.headers['content-security-policy']).not.toContain('script-src');
    expect(page.body).not.toContain('<script');
    expect(page.body).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(page.body).toContain(
      '<a href="https://example.com/confirm?a=1&#38;b=2">https://example.com/confirm?a=1&#38;b=2</a> now &#60;b&#62;',
    );
    expect(page.body.indexOf('alert(1)')).toBeLessThan(page.body.indexOf('First'));
  });

  it('answers only to this machine, whatever the forwarding headers claim', async () => {
    await enqueueMail({ db: t.db, to: 'victim@example.com', subject: 'Reset', text: 'https://x.example/reset/t' });
    await waitForDevMails(t.app, 'victim@example.com', { count: 1 });
    for (const url of ['/dev/mailbox', '/dev/mailbox.json']) {
      for (const remoteAddress of ['203.0.113.7', '::ffff:10.0.0.2', '2001:db8::1']) {
        const forged = await t.app.inject({
          method: 'GET',
          url,
          remoteAddress,
          headers: { 'x-forwarded-for': '127.0.0.1', forwarded: 'for=127.0.0.1', 'x-real-ip': '127.0.0.1' },
        });
        expect(forged.statusCode, `${url} from ${remoteAddress}`).toBe(404);
        expect(forged.body).not.toContain('reset');
      }
      for (const remoteAddress of ['127.0.0.1', '127.0.0.2', '::1', '::ffff:127.0.0.1']) {
        expect((await t.app.inject({ method: 'GET', url, remoteAddress })).statusCode).toBe(200);
      }
    }
  });

  it('refuses a request a reverse proxy on this machine forwards, whatever the header or its value', async () => {
    await enqueueMail({ db: t.db, to: 'owner@example.com', subject: 'Reset', text: 'https://x.example/reset/u' });
    await waitForDevMails(t.app, 'owner@example.com', { count: 1 });
    const proxied: Record<string, string>[] = [
      { 'x-forwarded-for': '203.0.113.7' },
      { 'x-forwarded-for': '127.0.0.1' },
      { forwarded: 'for=203.0.113.7;proto=https' },
      { 'x-real-ip': '203.0.113.7' },
      { 'x-forwarded-host': 'app.example.com' },
      { 'x-forwarded-proto': 'https' },
      { via: '1.1 caddy' },
      // A proxy that passes the public host name on, and a page that rebinds its own name to 127.0.0.1.
      { host: 'app.example.com' },
      { host: 'attacker.example:3000' },
    ];
    for (const url of ['/dev/mailbox', '/dev/mailbox.json']) {
      for (const headers of proxied) {
        const response = await t.app.inject({ method: 'GET', url, remoteAddress: '127.0.0.1', headers });
        expect(response.statusCode, `${url} with ${JSON.stringify(headers)}`).toBe(404);
        expect(response.body).not.toContain('reset');
      }
      for (const host of ['localhost:3000', 'localhost', '127.0.0.1:3000', '[::1]:3000', 'app.localhost']) {
        const response = await t.app.inject({ method: 'GET', url, remoteAddress: '127.0.0.1', headers: { host } });
        expect(response.statusCode, `${url} for ${host}`).toBe(200);
      }
    }
  });
});

describe('dev mailbox behind a trusted proxy on this machine', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'loopback' });
  });
  afterAll(() => t.close());

  it('refuses the clients the proxy forwards', async () => {
    for (const url of ['/dev/mailbox', '/dev/mailbox.json']) {
      const forwarded = await t.app.inject({
        method: 'GET',
        url,
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': '203.0.113.7' },
      });
      expect(forwarded.statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url, remoteAddress: '127.0.0.1' })).statusCode).toBe(200);
    }
  });
});

describe('start-up warnings about the dev outbox and proxies', () => {
  type Warned = { t: TestApp; warnings: () => string[] };
  let direct: Warned;
  let proxied: Warned;
  const startWith = async (env: Record<string, string>): Promise<Warned> => {
    const lines: string[] = [];
    const t = await createTestApp({ LOG_LEVEL: 'info', ...env }, { logStream: { write: (line) => lines.push(line) } });
    const warnings = () =>
      lines
        .map((line) => JSON.parse(line) as { level: number; msg: string })
        .filter((line) => line.level === 40)
        .map((line) => line.msg);
    return { t, warnings };
  };
  beforeAll(async () => {
    // `npm start` as it comes (no SMTP, no proxy trusted) and a server behind a proxy it trusts, on loopback.
    [direct, proxied] = await Promise.all([startWith({}), startWith({ TRUST_PROXY: 'loopback' })]);
    await direct.t.app.listen({ port: 0, host: '0.0.0.0' });
    await proxied.t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => Promise.all([direct.t.close(), proxied.t.close()]));

  it('warns when the server listens beyond loopback without SMTP, and not on loopback', () => {
    // onListen hooks have run by the time listen resolves.
    expect(direct.warnings()).toContainEqual(expect.stringContaining('SMTP_URL is unset'));
    expect(proxied.warnings()).toEqual([]);
  });

  it('warns once when requests arrive with forwarding headers while TRUST_PROXY is unset', async () => {
    for (const ip of ['203.0.113.7', '203.0.113.8']) {
      const response = await direct.t.app.inject({ url: '/api/health', headers: { 'x-forwarded-for': ip } });
      expect(response.statusCode).toBe(200);
    }
    expect(direct.warnings().filter((message) => message.includes('TRUST_PROXY is unset'))).toHaveLength(1);

    await proxied.t.app.inject({ url: '/api/health', headers: { 'x-forwarded-for': '203.0.113.7' } });
    // The request's own completion line comes after any warning its hooks would have written.
    expect(proxied.warnings()).toEqual([]);
  });
});

describe('dev mailbox in production', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ NODE_ENV: 'production', PAYMENTS_PROVIDER: 'none' });
  });
  afterAll(() => t.close());

  it('does not exist (the page path falls through to the web app)', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/dev/mailbox' })).body).not.toContain('Dev mailbox');
    expect((await t.app.inject({ method: 'GET', url: '/dev/mailbox.json' })).statusCode).toBe(404);
  });
});
