import { and, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Executor } from '../../db/client.ts';
import { mailOutbox } from '../../db/schema/notifications.ts';
import type { Mail, Mailer } from './mailer.ts';

const MAX_ATTEMPTS = 8;
const BATCH_SIZE = 10;
const MAX_RETRY_DELAY_MS = 60 * 60 * 1000;
// A claimed mail is hidden this long; if the process dies while sending, it is due again afterwards.
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
      ${sql.identifier(mailOutbox.textBody.name)}, ${sql.identifier(mailOutbox.htmlBody.name)}, ${sql.identifier(mailOutbox.calendar.name)})
    select * from unnest(${sql.param(mails.map((mail) => mail.to))}::text[], ${sql.param(mails.map((mail) => mail.subject))}::text[],
      ${sql.param(mails.map((mail) => mail.text))}::text[], ${sql.param(mails.map((mail) => mail.html ?? null))}::text[],
      ${sql.param(mails.map((mail) => mail.calendar ?? null))}::text[])`);
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
 * Sends queued mail: claims due rows (skipping rows another server node holds), sends each,
 * and marks it sent, or schedules a retry with backoff, giving up as 'failed' after 8 attempts.
 */
export function startMailOutbox({ db, mailer, log, intervalMs, retryBaseMs }: MailOutboxOptions) {
  let running: Promise<void> | undefined;
  let wokenWhileRunning = false;
  let stopped = false;

  async function claimDueMail() {
    const due = db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.status, 'pending'), lte(mailOutbox.nextAttemptAt, sql`now()`)))
      .orderBy(mailOutbox.nextAttemptAt)
      .limit(BATCH_SIZE)
      .for('update', { skipLocked: true });
    return db
      .update(mailOutbox)
      .set({ nextAttemptAt: fromNow(LEASE_MS) })
      .where(inArray(mailOutbox.id, due))
      .returning();
  }

  async function deliver(row: Awaited<ReturnType<typeof claimDueMail>>[number]) {
    const attempts = row.attempts + 1;
    try {
      // Once delivered, the body (which may hold a reset or confirmation link) is no longer kept.
      await mailer.send({
        to: row.toAddress,
        subject: row.subject,
        text: row.textBody,
        html: row.htmlBody,
        calendar: row.calendar,
      });
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
    } catch (error) {
      const lastError = error instanceof Error ? error.message : String(error);
      const status = attempts >= MAX_ATTEMPTS ? 'failed' : 'pending';
      const delay = Math.min(retryBaseMs * 2 ** (attempts - 1), MAX_RETRY_DELAY_MS);
      await db
        .update(mailOutbox)
        .set({ status, attempts, lastError, nextAttemptAt: fromNow(delay) })
        .where(eq(mailOutbox.id, row.id));
      log.warn({ mailId: row.id, attempts, status, error: lastError }, 'sending a mail failed');
    }
  }

  async function drain() {
    for (;;) {
      const batch = await claimDueMail();
      for (const row of batch) await deliver(row);
      if (batch.length < BATCH_SIZE || stopped) return;
    }
  }

  function wake() {
    if (stopped) return;
    if (running) {
      wokenWhileRunning = true;
      return;
    }
    running = (async () => {
      do {
        wokenWhileRunning = false;
        await drain();
        // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- wake() and stop() set these while drain() awaits
      } while (wokenWhileRunning && !stopped);
    })()
      .catch((error: unknown) => log.error({ err: error }, 'the mail outbox could not be processed'))
      .finally(() => {
        running = undefined;
      });
  }

  const timer = setInterval(wake, intervalMs);
  timer.unref();
  wakers.add(wake);
  wake();

  return {
    /** Stops polling and waits for the mail being sent now. */
    async stop() {
      stopped = true;
      clearInterval(timer);
      wakers.delete(wake);
      await running;
    },
  };
}
