import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type Dispute, type DisputeEvidence, type JobRefunds } from '#shared/schemas/refunds.ts';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema/auth.ts';
import { chatRooms, messages } from '../../db/schema/chat.ts';
import { meetingJoins, meetings } from '../../db/schema/meetings.ts';
import { checkouts, refundRequests, type RefundRequest } from '../../db/schema/payments.ts';
import { tutorBids, tutoringRequests } from '../../db/schema/requests.ts';
import { subjects } from '../../db/schema/subjects.ts';
import { AppError } from '../../http/errors.ts';
import { jobPaymentState } from './job-payment-state.ts';
import { toRefundRequestView } from './refund-jobs.ts';

// What the job's people and the admins see of refunds (docs/decisions/0044).

/** What the job's student or tutor sees of its refunds: its money state, its sessions, and its latest request. */
export async function getJobRefunds({
  db,
  userId,
  requestId,
}: {
  db: Executor;
  userId: string;
  requestId: string;
}): Promise<JobRefunds> {
  const [job] = await db
    .select({
      type: tutoringRequests.type,
      studentId: tutoringRequests.studentId,
      tutorId: tutorBids.tutorId,
      deadline: tutoringRequests.deadline,
      deliveredAt: tutoringRequests.deliveredAt,
    })
    .from(tutoringRequests)
    .innerJoin(tutorBids, eq(tutorBids.id, tutoringRequests.acceptedBidId))
    .where(eq(tutoringRequests.id, requestId));
  if (!job || (job.studentId !== userId && job.tutorId !== userId)) throw new AppError('NOT_FOUND');
  const [checkout] = await db
    .select({ amountCents: checkouts.amountCents })
    .from(checkouts)
    .where(and(eq(checkouts.requestId, requestId), inArray(checkouts.status, ['awaiting_payment', 'paid'])));
  const sessions = await db
    .select({
      id: meetings.id,
      title: meetings.title,
      startTime: meetings.startTime,
      cancelledAt: meetings.cancelledAt,
      tutorJoinedAt: sql<string | null>`(select min(${meetingJoins.joinedAt}) from ${meetingJoins}
        where ${meetingJoins.meetingId} = ${meetings.id} and ${meetingJoins.userId} = ${job.tutorId})`,
    })
    .from(meetings)
    .where(eq(meetings.requestId, requestId))
    .orderBy(asc(meetings.startTime));
  const [latest] = await db
    .select()
    .from(refundRequests)
    .where(eq(refundRequests.requestId, requestId))
    .orderBy(desc(refundRequests.createdAt))
    .limit(1);
  return {
    requestId,
    type: job.type,
    paymentState: await jobPaymentState({ db, requestId }),
    amountCents: checkout?.amountCents ?? null,
    deadline: job.deadline?.toISOString() ?? null,
    deliveredAt: job.deliveredAt?.toISOString() ?? null,
    sessions: sessions.map((session) => ({
      id: session.id,
      title: session.title,
      startTime: session.startTime.toISOString(),
      cancelledAt: session.cancelledAt?.toISOString() ?? null,
      tutorJoinedAt: session.tutorJoinedAt ? new Date(session.tutorJoinedAt).toISOString() : null,
    })),
    latest: latest ? toRefundRequestView(latest) : null,
  };
}

/** Requests with their people's names and the job's subject, for admins. */
function disputeRows(db: Executor) {
  const student = alias(users, 'student');
  const tutor = alias(users, 'tutor');
  return db
    .select({
      row: refundRequests,
      studentName: student.username,
      tutorName: tutor.username,
      subjectName: subjects.name,
    })
    .from(refundRequests)
    .innerJoin(student, eq(student.id, refundRequests.studentId))
    .innerJoin(tutor, eq(tutor.id, refundRequests.tutorId))
    .innerJoin(tutoringRequests, eq(tutoringRequests.id, refundRequests.requestId))
    .innerJoin(subjects, eq(subjects.id, tutoringRequests.subjectId))
    .$dynamic();
}

const toDispute = ({
  row,
  ...names
}: {
  row: RefundRequest;
  studentName: string;
  tutorName: string;
  subjectName: string;
}): Dispute => ({
  ...toRefundRequestView(row),
  ...names,
});

/** The admins' queue: requests waiting for their decision (contested, or unanswered for 3 days), oldest first. */
export async function listDisputes({ db }: { db: Executor }) {
  const rows = await disputeRows(db)
    .where(eq(refundRequests.status, 'with_admins'))
    .orderBy(asc(refundRequests.createdAt))
    .limit(100);
  return rows.map(toDispute);
}

/** One request with its evidence: the job's deadline and delivered mark, each session's joins, the pair's chat. */
export async function getDisputeEvidence({
  db,
  refundRequestId,
}: {
  db: Executor;
  refundRequestId: string;
}): Promise<DisputeEvidence> {
  const [found] = await disputeRows(db).where(eq(refundRequests.id, refundRequestId));
  if (!found) throw new AppError('NOT_FOUND');
  const { row } = found;
  const [job] = await db
    .select({
      type: tutoringRequests.type,
      deadline: tutoringRequests.deadline,
      deliveredAt: tutoringRequests.deliveredAt,
    })
    .from(tutoringRequests)
    .where(eq(tutoringRequests.id, row.requestId));
  const sessions = await db
    .select()
    .from(meetings)
    .where(eq(meetings.requestId, row.requestId))
    .orderBy(asc(meetings.startTime));
  const joins = sessions.length
    ? await db
        .select()
        .from(meetingJoins)
        .where(
          inArray(
            meetingJoins.meetingId,
            sessions.map((session) => session.id),
          ),
        )
        .orderBy(asc(meetingJoins.joinedAt))
    : [];
  const chat = await db
    .select({ senderId: messages.senderId, content: messages.content, createdAt: messages.createdAt })
    .from(messages)
    .innerJoin(chatRooms, eq(chatRooms.id, messages.roomId))
    .where(
      sql`least(${chatRooms.participant1Id}, ${chatRooms.participant2Id}) = least(${row.studentId}::uuid, ${row.tutorId}::uuid)
        and greatest(${chatRooms.participant1Id}, ${chatRooms.participant2Id}) = greatest(${row.studentId}::uuid, ${row.tutorId}::uuid)`,
    )
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(50);
  return {
    dispute: toDispute(found),
    job: {
      type: job!.type,
      deadline: job!.deadline?.toISOString() ?? null,
      deliveredAt: job!.deliveredAt?.toISOString() ?? null,
    },
    sessions: sessions.map((session) => ({
      id: session.id,
      title: session.title,
      startTime: session.startTime.toISOString(),
      cancelledAt: session.cancelledAt?.toISOString() ?? null,
      joins: joins
        .filter((join) => join.meetingId === session.id)
        .map((join) => ({ userId: join.userId, joinedAt: join.joinedAt.toISOString() })),
    })),
    messages: chat.reverse().map((message) => ({ ...message, createdAt: message.createdAt.toISOString() })),
  };
}
