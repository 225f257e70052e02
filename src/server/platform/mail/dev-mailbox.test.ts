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
});

describe('dev mailbox in production', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ NODE_ENV: 'production' });
  });
  afterAll(() => t.close());

  it('does not exist (the page path falls through to the web app)', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/dev/mailbox' })).body).not.toContain('Dev mailbox');
    expect((await t.app.inject({ method: 'GET', url: '/dev/mailbox.json' })).statusCode).toBe(404);
  });
});
