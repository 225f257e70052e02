import { and, eq } from 'drizzle-orm';
import type { RefundReason } from '#shared/constants.ts';
import { paths } from '#shared/paths.ts';
import type { Operator } from '#shared/schemas/payments.ts';
import { refundMessages, type RefundRequestView } from '#shared/schemas/refunds.ts';
import type { Executor } from '../../db/client.ts';
import { checkouts, type RefundRequest } from '../../db/schema/payments.ts';
import { tutorBids, tutoringRequests } from '../../db/schema/requests.ts';
import { AppError } from '../../http/errors.ts';
import type { StripeGateway } from '../../platform/payments/stripe.ts';
import { createNotification } from '../notifications/service.ts';
import { jobPaymentState } from './job-payment-state.ts';
import { ledgerAccountBalance } from './ledger.ts';

// What every refund step shares: the job locked, its held money, its people told, a request as the API shows it.

export const REASON_LABELS: Record<RefundReason, string> = {
  missed_session: 'the tutor missed a scheduled session',
  missed_deadline: 'the assignment was not delivered by its deadline',
  tutor_withdrew: 'the tutor withdrew from the job',
  cancelled_by_agreement: 'both agreed to cancel the job',
  tutor_suspended: 'the tutor’s account was suspended',
};

export type RefundContext = {
  publicUrl: string;
  /** Who refunds, as the refund's receipt names them. */
  operator: Operator;
  commissionBasisPoints: number;
  /** Where a refund that could not be made at once is told (it is made again later). */
  log: { error(fields: object, message: string): void };
  /**
   * Ends a job whose whole held money went back to the student, in the refund's transaction. The requests feature
   * owns the job's row and imports this feature, so the app passes its rule in rather than this feature importing it.
   */
  closeRefundedJob: (options: { db: Executor; requestId: string }) => Promise<void>;
  /** Under PAYMENTS_PROVIDER=stripe: who gives a Stripe payment back. */
  stripe: StripeGateway | null;
};

/** The job (an accepted request) with its people, its row locked until the transaction ends: refunds and the
 * release of its money take the same lock, so they never move the same cents twice. */
export async function lockJob(db: Executor, requestId: string) {
  const [job] = await db
    .select({
      requestId: tutoringRequests.id,
      type: tutoringRequests.type,
      studentId: tutoringRequests.studentId,
      tutorId: tutorBids.tutorId,
      deadline: tutoringRequests.deadline,
      deliveredAt: tutoringRequests.deliveredAt,
    })
    .from(tutoringRequests)
    .innerJoin(tutorBids, eq(tutorBids.id, tutoringRequests.acceptedBidId))
    .where(eq(tutoringRequests.id, requestId))
    .for('update', { of: tutoringRequests });
  return job ?? null;
}

export type Job = NonNullable<Awaited<ReturnType<typeof lockJob>>>;

/** The job's paid checkout and the cents held for it, or the refusal that says why nothing can be refunded. */
export async function heldMoney(db: Executor, job: Job) {
  const state = await jobPaymentState({ db, requestId: job.requestId });
  const refusal = {
    not_charged: refundMessages.notCharged,
    awaiting_payment: refundMessages.awaitingPayment,
    frozen: refundMessages.alreadyOpen,
    refunded: refundMessages.alreadyRefunded,
    released: refundMessages.released,
    partially_refunded: refundMessages.released,
    held: null,
  }[state];
  if (refusal) throw new AppError('CONFLICT', { message: refusal });
  const [checkout] = await db
    .select({ id: checkouts.id })
    .from(checkouts)
    .where(and(eq(checkouts.requestId, job.requestId), eq(checkouts.status, 'paid')));
  const heldCents = await ledgerAccountBalance({ db, account: { kind: 'held_funds', requestId: job.requestId } });
  return { checkoutId: checkout!.id, heldCents };
}

/** Tells one of the job's people about its refund, in the bell and by e-mail, linking to their chat. */
export async function tell(
  db: Executor,
  ctx: Pick<RefundContext, 'publicUrl' | 'operator'>,
  {
    userId,
    partnerId,
    message,
    type,
  }: {
    userId: string;
    partnerId: string;
    message: string;
    type: 'refund_requested' | 'refund_update' | 'refund_issued';
  },
) {
  await createNotification({
    db,
    publicUrl: ctx.publicUrl,
    userId,
    message,
    link: paths.chat.getHref(partnerId),
    // The refund's receipt names who refunded.
    email: { type, sender: 'Virtual Help', ...(type === 'refund_issued' ? { operator: ctx.operator } : {}) },
  });
}

export function toRefundRequestView(row: RefundRequest): RefundRequestView {
  const iso = (date: Date | null) => date?.toISOString() ?? null;
  return {
    id: row.id,
    requestId: row.requestId,
    studentId: row.studentId,
    tutorId: row.tutorId,
    reason: row.reason,
    openedBy: row.openedBy,
    meetingId: row.meetingId,
    status: row.status,
    heldCents: row.heldCents,
    refundCents: row.refundCents,
    answerDueAt: iso(row.answerDueAt),
    tutorAnswer: row.tutorAnswer,
    tutorNote: row.tutorNote,
    decisionNote: row.decisionNote,
    decidedAt: iso(row.decidedAt),
    refundedAt: iso(row.refundedAt),
    createdAt: row.createdAt.toISOString(),
  };
}
