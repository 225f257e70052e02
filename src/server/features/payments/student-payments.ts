import { and, asc, desc, eq, inArray, isNotNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  formatReceiptNumber,
  type Operator,
  type PaymentMethod,
  type PaymentsPage,
  type Receipt,
} from '#shared/schemas/payments.ts';
import type { Executor } from '../../db/client.ts';
import { cursorMicros, olderThan, toPage } from '../../db/keyset.ts';
import { users } from '../../db/schema/auth.ts';
import { checkouts, refundRequests, type Checkout } from '../../db/schema/payments.ts';
import { tutoringRequests } from '../../db/schema/requests.ts';
import { subjects } from '../../db/schema/subjects.ts';
import { AppError } from '../../http/errors.ts';
import { jobPaymentStates } from './job-payment-state.ts';
import { jobTitle } from './job-title.ts';

// The student's payments: one row per paid checkout (each paid job), and the receipt of each.

export const PAYMENTS_PAGE_SIZE = 20;

const tutors = alias(users, 'tutors');
const payers = alias(users, 'payers');
const isPaidBy = (studentId: string) => and(eq(checkouts.studentId, studentId), eq(checkouts.status, 'paid'));

/** The student's paid jobs, newest payment first, a page at a time, each with its money's state now. */
export async function listStudentPayments({
  db,
  studentId,
  cursor,
}: {
  db: Executor;
  studentId: string;
  cursor?: string | undefined;
}): Promise<PaymentsPage> {
  const rows = await db
    .select({
      id: checkouts.id,
      requestId: checkouts.requestId,
      job: jobTitle,
      tutor: { id: tutors.id, username: tutors.username, vhNumber: tutors.vhNumber },
      amountCents: checkouts.amountCents,
      paidAt: checkouts.paidAt,
      cursorMicros: cursorMicros(checkouts.paidAt),
    })
    .from(checkouts)
    .innerJoin(tutoringRequests, eq(tutoringRequests.id, checkouts.requestId))
    .innerJoin(subjects, eq(subjects.id, tutoringRequests.subjectId))
    .innerJoin(tutors, eq(tutors.id, checkouts.tutorId))
    .where(and(isPaidBy(studentId), olderThan(checkouts.paidAt, checkouts.id, cursor)))
    .orderBy(desc(checkouts.paidAt), desc(checkouts.id))
    .limit(PAYMENTS_PAGE_SIZE + 1);
  const { page, nextCursor } = toPage(rows, PAYMENTS_PAGE_SIZE);
  const states = await jobPaymentStates({ db, requestIds: page.map((row) => row.requestId) });
  return {
    items: page.map(({ cursorMicros: _position, ...row }) => ({
      ...row,
      paidAt: row.paidAt!.toISOString(),
      state: states.get(row.requestId)!,
    })),
    nextCursor,
  };
}

/** How a checkout was paid, as its receipt names it. */
function paymentMethod(checkout: Checkout): PaymentMethod {
  switch (checkout.provider) {
    case 'test':
      return { kind: 'test_card', last4: checkout.cardLast4 };
    case 'manual':
      return { kind: 'bank_transfer', reference: checkout.providerPaymentId };
    case 'stripe':
      return { kind: 'card', last4: checkout.cardLast4 };
  }
}

/** The receipt of one of the student's payments, naming the operator; anyone else's (or an unpaid one): 404. */
export async function getReceipt({
  db,
  studentId,
  checkoutId,
  operator,
}: {
  db: Executor;
  studentId: string;
  checkoutId: string;
  operator: Operator;
}): Promise<Receipt> {
  const [row] = await db
    .select({
      checkout: checkouts,
      title: jobTitle,
      payer: { id: payers.id, username: payers.username, vhNumber: payers.vhNumber, email: payers.email },
      tutor: { id: tutors.id, username: tutors.username, vhNumber: tutors.vhNumber },
    })
    .from(checkouts)
    .innerJoin(tutoringRequests, eq(tutoringRequests.id, checkouts.requestId))
    .innerJoin(subjects, eq(subjects.id, tutoringRequests.subjectId))
    .innerJoin(payers, eq(payers.id, checkouts.studentId))
    .innerJoin(tutors, eq(tutors.id, checkouts.tutorId))
    .where(and(eq(checkouts.id, checkoutId), isPaidBy(studentId)));
  if (!row) throw new AppError('NOT_FOUND', { message: 'Payment not found' });
  const { checkout } = row;
  const [refunds, states] = await Promise.all([
    db
      .select({
        id: refundRequests.id,
        amountCents: refundRequests.refundCents,
        refundedAt: refundRequests.refundedAt,
        reference: refundRequests.providerRefundId,
      })
      .from(refundRequests)
      .where(
        and(
          eq(refundRequests.checkoutId, checkout.id),
          inArray(refundRequests.status, ['refunded', 'partially_refunded']),
          isNotNull(refundRequests.refundedAt),
        ),
      )
      .orderBy(asc(refundRequests.refundedAt)),
    jobPaymentStates({ db, requestIds: [checkout.requestId] }),
  ]);
  const refundedCents = refunds.reduce((sum, refund) => sum + refund.amountCents!, 0);
  return {
    receiptNumber: formatReceiptNumber(checkout.receiptNumber!),
    paidAt: checkout.paidAt!.toISOString(),
    operator,
    payer: row.payer,
    tutor: row.tutor,
    job: { requestId: checkout.requestId, title: row.title },
    amountCents: checkout.amountCents,
    method: paymentMethod(checkout),
    state: states.get(checkout.requestId)!,
    refunds: refunds.map((refund) => ({
      ...refund,
      amountCents: refund.amountCents!,
      refundedAt: refund.refundedAt!.toISOString(),
    })),
    refundedCents,
    netCents: checkout.amountCents - refundedCents,
  };
}
