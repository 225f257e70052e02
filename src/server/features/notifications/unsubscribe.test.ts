import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationSettings } from '../../db/schema/notifications.ts';
import { createUser, freshClientAddress } from '../../../../tests/support/factories.ts';
import { startSmtpSink, type SinkMail, type SmtpSink } from '../../../../tests/support/smtp-sink.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { queueNotificationEmails } from './email.ts';
import { INVALID_UNSUBSCRIBE_LINK } from './unsubscribe.ts';

// One-click unsubscribe (RFC 8058) from the mails of a kind of news, read as a mail client gets them over SMTP.

const headerOf = (mail: SinkMail, name: string) =>
  mail.parsed.headerLines.find((line) => line.key === name)?.line.replace(/^[^:]+:\s*/, '');

describe('unsubscribing from a kind of news by e-mail', () => {
  let sink: SmtpSink;
  let t: TestApp;
  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await createTestApp({ SMTP_URL: sink.url }, { mailOutbox: { intervalMs: 50, retryBaseMs: 10 } });
  });
  afterAll(async () => {
    await t.close();
    await sink.close();
  });

  /** Mails the user a new review (the "reviews" kind) and answers the path of its unsubscribe link. */
  async function reviewMailLink(user: { id: string; email: string; username: string }) {
    await queueNotificationEmails({
      db: t.db,
      publicUrl: t.config.publicUrl,
      emails: [
        {
          userId: user.id,
          recipient: user.email,
          username: user.username,
          type: 'new_review',
          message: 'ada reviewed your tutoring.',
          link: '/reviews',
          role: 'teacher',
          sender: 'ada',
          timestamp: new Date(),
          notificationId: null,
        },
      ],
    });
    const mail = await sink.waitForMail((candidate) => candidate.to.includes(user.email));
    expect(headerOf(mail, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const header = headerOf(mail, 'list-unsubscribe') ?? '';
    expect(header).toMatch(new RegExp(`^<${t.config.publicUrl}/api/notifications/unsubscribe\\?token=[^>]+>$`));
    const url = new URL(header.slice(1, -1));
    return { path: `${url.pathname}${url.search}`, token: url.searchParams.get('token')! };
  }

  const choices = (userId: string) =>
    t.db
      .select({ topic: notificationSettings.topic, email: notificationSettings.email })
      .from(notificationSettings)
      .where(eq(notificationSettings.userId, userId));

  // As a mail client posts it: no session, from no page of ours.
  const post = (path: string) =>
    t.app.inject({ method: 'POST', url: path, headers: { origin: 'null', 'sec-fetch-site': 'cross-site' } });

  it('puts the headers on a kind’s mail and a post without a session turns off only that kind’s e-mail, again the same', async () => {
    const user = await createUser(t.db, { role: 'teacher' });
    const { path } = await reviewMailLink(user);

    for (let i = 0; i < 2; i++) {
      const response = await post(path);
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('You will no longer get e-mails about “Reviews”');
    }
    expect(await choices(user.id)).toEqual([{ topic: 'reviews', email: false }]);
  });

  it('never puts the headers on account mail', async () => {
    const user = await createUser(t.db);
    const asked = await t.app.inject({
      method: 'POST',
      url: '/api/auth/request-password-reset',
      payload: { email: user.email, redirectTo: '/auth/reset-password' },
      remoteAddress: freshClientAddress(),
    });
    expect(asked.statusCode).toBe(200);
    const mail = await sink.waitForMail((candidate) => candidate.to.includes(user.email));
    expect(headerOf(mail, 'list-unsubscribe')).toBeUndefined();
    expect(headerOf(mail, 'list-unsubscribe-post')).toBeUndefined();
  });

  it('refuses a tampered token, or one changed to another user or kind, and writes nothing', async () => {
    const user = await createUser(t.db, { role: 'teacher' });
    const other = await createUser(t.db, { role: 'teacher' });
    const { token } = await reviewMailLink(user);
    const [userId, topic, signed] = token.split('.') as [string, string, string];
    const flipped = `${signed.slice(0, -2)}${signed.at(-2) === 'A' ? 'B' : 'A'}${signed.at(-1)}`;
    for (const forged of [
      `${userId}.${topic}.${flipped}`,
      `${other.id}.${topic}.${signed}`,
      `${userId}.jobs.${signed}`,
      `${other.id}.jobs.${signed}`,
      `${userId}.${topic}`,
      'nonsense',
    ]) {
      const response = await post(`/api/notifications/unsubscribe?token=${encodeURIComponent(forged)}`);
      expect(response.statusCode, forged).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: INVALID_UNSUBSCRIBE_LINK });
    }
    expect((await post('/api/notifications/unsubscribe')).statusCode).toBe(400);
    expect(await choices(user.id)).toEqual([]);
    expect(await choices(other.id)).toEqual([]);
  });

  it('answers a GET of the link with a page whose button posts, and changes nothing', async () => {
    const user = await createUser(t.db, { role: 'teacher' });
    const { path, token } = await reviewMailLink(user);
    const page = await t.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('Stop e-mails about “Reviews”?');
    expect(page.body).toContain(
      `<form method="post" action="/api/notifications/unsubscribe?token=${encodeURIComponent(token)}">`,
    );
    expect(await choices(user.id)).toEqual([]);
    const forged = await t.app.inject({ method: 'GET', url: `${path}x` });
    expect(forged.statusCode).toBe(400);
  });
});
