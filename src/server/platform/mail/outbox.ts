import { and, eq, gt, lte, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Executor } from '../../db/client.ts';
import { withoutName } from '#shared/rules/erased-name.ts';
import { naming, writeRewritten, type ErasedName } from '../../db/erased-names.ts';
import { mailOutbox } from '../../db/schema/notifications.ts';
import { startClaimedWork, storableError, type ClaimedWork } from '../jobs/claimed-work.ts';
import type { Mail, Mailer } from './mailer.ts';

const MAX_ATTEMPTS = 8;
// A mail claimed this often was sent without its outcome being recorded; two spare claims let a record lost to a
// passing database failure not cost the mail an attempt.
const MAX_CLAIMS = MAX_ATTEMPTS + 2;
// last_error is for people reading the outbox: a provider's reply is cut to this many characters.
const MAX_ERROR_LENGTH = 1000;
const BATCH_SIZE = 10;
const MAX_RETRY_DELAY_MS = 60 * 60 * 1000;
// A claimed mail is held this long; if the process dies while sending, it is claimed again afterwards.
const LEASE_MS = 2 * 60 * 1000;

// The workers of this process: enqueueMail wakes them so a mail leaves now, not at the next poll.
const wakers = new Set<() => void>();

const fromNow = (ms: number) => sql`now() + make_interval(secs => ${ms / 1000})`;

type EnqueueMailOptions = Mail & {
  db: Executor;
  /** Abuse limit: at most `max` mails with this subject to this address within `windowMs`; more are dropped. */
  limitPerRecipient?: { max: number; windowMs: number };
};

/** Mail waiting to be sent (due or waiting for a retry). */
export function pendingMailCount(db: Executor) {
  return db.$count(mailOutbox, eq(mailOutbox.status, 'pending'));
}

/** Queues a mail, in the caller's transaction when given one. False when the per-recipient limit dropped it. */
export async function enqueueMail({ db, to, subject, text, html, limitPerRecipient }: EnqueueMailOptions) {
  if (limitPerRecipient) {
    const recent = await db.$count(
      mailOutbox,
      and(
        eq(mailOutbox.toAddress, to),
        eq(mailOutbox.subject, subject),
        gt(mailOutbox.createdAt, fromNow(-limitPerRecipient.windowMs)),
      ),
    );
    if (recent >= limitPerRecipient.max) return false;
  }
  await enqueueMails({ db, mails: [{ to, subject, text, html }] });
  // Inside a transaction the row is not visible yet: the worker then finds it at its next poll.
  for (const wake of wakers) wake();
  return true;
}

/**
 * Queues many mails in one statement (arrays unnested into rows), so 1,000 cost the same round trip as one.
 * They leave at the worker's next poll.
 */
export async function enqueueMails({ db, mails }: { db: Executor; mails: Mail[] }) {
  if (mails.length === 0) return;
  await db.execute(sql`
    insert into ${mailOutbox} (${sql.identifier(mailOutbox.toAddress.name)}, ${sql.identifier(mailOutbox.subject.name)},
      ${sql.identifier(mailOutbox.textBody.name)}, ${sql.identifier(mailOutbox.htmlBody.name)}, ${sql.identifier(mailOutbox.calendar.name)},
      ${sql.identifier(mailOutbox.unsubscribeUserId.name)}, ${sql.identifier(mailOutbox.unsubscribeTopic.name)})
    select * from unnest(${sql.param(mails.map((mail) => mail.to))}::text[], ${sql.param(mails.map((mail) => mail.subject))}::text[],
      ${sql.param(mails.map((mail) => mail.text))}::text[], ${sql.param(mails.map((mail) => mail.html ?? null))}::text[],
      ${sql.param(mails.map((mail) => mail.calendar ?? null))}::text[],
      ${sql.param(mails.map((mail) => mail.unsubscribe?.userId ?? null))}::uuid[],
      ${sql.param(mails.map((mail) => mail.unsubscribe?.topic ?? null))}::text[])`);
}

export type MailOutboxTiming = {
  /** How often due mail is looked for, besides the wake-ups after each enqueue. */
  intervalMs: number;
  /** The first retry waits this long, each further one twice as long (at most an hour). */
  retryBaseMs: number;
};

export const DEFAULT_MAIL_OUTBOX_TIMING: MailOutboxTiming = { intervalMs: 5_000, retryBaseMs: 30_000 };

type MailOutboxOptions = MailOutboxTiming & {
  db: Database;
  mailer: Mailer;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
};

/**
 * Sending queued mail as claimed work: due rows are claimed (rows another server node holds are skipped), each is
 * sent with no transaction open, then marked sent, or scheduled for a retry with backoff, given up as 'failed'
 * after 8 attempts. A mail whose sender died mid-send is sent again once its claim lapses.
 */
export function mailDelivery({ mailer, log, retryBaseMs }: Omit<MailOutboxOptions, 'db' | 'intervalMs'>) {
  return {
    name: 'mail outbox',
    table: mailOutbox,
    due: and(eq(mailOutbox.status, 'pending'), lte(mailOutbox.nextAttemptAt, sql`now()`))!,
    order: mailOutbox.nextAttemptAt,
    batchSize: BATCH_SIZE,
    leaseMs: LEASE_MS,
    maxClaims: MAX_CLAIMS,
    call: (row) =>
      mailer.send({
        to: row.toAddress,
        subject: row.subject,
        text: row.textBody,
        html: row.htmlBody,
        calendar: row.calendar,
        unsubscribe:
          row.unsubscribeUserId && row.unsubscribeTopic
            ? { userId: row.unsubscribeUserId, topic: row.unsubscribeTopic }
            : null,
      }),
    async record({ db, row, outcome }) {
      const attempts = row.attempts + 1;
      if (outcome.ok) {
        // Once delivered, the body (which may hold a reset or confirmation link) is no longer kept.
        await db
          .update(mailOutbox)
          .set({
            status: 'sent',
            attempts,
            sentAt: sql`now()`,
            lastError: null,
            textBody: '',
            htmlBody: null,
            calendar: null,
          })
          .where(eq(mailOutbox.id, row.id));
        return;
      }
      const lastError = storableError(outcome.error, MAX_ERROR_LENGTH);
      const status = attempts >= MAX_ATTEMPTS ? 'failed' : 'pending';
      const delay = Math.min(retryBaseMs * 2 ** (attempts - 1), MAX_RETRY_DELAY_MS);
      await db
        .update(mailOutbox)
        .set({ status, attempts, lastError, nextAttemptAt: fromNow(delay) })
        .where(eq(mailOutbox.id, row.id));
      log.warn({ mailId: row.id, attempts, status, error: lastError }, 'sending a mail failed');
    },
    async giveUp({ db, row }) {
      await db
        .update(mailOutbox)
        .set({ status: 'failed', lastError: `its sending could not be recorded after ${row.claims - 1} claims` })
        .where(eq(mailOutbox.id, row.id));
    },
  } satisfies ClaimedWork<typeof mailOutbox, void>;
}

/** Sends queued mail until stopped: every intervalMs, and at once when this process queues one. */
export function startMailOutbox({ db, intervalMs, ...delivery }: MailOutboxOptions) {
  const worker = startClaimedWork({
    db,
    work: mailDelivery(delivery),
    intervalMs,
    log: delivery.log,
  });
  wakers.add(worker.wake);
  return {
    /** Stops polling and waits for the mail being sent now. */
    async stop() {
      wakers.delete(worker.wake);
      await worker.stop();
    },
  };
}

/**
 * Forgets an erased user in the outbox: the mails to them go, sent or not (the address must not outlive the
 * account): to their address, and the news mailed to them at an address they had before; the mails to others that name them, waiting or kept after sending, read "Deleted user" instead, so the news
 * they carry (a message, an offer) still reaches the other person without the name.
 */
export async function forgetMailOf({ db, userId, name }: { db: Executor; userId: string; name: ErasedName }) {
  await db.delete(mailOutbox).where(or(eq(mailOutbox.toAddress, name.email), eq(mailOutbox.unsubscribeUserId, userId)));
  const named = await db
    .select({
      id: mailOutbox.id,
      subject: mailOutbox.subject,
      textBody: mailOutbox.textBody,
      htmlBody: mailOutbox.htmlBody,
      calendar: mailOutbox.calendar,
    })
    .from(mailOutbox)
    .where(
      or(
        naming(mailOutbox.subject, name),
        naming(mailOutbox.textBody, name),
        naming(mailOutbox.htmlBody, name),
        naming(mailOutbox.calendar, name),
      ),
    );
  await writeRewritten(
    db,
    mailOutbox,
    [mailOutbox.subject, mailOutbox.textBody, mailOutbox.htmlBody, mailOutbox.calendar],
    named.map((mail) => ({
      id: mail.id,
      values: [
        withoutName(mail.subject, 'text', name),
        withoutName(mail.textBody, 'text', name),
        mail.htmlBody === null ? null : withoutName(mail.htmlBody, 'html', name),
        mail.calendar === null ? null : withoutName(mail.calendar, 'calendar', name),
      ],
    })),
  );
}
