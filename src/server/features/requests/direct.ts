import { and, eq, inArray, sql } from 'drizzle-orm';
import { DIRECT_ANSWER_HOURS } from '#shared/rules/expiry.ts';
import { REQUEST_EXPIRY_JOB_INTERVAL_MS } from '#shared/constants.ts';
import { paths } from '#shared/paths.ts';
import type { DeclineDirectRequestInput, RequestDetail } from '#shared/schemas/requests.ts';
import type { Database, Executor } from '../../db/client.ts';
import { users } from '../../db/schema/auth.ts';
import { tutorBids } from '../../db/schema/requests.ts';
import { subjects } from '../../db/schema/subjects.ts';
import { AppError } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import type { IntervalJob } from '../../platform/jobs/interval-jobs.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import type { Moderation } from '../moderation/service.ts';
import { createNotification, notifyTeachersOfRequest } from '../notifications/service.ts';
import { lockRequestForTeacher, outer, r } from './request-columns.ts';
import { getRequestDetail } from './requests.ts';

// Direct requests (docs/decisions/0061): the tutor they were sent to declines them, or does not answer within 24
// hours; either way the student may open the request to every tutor of its subject, and its 48 hours start again.

const tutorHasBid = sql`exists (select 1 from ${tutorBids} where ${tutorBids.requestId} = ${outer(r.id)}
  and ${tutorBids.tutorId} = ${r.directTutorId})`;

const OPEN_IT = 'You can open it to all tutors of the subject.';

/**
 * The direct tutor declines a request sent to them (with an optional reason for the student), while it is open
 * and they have not bid. Anyone else, or a request no longer theirs to answer: 404. The reason reaches the student in
 * the app and by e-mail, so it meets the rules of a bid's message (no contact details, no abuse).
 */
export async function declineDirectRequest({
  db,
  realtime,
  moderation,
  publicUrl,
  tutor,
  requestId,
  input,
}: {
  db: Database;
  realtime: Realtime;
  moderation: Moderation;
  publicUrl: string;
  tutor: SessionUser;
  requestId: string;
  input: DeclineDirectRequestInput;
}) {
  if (input.reason) {
    await moderation.assertAllowed({ text: input.reason, field: 'reason', senderId: tutor.id, roomId: null });
  }
  const studentId = await db.transaction(async (tx) => {
    const request = await lockRequestForTeacher(tx, {
      requestId,
      teacherId: tutor.id,
      lock: 'update',
      directOnly: true,
    });
    if (request.hasBid) throw new AppError('ALREADY_BID');
    await tx
      .update(r)
      .set({ directState: 'declined', directDeclinedAt: sql`now()`, directDeclineReason: input.reason })
      .where(eq(r.id, requestId));
    await createNotification({
      db: tx,
      publicUrl,
      userId: request.studentId,
      message: `${tutor.username} declined your ${request.subjectName} request${input.reason ? `: ${input.reason}` : '.'} ${OPEN_IT}`,
      link: paths.student.offers.getHref(requestId),
      email: { type: 'direct_request_update', sender: tutor.username },
    });
    return request.studentId;
  });
  realtime.toUsers([studentId], 'notification:new', { kind: 'general', requestId });
}

/**
 * The student opens a declined or unanswered direct request to every tutor of its subject: everything written is
 * kept, the 48 hours start again, and the tutors of the subject are told (the direct tutor was told already).
 */
export async function openDirectRequestToAll({
  db,
  realtime,
  publicUrl,
  student,
  requestId,
}: {
  db: Database;
  realtime: Realtime;
  publicUrl: string;
  student: SessionUser;
  requestId: string;
}): Promise<RequestDetail> {
  const { detail, teacherIds } = await db.transaction(async (tx) => {
    const [request] = await tx
      .update(r)
      .set({ directState: 'opened', openedToAllAt: sql`now()` })
      .where(
        and(
          eq(r.id, requestId),
          eq(r.studentId, student.id),
          inArray(r.directState, ['declined', 'unanswered']),
          inArray(r.status, ['open', 'pending']),
        ),
      )
      .returning();
    if (!request) {
      // Not this student's (404), or not a direct request waiting to be opened (409).
      await getRequestDetail({ db: tx, studentId: student.id, requestId });
      throw new AppError('REQUEST_CLOSED', { message: 'This request cannot be opened to all tutors' });
    }
    const [subject] = await tx.select({ name: subjects.name }).from(subjects).where(eq(subjects.id, request.subjectId));
    const told = await notifyTeachersOfRequest({
      db: tx,
      publicUrl,
      request: {
        ...request,
        subjectName: subject!.name,
        studentName: student.username,
        createdAt: request.openedToAllAt!,
      },
    });
    return { detail: await getRequestDetail({ db: tx, studentId: student.id, requestId }), teacherIds: told };
  });
  realtime.toUsers(teacherIds, 'job:new', {
    requestId,
    subjectId: detail.request.subjectId,
    type: detail.request.type,
  });
  realtime.toUsers(teacherIds, 'notification:new', { kind: 'job', requestId });
  return detail;
}

/**
 * Marks unanswered every direct request still waiting 24 hours after it was sent with no bid from its tutor, and
 * tells each student they may open it to all; one statement claims the rows, so each student is told once.
 */
export async function markUnansweredDirectRequests({ db, publicUrl }: { db: Executor; publicUrl: string }) {
  const lapsed = await db
    .update(r)
    .set({ directState: 'unanswered' })
    .where(
      and(
        eq(r.directState, 'waiting'),
        sql`${r.createdAt} <= now() - make_interval(hours => ${DIRECT_ANSWER_HOURS})`,
        inArray(r.status, ['open', 'pending']),
        sql`not ${tutorHasBid}`,
      ),
    )
    .returning({ id: r.id, studentId: r.studentId, subjectId: r.subjectId, directTutorId: r.directTutorId });
  for (const request of lapsed) {
    const [names] = await db
      .select({
        subject: subjects.name,
        tutor: sql<
          string | null
        >`(select ${users.username} from ${users} where ${users.id} = ${request.directTutorId}::uuid)`,
      })
      .from(subjects)
      .where(eq(subjects.id, request.subjectId));
    const tutor = names?.tutor ?? 'The tutor';
    await createNotification({
      db,
      publicUrl,
      userId: request.studentId,
      message: `${tutor} has not answered your ${names?.subject ?? ''} request in ${DIRECT_ANSWER_HOURS} hours. ${OPEN_IT}`,
      link: paths.student.offers.getHref(request.id),
      email: { type: 'direct_request_update', sender: 'Virtual Help' },
    });
  }
  return lapsed.map((request) => request.studentId);
}

export const directAnswerJob = ({ publicUrl, realtime }: { publicUrl: string; realtime: Realtime }): IntervalJob => ({
  name: 'unanswered-direct-requests',
  // Once a minute (and at start), as the expiry job.
  intervalMs: REQUEST_EXPIRY_JOB_INTERVAL_MS,
  run: ({ db }) => markUnansweredDirectRequests({ db, publicUrl }),
  afterCommit: (studentIds) => {
    const told = [...new Set(studentIds as string[])];
    if (told.length > 0) realtime.toUsers(told, 'notification:new', { kind: 'general', requestId: null });
  },
});
