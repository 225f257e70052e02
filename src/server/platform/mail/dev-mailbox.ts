import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { DevMail } from './mailer.ts';
import { AppError } from '../../http/errors.ts';
import { isLocalRequest, isLoopbackAddress } from '../../http/loopback.ts';
import { escapeHtml } from '#shared/rules/text.ts';

const MAILBOX_LIMIT = 50;

const devMailSchema = z.object({
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string().nullable(),
  createdAt: z.string(),
});

/** The newest mails of the dev outbox directory, newest first (file names start with the time). */
async function listDevMails({ dir, limit = MAILBOX_LIMIT }: { dir: string; limit?: number }): Promise<DevMail[]> {
  const names = await readdir(dir).catch(() => []);
  const newest = names
    .filter((name) => name.endsWith('.json'))
    .sort()
    .reverse()
    .slice(0, limit);
  return Promise.all(
    newest.map(async (name) => devMailSchema.parse(JSON.parse(await readFile(path.join(dir, name), 'utf8')))),
  );
}

/** Escaped text with its http(s) links made clickable. */
function linkify(text: string) {
  return text
    .split(/(https?:\/\/[^\s<>"']+)/g)
    .map((part, index) =>
      index % 2 === 1 ? `<a href="${escapeHtml(part)}">${escapeHtml(part)}</a>` : escapeHtml(part),
    )
    .join('');
}

function renderMailbox(mails: DevMail[], smtpConfigured: boolean) {
  const items = mails.map(
    (mail) => `<article>
<h2>${escapeHtml(mail.subject)}</h2>
<p class="meta">To ${escapeHtml(mail.to)} · ${escapeHtml(new Date(mail.createdAt).toLocaleString('en-GB', { timeZone: 'UTC' }))} UTC</p>
<pre>${linkify(mail.text)}</pre>
</article>`,
  );
  const empty = smtpConfigured
    ? 'SMTP_URL is set, so mail goes to the SMTP server instead of this page.'
    : 'No mail yet.';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Dev mailbox · Virtual Help</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 52rem; margin: 2rem auto; padding: 0 1rem; color: #1f2937; }
article { border: 1px solid #e5e7eb; border-radius: 8px; padding: 0 1rem; margin: 1rem 0; }
h2 { font-size: 1.05rem; } .meta { color: #6b7280; font-size: 0.875rem; }
pre { white-space: pre-wrap; word-break: break-all; font-family: inherit; }
</style></head>
<body>
<h1>Dev mailbox</h1>
<p class="meta">Mail the server would have sent (newest first, at most ${MAILBOX_LIMIT}). Not available in production.</p>
${items.length > 0 ? items.join('\n') : `<p>${empty}</p>`}
</body></html>
`;
}

/**
 * /dev/mailbox: the dev outbox as a page, so an account can be confirmed without a mail server; JSON for tests.
 * Its links confirm accounts and reset passwords, so it answers only a request local by every measure: a reverse
 * proxy on this machine connects from loopback too, and would otherwise hand the page to the whole Internet.
 */
export const devMailboxRoutes: FastifyPluginAsyncZod<{ dir: string; smtpConfigured: boolean }> = async (
  app,
  { dir, smtpConfigured },
) => {
  app.addHook('onRequest', async (request) => {
    if (!isLocalRequest(request)) throw new AppError('NOT_FOUND');
  });

  app.get(
    '/dev/mailbox.json',
    { schema: { hide: true, response: { 200: z.object({ mails: z.array(devMailSchema) }) } } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { mails: await listDevMails({ dir }) };
    },
  );

  app.get('/dev/mailbox', { schema: { hide: true } }, async (_request, reply) => {
    const mails = await listDevMails({ dir });
    return (
      reply
        .header('cache-control', 'no-store')
        // Its own policy: no script at all, and the page's one inline stylesheet.
        .header(
          'content-security-policy',
          "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        )
        .type('text/html; charset=utf-8')
        .send(renderMailbox(mails, smtpConfigured))
    );
  });
};

/**
 * Without SMTP every confirmation and reset link lies in the dev outbox. The mailbox page keeps them to this machine,
 * but a reverse proxy that adds no forwarding header looks like this machine: say so when others can connect.
 */
export function warnOfDevOutboxBeyondLoopback(app: FastifyInstance) {
  app.addHook('onListen', async () => {
    const address = app.server.address();
    if (typeof address !== 'object' || address === null || isLoopbackAddress(address.address)) return;
    app.log.warn(
      { address: address.address, port: address.port },
      'SMTP_URL is unset and the server listens beyond this machine: account confirmation and password reset links ' +
        'go to the dev outbox. /dev/mailbox answers only requests local by every measure, which a reverse proxy on ' +
        'this machine that adds no X-Forwarded-For looks like. Set SMTP_URL (or NODE_ENV=production) before anyone ' +
        'else can reach this server.',
    );
  });
}
