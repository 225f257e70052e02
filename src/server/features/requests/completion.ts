import { and, eq, sql } from 'drizzle-orm';
import { paths } from '#shared/paths.ts';
import type { Database, Executor } from '../../db/client.ts';
import { users } from '../../db/schema/auth.ts';
import { tutorBids } from '../../db/schema/requests.ts';
import { subjects } from '../../db/schema/subjects.ts';
import { AppError } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { enforceUserLimit } from '../../platform/limits/usage-limits.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import { createNotification } from '../notifications/service.ts';
import { jobCountsTowardTrust, jobPaymentState, releaseHeldFunds } from '../payments/service.ts';
import { countCompletedJob } from '../tutors/service.ts';
import { notFound, r } from './request-columns.ts';

// Finished jobs: an accepted request is a job between the student and the tutor of the accepted offer; the student
// marks it completed (the tutor marks it delivered first, or not), which counts on the tutor's page and opens the rating.

/** The request with its accepted offer's tutor (null before an acceptance), locked for the change. */
async function lockJob(tx: Executor, requestId: string) {
  const [job] = await tx
    .select({
      studentId: r.studentId,
      status: r.status,
      completedAt: r.completedAt,
      tutorId: tutorBids.tutorId,
      subjectName: subjects.name,
    })
    .from(r)
    .innerJoin(subjects, eq(subjects.id, r.subjectId))
    .leftJoin(tutorBids, eq(tutorBids.id, r.acceptedBidId))
    .where(eq(r.id, requestId))
    .for('update', { of: r });
  return job;
}

/**
 * The student marks their accepted request completed: its status becomes Completed, the money held for it is
 * released to the tutor (less the commission), the tutor's completed jobs go up by one, the tutor is told and the
 * student is asked for a rating, all in one transaction. Marking it again answers the same (a retry).
 */
export async function completeJob({
  db,
  realtime,
  publicUrl,
  commissionBasisPoints,
  student,
  requestId,
}: {
  db: Database;
  realtime: Realtime;
  publicUrl: string;
  commissionBasisPoints: number;
  student: SessionUser;
  requestId: string;
}) {
  const { completedAt, tutorId } = await db.transaction(async (tx) => {
    const job = await lockJob(tx, requestId);
    if (!job || job.studentId !== student.id) throw notFound();
    if (job.status === 'completed' && job.completedAt) return { completedAt: job.completedAt, tutorId: null };
    if (job.status !== 'accepted' || !job.tutorId) throw new AppError('JOB_NOT_ACCEPTED');
    // Completed while its money is frozen (a refund request or a chargeback), a job the refund then closes would stay
    // completed and count toward trust.
    if ((await jobPaymentState({ db: tx, requestId })) === 'frozen') throw new AppError('PAYMENT_ON_HOLD');
    const [updated] = await tx
      .update(r)
      .set({ status: 'completed', completedAt: sql`now()` })
      .where(eq(r.id, requestId))
      .returning({ completedAt: r.completedAt });
    await releaseHeldFunds({ db: tx, requestId, tutorId: job.tutorId, commissionBasisPoints });
    // A job completed within an hour of its acceptance, not marked delivered, proves nothing of the tutor.
    if (await jobCountsTowardTrust({ db: tx, requestId })) await countCompletedJob(tx, job.tutorId);
    const [tutor] = await tx.select({ username: users.username }).from(users).where(eq(users.id, job.tutorId));
    await createNotification({
      db: tx,
      publicUrl,
      userId: job.tutorId,
      message: `${student.username} marked your ${job.subjectName} job as completed.`,
      link: paths.chat.getHref(student.id),
      email: { type: 'job_completed', sender: student.username },
    });
    await createNotification({
      db: tx,
      publicUrl,
      userId: student.id,
      message: `How did your ${job.subjectName} job with ${tutor!.username} go? Rate it from 1 to 5 stars.`,
      link: paths.chat.getHref(job.tutorId),
      email: { type: 'job_completed', sender: tutor!.username },
    });
    return { completedAt: updated!.completedAt!, tutorId: job.tutorId };
  });
  if (tutorId) realtime.toUsers([tutorId, student.id], 'notification:new', { kind: 'general', requestId: null });
  return { requestId, completedAt: completedAt.toISOString() };
}

/**
 * The tutor of an accepted request marks it delivered: the first mark is kept (the held money is released some days
 * after it unless the student objects) and each mark asks the student to mark the job completed.
 */
export async function markJobDelivered({
  db,
  realtime,
  publicUrl,
  tutor,
  requestId,
}: {
  db: Database;
  realtime: Realtime;
  publicUrl: string;
  tutor: SessionUser;
  requestId: string;
}) {
  await enforceUserLimit(db, tutor.id, 'deliveryMarks');
  const { studentId, deliveredAt } = await db.transaction(async (tx) => {
    const job = await lockJob(tx, requestId);
    if (!job || job.tutorId !== tutor.id) throw notFound();
    if (job.status !== 'accepted') throw new AppError('JOB_NOT_ACCEPTED');
    const [marked] = await tx
      .update(r)
      .set({ deliveredAt: sql`coalesce(${r.deliveredAt}, now())` })
      .where(eq(r.id, requestId))
      .returning({ deliveredAt: r.deliveredAt });
    await createNotification({
      db: tx,
      publicUrl,
      userId: job.studentId,
      message: `${tutor.username} marked your ${job.subjectName} job as delivered. Please mark it as completed.`,
      link: paths.student.offers.getHref(requestId),
      email: { type: 'job_delivered', sender: tutor.username },
    });
    return { studentId: job.studentId, deliveredAt: marked!.deliveredAt! };
  });
  realtime.toUsers([studentId], 'notification:new', { kind: 'general', requestId: null });
  return { requestId, deliveredAt: deliveredAt.toISOString() };
}

/**
 * A job whose held money was refunded in full is over: it is closed (no completion, no rating), in the refund's
 * transaction, which holds the job's row locked. A job completed meanwhile stays completed.
 */
export async function closeRefundedJob({ db, requestId }: { db: Executor; requestId: string }) {
  await db
    .update(r)
    .set({ status: 'closed' })
    .where(and(eq(r.id, requestId), eq(r.status, 'accepted')));
}
