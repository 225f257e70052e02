import { and, desc, eq, or } from 'drizzle-orm';
import type { SharedJob } from '#shared/schemas/reviews.ts';
import type { Executor } from '../../db/client.ts';
import { tutorBids, tutoringRequests } from '../../db/schema/requests.ts';
import { subjects } from '../../db/schema/subjects.ts';
import { listJobReviews } from '../tutors/service.ts';

/**
 * The jobs between the signed-in user and one other person (either may be the student), newest first, with the
 * student's review: what the chat header offers ("Mark as completed") and the rating prompt.
 */
export async function listSharedJobs({
  db,
  userId,
  partnerId,
}: {
  db: Executor;
  userId: string;
  partnerId: string;
}): Promise<SharedJob[]> {
  const rows = await db
    .select({
      requestId: tutoringRequests.id,
      subjectId: subjects.id,
      subjectName: subjects.name,
      studentId: tutoringRequests.studentId,
      tutorId: tutorBids.tutorId,
      status: tutoringRequests.status,
      completedAt: tutoringRequests.completedAt,
      deliveredAt: tutoringRequests.deliveredAt,
    })
    .from(tutoringRequests)
    .innerJoin(tutorBids, eq(tutorBids.id, tutoringRequests.acceptedBidId))
    .innerJoin(subjects, eq(subjects.id, tutoringRequests.subjectId))
    .where(
      or(
        and(eq(tutoringRequests.studentId, userId), eq(tutorBids.tutorId, partnerId)),
        and(eq(tutoringRequests.studentId, partnerId), eq(tutorBids.tutorId, userId)),
      ),
    )
    .orderBy(desc(tutoringRequests.createdAt))
    .limit(20);
  const jobReviews = await listJobReviews({ db, requestIds: rows.map((row) => row.requestId) });
  return rows.map(({ status, completedAt, deliveredAt, ...row }) => ({
    ...row,
    isCompleted: status === 'completed',
    isClosed: status === 'closed',
    completedAt: completedAt?.toISOString() ?? null,
    deliveredAt: deliveredAt?.toISOString() ?? null,
    review: jobReviews.find((review) => review.requestId === row.requestId) ?? null,
  }));
}

/**
 * The newest job of this student with this tutor that is not completed yet, or null: the job a meeting the tutor
 * schedules in their chat is a session of.
 */
export async function findOpenJobOfPair({
  db,
  studentId,
  tutorId,
}: {
  db: Executor;
  studentId: string;
  tutorId: string;
}): Promise<string | null> {
  const [job] = await db
    .select({ requestId: tutoringRequests.id })
    .from(tutoringRequests)
    .innerJoin(tutorBids, eq(tutorBids.id, tutoringRequests.acceptedBidId))
    .where(
      and(
        eq(tutoringRequests.studentId, studentId),
        eq(tutorBids.tutorId, tutorId),
        eq(tutoringRequests.status, 'accepted'),
      ),
    )
    .orderBy(desc(tutoringRequests.createdAt), desc(tutoringRequests.id))
    .limit(1);
  return job?.requestId ?? null;
}
