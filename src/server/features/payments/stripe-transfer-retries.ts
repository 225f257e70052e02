import { asc, eq, sql } from 'drizzle-orm';
import { stripeTransferRetryMessages, type FailedStripeTransfers } from '#shared/schemas/admin-payments.ts';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema/auth.ts';
import { stripeTransfers, type StripeTransfer } from '../../db/schema/stripe-connect.ts';
import { tutoringRequests } from '../../db/schema/requests.ts';
import { subjects } from '../../db/schema/subjects.ts';
import { AppError } from '../../http/errors.ts';
import { jobTitle } from './job-title.ts';

// Transfers that failed (docs/decisions/0053): Stripe refused them, or every try of a series failed. They stay owed
// to the tutor (Earnings says "delayed") and wait in the admins' Payments section for a Retry, which starts a new
// series under a key of its own.

const FAILED_SHOWN = 100;

/** The failed transfers, oldest first. */
export async function listFailedStripeTransfers(db: Executor): Promise<FailedStripeTransfers> {
  const rows = await db
    .select({
      id: stripeTransfers.id,
      requestId: stripeTransfers.requestId,
      job: jobTitle,
      tutor: { id: users.id, username: users.username, vhNumber: users.vhNumber },
      amountCents: stripeTransfers.amountCents,
      attempts: stripeTransfers.attempts,
      lastError: stripeTransfers.lastError,
      createdAt: stripeTransfers.createdAt,
    })
    .from(stripeTransfers)
    .innerJoin(tutoringRequests, eq(tutoringRequests.id, stripeTransfers.requestId))
    .innerJoin(subjects, eq(subjects.id, tutoringRequests.subjectId))
    .innerJoin(users, eq(users.id, stripeTransfers.tutorId))
    .where(eq(stripeTransfers.status, 'failed'))
    .orderBy(asc(stripeTransfers.createdAt))
    .limit(FAILED_SHOWN);
  return { items: rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })) };
}

/**
 * An admin's Retry of a failed transfer, in the caller's transaction (with its audit row): it waits again, due now,
 * with a fresh series of tries under the next key. Unknown: 404; not failed: 409. Answers the row before and after.
 */
export async function retryStripeTransfer({ db, transferId }: { db: Executor; transferId: string }) {
  const [before] = await db.select().from(stripeTransfers).where(eq(stripeTransfers.id, transferId)).for('update');
  if (!before) throw new AppError('NOT_FOUND');
  if (before.status !== 'failed') {
    throw new AppError('CONFLICT', { message: stripeTransferRetryMessages.notFailed });
  }
  const [after] = await db
    .update(stripeTransfers)
    .set({
      status: 'waiting',
      attempts: 0,
      claims: 0,
      retries: before.retries + 1,
      nextAttemptAt: sql`now()`,
      lastError: null,
    })
    .where(eq(stripeTransfers.id, transferId))
    .returning();
  return { before, after: after! } satisfies Record<string, StripeTransfer>;
}
