import { randomUUID } from 'node:crypto';
import { rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Config } from '../../config.ts';
import { preparePrivateDir, PRIVATE_FILE_MODE } from '../../system/data-dir.ts';

export type Mail = {
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  /** An iCalendar (RFC 5545) invitation, attached as invite.ics. */
  calendar?: string | null;
  /** Whose news of which kind this is: such mail offers a one-click unsubscribe (RFC 8058). None for account mail. */
  unsubscribe?: { userId: string; topic: string } | null;
};

/** The absolute one-click unsubscribe URL of a user's news of one kind. */
export type UnsubscribeUrl = (unsubscribe: { userId: string; topic: string }) => string;

/** Delivers one mail now or throws; retries are the outbox's business. */
export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

/** One dev-outbox mail as written to disk (and listed by /dev/mailbox). */
export type DevMail = {
  to: string;
  subject: string;
  text: string;
  html: string | null;
  calendar?: string | null;
  createdAt: string;
};

/** Called with each mail written to the dev outbox (`npm start` prints its links to the terminal). */
export type DevMailListener = (mail: DevMail) => void;

/** SMTP when `SMTP_URL` is set, else one JSON file per mail in the dev outbox directory. */
export function createMailer(
  mail: Config['mail'],
  unsubscribeUrl: UnsubscribeUrl,
  onDevMail?: DevMailListener,
): Mailer {
  return mail.smtpUrl
    ? createSmtpMailer(mail.smtpUrl, mail.from, unsubscribeUrl)
    : createDirectoryMailer(mail.outboxDir, onDevMail);
}

/**
 * The output line for a dev-outbox mail: who it is for and its subject, and its links only for a person at a terminal
 * (they confirm accounts and reset passwords; a service manager's log would keep them for anyone who reads it).
 */
export function describeDevMail(mail: DevMail, { toTerminal }: { toTerminal: boolean }) {
  const heading = `Mail to ${mail.to}: ${mail.subject}`;
  if (!toTerminal) return `${heading} (its links are at /dev/mailbox on this machine)`;
  const links = mail.text.match(/https?:\/\/[^\s<>"']+/g) ?? [];
  return [heading, ...links.map((link) => `  ${link}`)].join('\n');
}

function createSmtpMailer(url: string, from: string, unsubscribeUrl: UnsubscribeUrl): Mailer {
  // Short timeouts: a hanging server must not stall the outbox worker for minutes.
  const transport = nodemailer.createTransport({
    url,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    async send({ to, subject, text, html, calendar, unsubscribe }) {
      await transport.sendMail({
        from,
        to,
        subject,
        text,
        // RFC 8058: mail clients show an unsubscribe button that posts to this URL.
        headers: unsubscribe
          ? {
              'List-Unsubscribe': `<${unsubscribeUrl(unsubscribe)}>`,
              'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
            }
          : {},
        html: html ?? undefined,
        attachments: calendar
          ? [{ filename: 'invite.ics', content: calendar, contentType: 'text/calendar; charset=utf-8; method=REQUEST' }]
          : [],
      });
    },
    close: () => transport.close(),
  };
}

function createDirectoryMailer(dir: string, onDevMail?: DevMailListener): Mailer {
  return {
    async send({ to, subject, text, html, calendar }) {
      preparePrivateDir(dir);
      const createdAt = new Date().toISOString();
      const mail: DevMail = { to, subject, text, html: html ?? null, calendar: calendar ?? null, createdAt };
      // The timestamp first so that a directory listing is already in sending order. Written under another name and
      // then renamed, so the mailbox never reads a mail half written.
      const file = path.join(dir, `${Date.now()}-${randomUUID()}.json`);
      await writeFile(`${file}.part`, JSON.stringify(mail, null, 2), { mode: PRIVATE_FILE_MODE });
      await rename(`${file}.part`, file);
      onDevMail?.(mail);
    },
    close: () => undefined,
  };
}
