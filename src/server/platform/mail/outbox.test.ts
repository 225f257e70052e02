import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema/auth.ts';
import { mailOutbox } from '../../db/schema/notifications.ts';
import { createUser, freshClientAddress } from '../../../../tests/support/factories.ts';
import { registerStudent } from '../../../../tests/support/callers.ts';
import { linkIn } from '../../../../tests/support/mailbox.ts';
import { startSmtpSink, type SmtpSink } from '../../../../tests/support/smtp-sink.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { createMailer } from './mailer.ts';
import { enqueueMail, mailDelivery } from './outbox.ts';

let created = 0;
const uniqueAddress = () => `mail${Date.now().toString(36)}${++created}@example.com`;

async function outboxRow(t: TestApp, to: string) {
  const [row] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to));
  return row;
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('Timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('mail over SMTP through the outbox', () => {
  let sink: SmtpSink;
  let t: TestApp;
  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await createTestApp(
      { SMTP_URL: sink.url, MAIL_FROM: 'Virtual Help <no-reply@virtualhelp.example>' },
      { mailOutbox: { intervalMs: 50, retryBaseMs: 10 } },
    );
  });
  afterAll(async () => {
    await t.close();
    await sink.close();
  });

  it('delivers the confirmation mail with a link that confirms the account', async () => {
    const name = `smtp${Date.now().toString(36)}`;
    const email = `${name}@example.com`;
    const registered = await registerStudent(t, name);
    expect(registered.statusCode).toBe(201);

    const mail = await sink.waitForMail(email);
    expect(mail.from).toBe('no-reply@virtualhelp.example');
    expect(mail.subject).toBe('Confirm your e-mail address for Virtual Help');
    expect(mail.html).toContain('href="');
    const link = new URL(linkIn(mail.text));
    const confirm = await t.app.inject({ method: 'GET', url: link.pathname + link.search });
    expect(confirm.statusCode).toBe(302);
    const [user] = await t.db.select({ emailVerified: users.emailVerified }).from(users).where(eq(users.email, email));
    expect(user!.emailVerified).toBe(true);
    expect(await outboxRow(t, email)).toMatchObject({
      status: 'sent',
      attempts: 1,
      lastError: null,
      sentAt: expect.any(Date),
      // The confirmation link is not kept once delivered.
      textBody: '',
      htmlBody: null,
    });
  });

  it('delivers the reset mail with a link to the reset page', async () => {
    const user = await createUser(t.db);
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/request-password-reset',
      payload: { email: user.email, redirectTo: '/auth/reset-password' },
      remoteAddress: freshClientAddress(),
    });
    const mail = await sink.waitForMail(user.email);
    expect(mail.subject).toBe('Reset your Virtual Help password');
    expect(mail.text).toContain('expires after 10 minutes');
    const link = new URL(linkIn(mail.text));
    const page = await t.app.inject({ method: 'GET', url: link.pathname + link.search });
    expect(page.headers.location).toMatch(/^http:\/\/localhost:\d+\/auth\/reset-password\?token=/);
  });

  it('keeps a mail the server refused in the outbox and sends it when the server takes mail again', async () => {
    const to = uniqueAddress();
    sink.failNext(2);
    await enqueueMail({ db: t.db, to, subject: 'Retried', text: 'Second time lucky' });
    await waitUntil(async () => (await outboxRow(t, to))!.attempts >= 1);
    const failed = await outboxRow(t, to);
    expect(failed).toMatchObject({ status: 'pending', lastError: expect.stringMatching(/451/) });

    const mail = await sink.waitForMail(to);
    expect(mail.text.trim()).toBe('Second time lucky');
    await waitUntil(async () => (await outboxRow(t, to))!.status === 'sent');
    expect(await outboxRow(t, to)).toMatchObject({ status: 'sent', attempts: 3, lastError: null });
  });

  it('gives a mail up as failed after 8 attempts', async () => {
    const to = uniqueAddress();
    sink.failNext(100);
    await enqueueMail({ db: t.db, to, subject: 'Hopeless', text: 'Never arrives' });
    // Retries wait 10 ms, 20 ms, … 640 ms, each found by the next 50 ms poll.
    await waitUntil(async () => (await outboxRow(t, to))!.status === 'failed', 20_000);
    sink.failNext(0);
    expect(await outboxRow(t, to)).toMatchObject({ status: 'failed', attempts: 8 });
    expect(sink.mails.some((mail) => mail.to.includes(to))).toBe(false);
  });

  it('sends a mail whose sender died mid-send once its claim lapses, and not one whose claim still holds', async () => {
    const [orphaned, held] = [uniqueAddress(), uniqueAddress()];
    // Claimed by server nodes that are gone (the first one's lease is over) or still sending (the second's is not).
    await t.db.insert(mailOutbox).values([
      {
        toAddress: orphaned,
        subject: 'Orphaned',
        textBody: 'Again',
        claimToken: randomUUID(),
        claimedUntil: sql`now() - interval '1 second'`,
      },
      {
        toAddress: held,
        subject: 'Held',
        textBody: 'Not yet',
        claimToken: randomUUID(),
        claimedUntil: sql`now() + interval '1 hour'`,
      },
    ]);
    expect((await sink.waitForMail(orphaned)).text.trim()).toBe('Again');
    await waitUntil(async () => (await outboxRow(t, orphaned))!.status === 'sent');
    expect(await outboxRow(t, orphaned)).toMatchObject({ attempts: 1, claimToken: null, claimedUntil: null });
    // The outbox sends in the order mails were due: once a later one is out, the held one would be too.
    const later = uniqueAddress();
    await enqueueMail({ db: t.db, to: later, subject: 'Later', text: 'Yes' });
    await sink.waitForMail(later);
    expect(sink.mails.some((mail) => mail.to.includes(held))).toBe(false);
    expect(await outboxRow(t, held)).toMatchObject({ status: 'pending', attempts: 0 });
  });

  it('gives up unsent a mail claimed more often than it may be sent, its sending never recorded', async () => {
    const to = uniqueAddress();
    // Claimed 10 times already, by nodes that each sent it and failed to record that; the last claim has lapsed.
    await t.db.insert(mailOutbox).values({
      toAddress: to,
      subject: 'Unrecordable',
      textBody: 'Sent too often',
      claims: 10,
      claimToken: randomUUID(),
      claimedUntil: sql`now() - interval '1 second'`,
    });
    await waitUntil(async () => (await outboxRow(t, to))!.status === 'failed');
    expect(await outboxRow(t, to)).toMatchObject({
      attempts: 0,
      claims: 11,
      claimToken: null,
      lastError: 'its sending could not be recorded after 10 claims',
    });
    expect(sink.mails.some((mail) => mail.to.includes(to))).toBe(false);
  });

  it('stores a provider error PostgreSQL text cannot hold: without NUL characters, cut to 1,000 characters', async () => {
    const to = uniqueAddress();
    // Not due for an hour: the running outbox leaves it to this test.
    const [row] = await t.db
      .insert(mailOutbox)
      .values({ toAddress: to, subject: 'Odd reply', textBody: 'x', nextAttemptAt: sql`now() + interval '1 hour'` })
      .returning();
    const delivery = mailDelivery({ mailer: createMailer(t.config.mail, () => ''), log: t.app.log, retryBaseMs: 10 });
    const error = new Error(`550 no\0such\0user ${'é'.repeat(2000)}`);
    await t.db.transaction((db) => delivery.record({ db, row: row!, outcome: { ok: false, error } }));
    const stored = await outboxRow(t, to);
    expect(stored).toMatchObject({ status: 'pending', attempts: 1 });
    expect(stored!.lastError).toBe(`550 nosuchuser ${'é'.repeat(1000 - '550 nosuchuser '.length)}`);
  });

  it('sends a mail queued in a transaction only once the transaction commits, and never one rolled back', async () => {
    const committed = uniqueAddress();
    const rolledBack = uniqueAddress();
    await t.db.transaction(async (tx) => {
      await enqueueMail({ db: tx, to: committed, subject: 'Committed', text: 'Yes' });
    });
    await sink.waitForMail(committed);

    await t.db
      .transaction(async (tx) => {
        await enqueueMail({ db: tx, to: rolledBack, subject: 'Rolled back', text: 'No' });
        tx.rollback();
      })
      .catch(() => undefined);
    // The outbox sends in the order mails were queued: once a later one is out, the rolled-back one would be too.
    const later = uniqueAddress();
    await enqueueMail({ db: t.db, to: later, subject: 'Later', text: 'Yes' });
    await sink.waitForMail(later);
    expect(sink.mails.some((mail) => mail.to.includes(rolledBack))).toBe(false);
    expect(await outboxRow(t, rolledBack)).toBeUndefined();
  });
});
