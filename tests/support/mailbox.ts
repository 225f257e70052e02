import type { APIRequestContext } from '@playwright/test';
import type { App } from '../../src/server/app.ts';
import type { DevMail } from '../../src/server/platform/mail/mailer.ts';

/** Where the dev outbox is read from: the app itself in API tests, the running server in browser tests. */
type MailboxSource = Pick<App, 'inject'> | APIRequestContext;

async function readDevMailbox(source: MailboxSource) {
  const { status, body } =
    'inject' in source
      ? await source
          .inject({ method: 'GET', url: '/dev/mailbox.json' })
          .then((r) => ({ status: r.statusCode, body: r.body }))
      : await source.get('/dev/mailbox.json').then(async (r) => ({ status: r.status(), body: await r.text() }));
  if (status !== 200) throw new Error(`The dev mailbox answered ${status}: ${body}`);
  return (JSON.parse(body) as { mails: DevMail[] }).mails;
}

/**
 * Waits until the dev outbox (/dev/mailbox.json, used when SMTP_URL is unset) holds at least `count`
 * mails to `to` (with a subject matching `subject`, when given), and returns them newest first.
 */
export async function waitForDevMails(
  source: MailboxSource,
  to: string,
  { count = 1, timeoutMs = 5_000, subject }: { count?: number; timeoutMs?: number; subject?: RegExp } = {},
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = await readDevMailbox(source);
    const matching = mails.filter((mail) => mail.to === to && (subject === undefined || subject.test(mail.subject)));
    if (matching.length >= count) return matching;
    if (Date.now() > deadline)
      throw new Error(`Expected ${count} mail(s) to ${to} within ${timeoutMs} ms, found ${matching.length}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The first http(s) link of a mail's text. */
export function linkIn(text: string) {
  const link = /https?:\/\/\S+/.exec(text)?.[0];
  if (!link) throw new Error(`No link in: ${text}`);
  return link;
}
