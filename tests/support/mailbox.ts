import type { App } from '../../src/server/app.ts';
import type { DevMail } from '../../src/server/platform/mail/mailer.ts';

/**
 * Waits until the dev outbox (/dev/mailbox.json, used when SMTP_URL is unset) holds at least `count`
 * mails to `to`, and returns them newest first.
 */
export async function waitForDevMails(app: App, to: string, { count = 1, timeoutMs = 5_000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await app.inject({ method: 'GET', url: '/dev/mailbox.json' });
    if (response.statusCode !== 200)
      throw new Error(`The dev mailbox answered ${response.statusCode}: ${response.body}`);
    const { mails } = response.json<{ mails: DevMail[] }>();
    const matching = mails.filter((mail) => mail.to === to);
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
