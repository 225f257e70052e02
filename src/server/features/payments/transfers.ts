import { and, asc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { transferMessages, type AwaitingTransfers, type RequestedPayouts } from '#shared/schemas/admin-payments.ts';
import type { Database, Executor } from '../../db/client.ts';
import { users } from '../../db/schema/auth.ts';
import { checkouts, payouts, type Checkout } from '../../db/schema/payments.ts';
import { tutoringRequests } from '../../db/schema/requests.ts';
import { subjects } from '../../db/schema/subjects.ts';
import { AppError } from '../../http/errors.ts';
import { claimCheckout, recordCheckoutPayment, type AcceptPaidOffer } from './checkouts.ts';
import { jobTitle } from './job-title.ts';

// Bank transfers under `manual`: the checkout waits (5 days) for the student's transfer, and an admin who sees it on
// the bank statement records it, which pays the checkout as a card's success would; a tutor's requested payout waits
// for the transfer an admin sends and records (recordPayoutPaid).

const students = alias(users, 'students');
const tutors = alias(users, 'tutors');

/** The bank-transfer checkouts awaiting payment within their hold, oldest first. */
export async function listAwaitingTransfers(db: Executor): Promise<AwaitingTransfers> {
  const rows = await db
    .select({
      checkoutId: checkouts.id,
      requestId: checkouts.requestId,
      job: jobTitle,
      student: { id: students.id, username: students.username, vhNumber: students.vhNumber },
      tutor: { id: tutors.id, username: tutors.username, vhNumber: tutors.vhNumber },
      amountCents: checkouts.amountCents,
      createdAt: checkouts.createdAt,
      expiresAt: checkouts.expiresAt,
    })
    .from(checkouts)
    .innerJoin(tutoringRequests, eq(tutoringRequests.id, checkouts.requestId))
    .innerJoin(subjects, eq(subjects.id, tutoringRequests.subjectId))
    .innerJoin(students, eq(students.id, checkouts.studentId))
    .innerJoin(tutors, eq(tutors.id, checkouts.tutorId))
    .where(
      and(
        eq(checkouts.provider, 'manual'),
        eq(checkouts.status, 'awaiting_payment'),
        sql`${checkouts.expiresAt} > now()`,
      ),
    )
    .orderBy(asc(checkouts.createdAt));
  return {
    items: rows.map((row) => ({
      ...row,
      createdAt: row.createdAt.toISOString(),
      expiresAt: row.expiresAt.toISOString(),
    })),
  };
}

/**
 * Records the student's bank transfer for a `manual` checkout: claims it as a pay does and records the payment through
 * the pay's own record (the reference as the provider's payment id, no provider fee), with `alsoWrite` (the admin's
 * audit row) in the same transaction. Unknown or not a bank-transfer checkout: 404; no longer awaiting: 409.
 */
export async function recordTransfer({
  db,
  checkoutId,
  reference,
  acceptPaidOffer,
  alsoWrite,
}: {
  db: Database;
  checkoutId: string;
  reference: string;
  acceptPaidOffer: AcceptPaidOffer;
  alsoWrite: (tx: Executor, checkout: Checkout) => Promise<void>;
}) {
  const [found] = await db.select().from(checkouts).where(eq(checkouts.id, checkoutId));
  if (!found || found.provider !== 'manual') throw new AppError('NOT_FOUND', { message: 'Checkout not found' });
  const notAwaiting = () => new AppError('CONFLICT', { message: transferMessages.notAwaiting });
  const claimed = await claimCheckout(db, checkoutId);
  if (!claimed) throw notAwaiting();
  const published = await db.transaction(async (tx) => {
    const recorded = await recordCheckoutPayment({
      db: tx,
      checkoutId,
      token: claimed.token,
      providerPaymentId: reference,
      feeCents: 0,
      deadline: null,
      acceptPaidOffer,
    });
    if (!recorded) throw notAwaiting();
    await alsoWrite(tx, claimed.checkout);
    return recorded;
  });
  published.publish();
}

/** The payouts tutors requested under `manual`, waiting for the admin's bank transfer, oldest first. */
export async function listRequestedPayouts(db: Executor): Promise<RequestedPayouts> {
  const rows = await db
    .select({
      payoutId: payouts.id,
      tutor: { id: users.id, username: users.username, vhNumber: users.vhNumber },
      amountCents: payouts.amountCents,
      requestedAt: payouts.createdAt,
    })
    .from(payouts)
    .innerJoin(users, eq(users.id, payouts.tutorId))
    .where(and(eq(payouts.provider, 'manual'), eq(payouts.status, 'requested')))
    .orderBy(asc(payouts.createdAt));
  return { items: rows.map((row) => ({ ...row, requestedAt: row.requestedAt.toISOString() })) };
}
