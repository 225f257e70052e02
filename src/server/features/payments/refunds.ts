import { and, eq, lte, sql } from 'drizzle-orm';
import { MISSED_SESSION_GRACE_MS, REFUND_ANSWER_DAYS } from '#shared/constants.ts';
import { formatCents } from '#shared/rules/money.ts';
import {
  refundMessages,
  type AnswerRefundInput,
  type AskForRefundInput,
  type RefundDecisionInput,
  type RefundRequestView,
} from '#shared/schemas/refunds.ts';
import type { Database, Executor } from '../../db/client.ts';
import { meetingJoins, meetings } from '../../db/schema/meetings.ts';
import { refundRequests } from '../../db/schema/payments.ts';
import { AppError, fieldError } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import {
  heldMoney,
  lockJob,
  REASON_LABELS,
  tell,
  toRefundRequestView,
  type Job,
  type RefundContext,
} from './refund-jobs.ts';
import { settle } from './refund-settlement.ts';

// Refunds of money held for a job (docs/decisions/0044): the student asks for one for a reason the terms allow, the
// tutor accepts or contests, admins decide what is contested or unanswered; a tutor withdraws, or both agree to
// cancel. A decided refund is claimed, the provider called with no transaction open, and the ledger posted from its
// outcome under `refund:<id>` (a partial refund releases the rest to the tutor under `release:<requestId>`).

/** The refusal of a missed-session request, or null when the tutor did miss the session. */
async function missedSessionProblem(db: Executor, job: Job, meetingId: string | undefined) {
  if (!meetingId) return fieldError('meetingId', refundMessages.chooseSession);
  const [session] = await db
    .select()
    .from(meetings)
    .where(and(eq(meetings.id, meetingId), eq(meetings.requestId, job.requestId)));
  if (!session) return fieldError('meetingId', refundMessages.notThisJobsSession);
  if (session.cancelledAt) return new AppError('CONFLICT', { message: refundMessages.sessionCancelled });
  const lateAfter = new Date(session.startTime.getTime() + MISSED_SESSION_GRACE_MS);
  if (lateAfter.getTime() > Date.now()) return new AppError('CONFLICT', { message: refundMessages.sessionNotOverYet });
  const joinedInTime = await db.$count(
    meetingJoins,
    and(
      eq(meetingJoins.meetingId, meetingId),
      eq(meetingJoins.userId, job.tutorId),
      lte(meetingJoins.joinedAt, lateAfter),
    ),
  );
  return joinedInTime > 0 ? new AppError('CONFLICT', { message: refundMessages.tutorJoined }) : null;
}

/** The refusal of a missed-deadline request, or null when the assignment was not delivered by its deadline. */
function missedDeadlineProblem(job: Job) {
  if (job.type !== 'assignment' || !job.deadline)
    return new AppError('CONFLICT', { message: refundMessages.notAnAssignment });
  if (job.deadline.getTime() > Date.now())
    return new AppError('CONFLICT', { message: refundMessages.deadlineNotPassed });
  if (job.deliveredAt && job.deliveredAt <= job.deadline)
    return new AppError('CONFLICT', { message: refundMessages.deliveredInTime });
  return null;
}

/**
 * The student asks for a refund of a job whose money is held, for one of the terms' two reasons; each is checked
 * here (a session the tutor missed: not cancelled and no Join by the tutor within 15 minutes of its start; an
 * assignment not marked delivered by its deadline). The money is frozen and the tutor is told, with 3 days to answer.
 */
export async function askForRefund({
  db,
  ctx,
  student,
  requestId,
  input,
}: {
  db: Database;
  ctx: RefundContext;
  student: SessionUser;
  requestId: string;
  input: AskForRefundInput;
}) {
  return db.transaction(async (tx) => {
    const job = await lockJob(tx, requestId);
    if (!job || job.studentId !== student.id) throw new AppError('NOT_FOUND');
    const problem =
      input.reason === 'missed_session'
        ? await missedSessionProblem(tx, job, input.meetingId)
        : missedDeadlineProblem(job);
    if (problem) throw problem;
    const { checkoutId, heldCents } = await heldMoney(tx, job);
    const [row] = await tx
      .insert(refundRequests)
      .values({
        requestId,
        checkoutId,
        studentId: job.studentId,
        tutorId: job.tutorId,
        reason: input.reason,
        openedBy: student.id,
        meetingId: input.reason === 'missed_session' ? input.meetingId : null,
        status: 'awaiting_tutor',
        heldCents,
        answerDueAt: sql`now() + make_interval(days => ${REFUND_ANSWER_DAYS})`,
      })
      .returning();
    await tell(tx, ctx, {
      userId: job.tutorId,
      partnerId: job.studentId,
      type: 'refund_requested',
      message: `${student.username} asked for a refund of ${formatCents(heldCents)}: ${REASON_LABELS[input.reason]}. Accept or contest it within ${REFUND_ANSWER_DAYS} days in your chat, or an admin decides.`,
    });
    return toRefundRequestView(row!);
  });
}

/** A refund request of one of the job's people, its row locked; anyone else gets 404. */
async function lockRefundRequest(db: Executor, refundRequestId: string, userId?: string) {
  const [row] = await db.select().from(refundRequests).where(eq(refundRequests.id, refundRequestId)).for('update');
  if (!row || (userId && row.studentId !== userId && row.tutorId !== userId)) throw new AppError('NOT_FOUND');
  return row;
}

/**
 * The tutor answers a student's refund request: accepting refunds the whole amount at once; contesting sends it to
 * admins. Only while it awaits the tutor (after 3 days it went to admins).
 */
export async function answerRefundRequest({
  db,
  ctx,
  tutor,
  refundRequestId,
  input,
}: {
  db: Database;
  ctx: RefundContext;
  tutor: SessionUser;
  refundRequestId: string;
  input: AnswerRefundInput;
}) {
  const answered = await db.transaction(async (tx) => {
    const row = await lockRefundRequest(tx, refundRequestId, tutor.id);
    if (row.tutorId !== tutor.id)
      throw new AppError('FORBIDDEN', { message: 'Only the tutor of this job can answer its refund request.' });
    if (row.status !== 'awaiting_tutor') throw new AppError('CONFLICT', { message: refundMessages.alreadyAnswered });
    const accepted = input.answer === 'accept';
    const [updated] = await tx
      .update(refundRequests)
      .set({
        tutorAnswer: accepted ? 'accepted' : 'contested',
        tutorNote: input.note || null,
        answeredAt: sql`now()`,
        status: accepted ? 'refunding' : 'with_admins',
        refundCents: accepted ? row.heldCents : null,
      })
      .where(eq(refundRequests.id, row.id))
      .returning();
    await tell(tx, ctx, {
      userId: row.studentId,
      partnerId: row.tutorId,
      type: 'refund_update',
      message: accepted
        ? `${tutor.username} accepted your refund request: ${formatCents(row.heldCents)} is refunded.`
        : `${tutor.username} contested your refund request. An admin will decide and tell you.`,
    });
    return updated!;
  });
  return settle({ db, ctx, row: answered });
}

/**
 * The tutor withdraws from a job whose money is held, or the student or tutor proposes to cancel it (the other
 * agrees with `agreeToCancel`). A withdrawal refunds the whole amount at once.
 */
export async function cancelJob({
  db,
  ctx,
  user,
  requestId,
  how,
}: {
  db: Database;
  ctx: RefundContext;
  user: SessionUser;
  requestId: string;
  how: 'withdraw' | 'propose';
}) {
  const opened = await db.transaction(async (tx) => {
    const job = await lockJob(tx, requestId);
    if (!job || (job.studentId !== user.id && job.tutorId !== user.id)) throw new AppError('NOT_FOUND');
    if (how === 'withdraw' && job.tutorId !== user.id)
      throw new AppError('FORBIDDEN', { message: 'Only the tutor of this job can withdraw from it.' });
    const { checkoutId, heldCents } = await heldMoney(tx, job);
    const withdraw = how === 'withdraw';
    const [row] = await tx
      .insert(refundRequests)
      .values({
        requestId,
        checkoutId,
        studentId: job.studentId,
        tutorId: job.tutorId,
        reason: withdraw ? 'tutor_withdrew' : 'cancelled_by_agreement',
        openedBy: user.id,
        status: withdraw ? 'refunding' : 'awaiting_agreement',
        heldCents,
        refundCents: withdraw ? heldCents : null,
      })
      .returning();
    const partnerId = job.studentId === user.id ? job.tutorId : job.studentId;
    await tell(tx, ctx, {
      userId: partnerId,
      partnerId: user.id,
      type: 'refund_update',
      message: withdraw
        ? `${user.username} withdrew from the job: ${formatCents(heldCents)} is refunded to you.`
        : `${user.username} proposes to cancel your job and refund ${formatCents(heldCents)} to the student. Agree or decline in your chat.`,
    });
    return row!;
  });
  return settle({ db, ctx, row: opened });
}

/** The other person answers a proposal to cancel: agreeing refunds the whole amount at once. */
export async function answerCancellation({
  db,
  ctx,
  user,
  refundRequestId,
  agree,
}: {
  db: Database;
  ctx: RefundContext;
  user: SessionUser;
  refundRequestId: string;
  agree: boolean;
}) {
  const answered = await db.transaction(async (tx) => {
    const row = await lockRefundRequest(tx, refundRequestId, user.id);
    if (row.status !== 'awaiting_agreement')
      throw new AppError('CONFLICT', { message: refundMessages.notAwaitingAgreement });
    if (row.openedBy === user.id) throw new AppError('FORBIDDEN', { message: refundMessages.ownProposal });
    const [updated] = await tx
      .update(refundRequests)
      .set({
        status: agree ? 'refunding' : 'declined',
        refundCents: agree ? row.heldCents : null,
        answeredAt: sql`now()`,
      })
      .where(eq(refundRequests.id, row.id))
      .returning();
    // A proposal to cancel always has its proposer.
    await tell(tx, ctx, {
      userId: row.openedBy!,
      partnerId: user.id,
      type: 'refund_update',
      message: agree
        ? `${user.username} agreed to cancel the job: ${formatCents(row.heldCents)} is refunded to the student.`
        : `${user.username} declined to cancel the job. It goes on as before.`,
    });
    return updated!;
  });
  return settle({ db, ctx, row: answered });
}

/**
 * An admin with the `payments` permission decides a request that is with admins: a full refund, a partial one (the
 * rest is released to the tutor), or none (the money is held again and released as usual). `audit` writes the audit
 * log entry in the deciding transaction.
 */
export async function decideRefundRequest({
  db,
  ctx,
  admin,
  refundRequestId,
  input,
  audit,
}: {
  db: Database;
  ctx: RefundContext;
  admin: SessionUser;
  refundRequestId: string;
  input: RefundDecisionInput;
  audit: (options: { db: Executor; before: RefundRequestView; after: RefundRequestView }) => Promise<void>;
}) {
  const decided = await db.transaction(async (tx) => {
    const row = await lockRefundRequest(tx, refundRequestId);
    if (row.status !== 'with_admins') throw new AppError('CONFLICT', { message: refundMessages.alreadyDecided });
    const refundCents = { full: row.heldCents, none: 0, partial: input.refundCents ?? 0 }[input.outcome];
    if (input.outcome === 'partial' && (refundCents <= 0 || refundCents >= row.heldCents))
      throw fieldError('refundCents', refundMessages.partialRange);
    const [updated] = await tx
      .update(refundRequests)
      .set({
        status: refundCents > 0 ? 'refunding' : 'declined',
        refundCents,
        decidedBy: admin.id,
        decisionNote: input.note,
        decidedAt: sql`now()`,
      })
      .where(eq(refundRequests.id, row.id))
      .returning();
    await audit({ db: tx, before: toRefundRequestView(row), after: toRefundRequestView(updated!) });
    const outcome =
      refundCents === 0
        ? 'no refund: the money stays with the job'
        : `a refund of ${formatCents(refundCents)} of ${formatCents(row.heldCents)}`;
    for (const [userId, partnerId] of [
      [row.studentId, row.tutorId],
      [row.tutorId, row.studentId],
    ] as const)
      await tell(tx, ctx, {
        userId,
        partnerId,
        type: 'refund_update',
        message: `An admin decided the refund request of your job: ${outcome}. ${input.note}`,
      });
    return updated!;
  });
  return settle({ db, ctx, row: decided });
}
