import { and, desc, eq, getTableColumns, inArray, isNull, notInArray, or, sql } from 'drizzle-orm';
import { REQUESTS_PAGE_SIZE } from '#shared/constants.ts';
import {
  DIRECT_TUTOR_MESSAGE,
  type CreateRequestInput,
  type MyRequestsPage,
  type RequestDetail,
} from '#shared/schemas/requests.ts';
import type { Database, Executor } from '../../db/client.ts';
import { users } from '../../db/schema/auth.ts';
import { tutorBids } from '../../db/schema/requests.ts';
import { subjects, teacherSpecializations } from '../../db/schema/subjects.ts';
import { cursorMicros, olderThan, toPage } from '../../db/keyset.ts';
import { AppError, fieldError } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import type { Upload } from '../../http/upload.ts';
import { claimStorage } from '../../platform/storage/quota.ts';
import type { Moderation } from '../moderation/service.ts';
import { holdSession } from '../../platform/sessions/hold-session.ts';
import { notifiedTeachersCount, notifyTeachersOfRequest } from '../notifications/service.ts';
import { withStoredAttachments } from './attachments.ts';
import {
  bidCount,
  CLOSED_STATUSES,
  cardColumns,
  closedProblem,
  hasBidFrom,
  isExpired,
  isNotExpired,
  notFound,
  openSince,
  reachesTeacher,
  outer,
  r,
  toCard,
} from './request-columns.ts';

// A student's requests: creating one (idempotent per key), listing, details, attachments.

export type CreateRequestOptions = {
  db: Database;
  storage: Storage;
  realtime: Realtime;
  moderation: Moderation;
  publicUrl: string;
  student: SessionUser;
  /** The session that posts it: a request whose session ended while its files came in is refused (401). */
  sessionId: string;
  input: CreateRequestInput;
  uploads: Upload[];
  /** The form's Idempotency-Key: a repeated submit answers with the request the first one made. */
  idempotencyKey?: string;
};

/** Raised inside the transaction when the key was used before: rolls back the new row and its files. */
class AlreadySubmitted extends Error {}

/** The request an earlier submit with this key made, as its card. */
async function submittedBefore(db: Executor, studentId: string, idempotencyKey: string) {
  const [row] = await db
    .select({
      ...getTableColumns(r),
      subjectName: subjects.name,
      directTutorName: cardColumns.directTutorName,
      openSince,
    })
    .from(r)
    .innerJoin(subjects, eq(subjects.id, r.subjectId))
    .where(and(eq(r.studentId, studentId), eq(r.idempotencyKey, idempotencyKey)));
  return row ? { request: toCard(row), notifiedCount: 0, replayed: true } : undefined;
}

/**
 * Posts a request (status open) and, in the same transaction, notifies every teacher of its subject (one
 * set-based insert) and queues their e-mails; `job:new` and `notification:new` reach them after the commit.
 */
export async function createRequest({
  db,
  storage,
  realtime,
  moderation,
  publicUrl,
  student,
  sessionId,
  input,
  uploads,
  idempotencyKey,
}: CreateRequestOptions) {
  if (idempotencyKey) {
    const earlier = await submittedBefore(db, student.id, idempotencyKey);
    if (earlier) return earlier;
  }
  const [subject] = await db.select({ name: subjects.name }).from(subjects).where(eq(subjects.id, input.subjectId));
  if (!subject) throw fieldError('subjectId', 'Unknown subject');
  const directTutorName = input.directTutorId
    ? await directTutorNameIfAllowed(db, input.directTutorId, input.subjectId)
    : null;
  // Teachers read all of it: the same rules as chat (no contact details, no abuse), before anything is stored.
  const texts: Array<[field: string, text: string | null | undefined]> = [
    ['description', input.description],
    ['topic', input.topic],
    ['requirements', input.requirements],
    ['schedule', input.schedule],
    ...uploads.map((upload): [string, string] => ['attachments', upload.filename]),
  ];
  for (const [field, text] of texts) {
    if (text) await moderation.assertAllowed({ text, field, senderId: student.id, roomId: null });
  }
  const store = () =>
    withStoredAttachments({ storage, uploads }, (attachments) =>
      db.transaction(async (tx) => {
        await holdSession({ db: tx, userId: student.id, sessionId });
        const [request] = await tx
          .insert(r)
          .values({
            type: input.type,
            subjectId: input.subjectId,
            description: input.description,
            budgetMinCents: input.budgetMinCents,
            budgetMaxCents: input.budgetMaxCents,
            studentId: student.id,
            deadline: input.deadline ? new Date(input.deadline) : null,
            level: input.level ?? null,
            topic: input.topic ?? null,
            requirements: input.requirements ?? null,
            schedule: input.schedule ?? null,
            supportType: input.supportType ?? null,
            attachments,
            idempotencyKey: idempotencyKey ?? null,
            directTutorId: input.directTutorId ?? null,
            directState: input.directTutorId ? 'waiting' : null,
          })
          // Two submits racing with one key: the second finds the first's row here, and gives way.
          .onConflictDoNothing()
          .returning();
        if (!request) throw new AlreadySubmitted();
        await claimStorage(
          tx,
          student.id,
          attachments.map((file) => ({ key: file.file_path, sizeBytes: file.file_size })),
          'attachments',
        );
        const teacherIds = await notifyTeachersOfRequest({
          db: tx,
          publicUrl,
          request: { ...request, subjectName: subject.name, studentName: student.username },
          onlyTeacherId: request.directTutorId,
        });
        return { request, teacherIds };
      }),
    );
  let created: Awaited<ReturnType<typeof store>>;
  try {
    created = await store();
  } catch (error) {
    const earlier = error instanceof AlreadySubmitted && (await submittedBefore(db, student.id, idempotencyKey!));
    if (earlier) return earlier;
    throw error;
  }
  const { request, teacherIds } = created;

  realtime.toUsers(teacherIds, 'job:new', { requestId: request.id, subjectId: request.subjectId, type: request.type });
  realtime.toUsers(teacherIds, 'notification:new', { kind: 'job', requestId: request.id });
  return {
    request: toCard({ ...request, subjectName: subject.name, directTutorName, openSince: request.createdAt }),
    notifiedCount: teacherIds.length,
    replayed: false,
  };
}

/**
 * A direct request goes only to a tutor who can take it: a teacher account (not the assistant), not suspended or leaving, who
 * teaches the request's subject. Anyone else is refused on the field, whatever the reason, so that the answer does
 * not tell suspended accounts from others.
 */
async function directTutorNameIfAllowed(db: Executor, tutorId: string, subjectId: string) {
  const [tutor] = await db
    .select({ username: users.username })
    .from(users)
    .innerJoin(
      teacherSpecializations,
      and(eq(teacherSpecializations.teacherId, users.id), eq(teacherSpecializations.subjectId, subjectId)),
    )
    .where(
      and(
        eq(users.id, tutorId),
        eq(users.role, 'teacher'),
        eq(users.isSystem, false),
        isNull(users.suspendedAt),
        isNull(users.deletionRequestedAt),
      ),
    );
  if (!tutor) throw fieldError('directTutorId', DIRECT_TUTOR_MESSAGE);
  return tutor.username;
}

/** The student's own requests, newest first, with subject name and bid count, a page at a time. */
export async function listMyRequests({
  db,
  studentId,
  status,
  cursor,
}: {
  db: Executor;
  studentId: string;
  status: 'live' | 'expired';
  cursor?: string;
}): Promise<MyRequestsPage> {
  // The two tabs split requests by the shared isClosedForDisplay rule.
  const tab =
    status === 'live'
      ? and(notInArray(r.status, CLOSED_STATUSES), isNotExpired)
      : or(inArray(r.status, CLOSED_STATUSES), isExpired);
  const rows = await db
    .select({ ...cardColumns, bidCount, cursorMicros: cursorMicros(r.createdAt) })
    .from(r)
    .innerJoin(subjects, eq(subjects.id, r.subjectId))
    .where(and(eq(r.studentId, studentId), tab, olderThan(r.createdAt, r.id, cursor)))
    .orderBy(desc(r.createdAt), desc(r.id))
    .limit(REQUESTS_PAGE_SIZE + 1);
  const { page, nextCursor } = toPage(rows, REQUESTS_PAGE_SIZE);
  return { requests: page.map(({ bidCount, cursorMicros: _, ...row }) => ({ ...toCard(row), bidCount })), nextCursor };
}

/** A request of this student (anyone else's: 404) with its offers summary and how many teachers were told. */
export async function getRequestDetail({
  db,
  studentId,
  requestId,
}: {
  db: Executor;
  studentId: string;
  requestId: string;
}): Promise<RequestDetail> {
  const bids = sql`from ${tutorBids} where ${tutorBids.requestId} = ${outer(r.id)}`;
  const [row] = await db
    .select({
      ...cardColumns,
      offerCount: sql<number>`(select count(*)::int ${bids})`,
      lowestCents: sql<number | null>`(select min(${tutorBids.amountCents}) ${bids})`,
      highestCents: sql<number | null>`(select max(${tutorBids.amountCents}) ${bids})`,
      notifiedCount: notifiedTeachersCount(outer(r.id)),
    })
    .from(r)
    .innerJoin(subjects, eq(subjects.id, r.subjectId))
    .where(and(eq(r.id, requestId), eq(r.studentId, studentId)));
  if (!row) throw notFound();
  const { offerCount, lowestCents, highestCents, notifiedCount, ...card } = row;
  return {
    request: toCard(card),
    offers: { count: offerCount, lowestCents, highestCents },
    notifiedCount,
  };
}

/**
 * One file of a request, for its student, for teachers who can see the job (it reaches them, open, not expired)
 * and for teachers who bid on it (they keep access once it is accepted or closed). Anyone else: 404.
 */
export async function getRequestAttachment({
  db,
  storage,
  user,
  requestId,
  index,
}: {
  db: Executor;
  storage: Storage;
  user: SessionUser;
  requestId: string;
  index: number;
}) {
  const [request] = await db
    .select({
      studentId: r.studentId,
      status: r.status,
      openSince,
      attachments: r.attachments,
      reachesTeacher: reachesTeacher(user.id),
      hasBid: hasBidFrom(user.id),
    })
    .from(r)
    .where(eq(r.id, requestId));
  const seesJob =
    request &&
    user.role === 'teacher' &&
    ((request.reachesTeacher && closedProblem(request) === null) || request.hasBid);
  const attachment = request && (request.studentId === user.id || seesJob) ? request.attachments[index] : undefined;
  if (!attachment) throw new AppError('NOT_FOUND');
  const file = await storage.get(attachment.file_path);
  if (!file) throw new AppError('NOT_FOUND');
  return { file, filename: attachment.original_filename };
}
