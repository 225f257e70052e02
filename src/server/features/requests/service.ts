import { and, desc, eq, getTableColumns, getTableName, inArray, notInArray, or, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  JOBS_PAGE_SIZE,
  OPEN_REQUEST_STATUSES,
  REQUEST_EXPIRY_HOURS,
  REQUEST_EXPIRY_JOB_INTERVAL_MS,
  REQUESTS_PAGE_SIZE,
  type RequestStatus,
  type RequestType,
} from '#shared/constants.ts';
import { bidRangeMessage, formatAmount, isBidInRange } from '#shared/rules/budget.ts';
import { isRequestExpired } from '#shared/rules/expiry.ts';
import {
  type AcceptBidResponse,
  type Bid,
  type CreateRequestInput,
  type Job,
  type JobsPage,
  type MyRequestsPage,
  type Offer,
  type PlaceBidInput,
  type RequestCard,
  type RequestDetail,
} from '#shared/schemas/requests.ts';
import type { Database, Executor } from '../../db/client.ts';
import { users } from '../../db/schema/auth.ts';
import { tutorBids, tutoringRequests, type TutoringRequest } from '../../db/schema/requests.ts';
import { subjects, teacherSpecializations } from '../../db/schema/subjects.ts';
import { cursorMicros, olderThan, toPage } from '../../db/keyset.ts';
import { AppError, fieldError } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import type { IntervalJob } from '../../platform/jobs/interval-jobs.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import type { Upload } from '../../platform/storage/upload.ts';
import { findOrCreateRoom } from '../chat/service.ts';
import { enforceUserLimit } from '../../platform/limits/usage-limits.ts';
import { assertStorageLeft, recordStoredFiles } from '../../platform/storage/quota.ts';
import type { Moderation } from '../moderation/moderation.ts';
import {
  createNotification,
  notifiedTeachersCount,
  notifyStudentOfBid,
  notifyTeachersOfRequest,
} from '../notifications/service.ts';
import { toAttachmentList, withStoredAttachments } from './attachments.ts';
import { paths } from '#shared/paths.ts';

// Requests, offers, jobs and bids (SPEC.md §2 My Requests / Offers / Jobs, §4 request states). Mutations run in
// one transaction each and publish their realtime events after it commits.

const r = tutoringRequests;

/**
 * A column of the outer query inside a correlated subquery, always table-qualified: drizzle leaves columns of a
 * single-table select unqualified, and an unqualified "id" in a subquery would bind to the subquery's own table.
 */
const outer = (column: AnyPgColumn) =>
  sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;

// Expiry in SQL, from the same constant as the shared isRequestExpired rule.
const expiredBefore = sql`now() - make_interval(hours => ${REQUEST_EXPIRY_HOURS})`;
const isExpired = sql`${r.createdAt} <= ${expiredBefore}`;
const isNotExpired = sql`${r.createdAt} > ${expiredBefore}`;
const CLOSED_STATUSES: RequestStatus[] = ['completed', 'closed'];

const notFound = () => new AppError('NOT_FOUND', { message: 'Request not found' });

// The columns of a request card, with its subject's name.
const cardColumns = {
  id: r.id,
  type: r.type,
  subjectId: r.subjectId,
  subjectName: subjects.name,
  description: r.description,
  budgetMin: r.budgetMin,
  budgetMax: r.budgetMax,
  status: r.status,
  deadline: r.deadline,
  level: r.level,
  topic: r.topic,
  requirements: r.requirements,
  schedule: r.schedule,
  supportType: r.supportType,
  attachments: r.attachments,
  acceptedBidId: r.acceptedBidId,
  createdAt: r.createdAt,
};
type CardRow = Pick<TutoringRequest, Exclude<keyof typeof cardColumns, 'subjectName'>> & { subjectName: string };

function toCard(row: CardRow): RequestCard {
  return {
    ...row,
    deadline: row.deadline?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    attachments: toAttachmentList(row.id, row.attachments),
  };
}

const bidCount = sql<number>`(select count(*)::int from ${tutorBids} where ${tutorBids.requestId} = ${outer(r.id)})`;

export type CreateRequestOptions = {
  db: Database;
  storage: Storage;
  realtime: Realtime;
  moderation: Moderation;
  publicUrl: string;
  student: SessionUser;
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
    .select({ ...getTableColumns(r), subjectName: subjects.name })
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
  const incomingBytes = uploads.reduce((sum, upload) => sum + upload.size, 0);
  if (incomingBytes > 0) await assertStorageLeft(db, student.id, incomingBytes, 'attachments');

  const store = () =>
    withStoredAttachments({ storage, uploads }, (attachments) =>
      db.transaction(async (tx) => {
        const [request] = await tx
          .insert(r)
          .values({
            type: input.type,
            subjectId: input.subjectId,
            description: input.description,
            budgetMin: input.budgetMin,
            budgetMax: input.budgetMax,
            studentId: student.id,
            deadline: input.deadline ? new Date(input.deadline) : null,
            level: input.level ?? null,
            topic: input.topic ?? null,
            requirements: input.requirements ?? null,
            schedule: input.schedule ?? null,
            supportType: input.supportType ?? null,
            attachments,
            idempotencyKey: idempotencyKey ?? null,
          })
          // Two submits racing with one key: the second finds the first's row here, and gives way.
          .onConflictDoNothing()
          .returning();
        if (!request) throw new AlreadySubmitted();
        await recordStoredFiles(
          tx,
          attachments.map((file) => ({ key: file.file_path, ownerId: student.id, sizeBytes: file.file_size })),
        );
        const teacherIds = await notifyTeachersOfRequest({
          db: tx,
          publicUrl,
          request: { ...request!, subjectName: subject.name, studentName: student.username },
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
    request: toCard({ ...request, subjectName: subject.name }),
    notifiedCount: teacherIds.length,
    replayed: false,
  };
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
      lowest: sql<number | null>`(select min(${tutorBids.amount}) ${bids})`,
      highest: sql<number | null>`(select max(${tutorBids.amount}) ${bids})`,
      notifiedCount: notifiedTeachersCount(outer(r.id)),
    })
    .from(r)
    .innerJoin(subjects, eq(subjects.id, r.subjectId))
    .where(and(eq(r.id, requestId), eq(r.studentId, studentId)));
  if (!row) throw notFound();
  const { offerCount, lowest, highest, notifiedCount, ...card } = row;
  const money = (value: number | null) => (value === null ? null : Number(value));
  return {
    request: toCard(card),
    offers: { count: offerCount, lowest: money(lowest), highest: money(highest) },
    notifiedCount,
  };
}

/** How many offers one request lists at most; the tutors of one subject bound it in practice. */
const OFFERS_LIMIT = 200;

/** The offers on a request of this student with each tutor's public profile, newest first (anyone else's request: 404). */
export async function listOffers({
  db,
  studentId,
  requestId,
}: {
  db: Executor;
  studentId: string;
  requestId: string;
}): Promise<Offer[]> {
  // One query: the request row (owned or nothing) left-joined to its bids and their tutors.
  const rows = await db
    .select({
      id: tutorBids.id,
      tutorId: tutorBids.tutorId,
      username: users.username,
      image: users.image,
      vhNumber: users.vhNumber,
      amount: tutorBids.amount,
      message: tutorBids.message,
      status: tutorBids.status,
      createdAt: tutorBids.createdAt,
    })
    .from(r)
    .leftJoin(tutorBids, eq(tutorBids.requestId, r.id))
    .leftJoin(users, eq(users.id, tutorBids.tutorId))
    .where(and(eq(r.id, requestId), eq(r.studentId, studentId)))
    .orderBy(desc(tutorBids.createdAt), desc(tutorBids.id))
    .limit(OFFERS_LIMIT);
  if (rows.length === 0) throw notFound();
  return rows.flatMap((row) =>
    row.id === null
      ? []
      : [
          {
            ...row,
            id: row.id,
            tutorId: row.tutorId!,
            username: row.username!,
            vhNumber: row.vhNumber!,
            amount: row.amount!,
            status: row.status!,
            createdAt: row.createdAt!.toISOString(),
          },
        ],
  );
}

/** Why a request takes no more bids or acceptances, or null while it is open (or pending) and not expired. */
function closedProblem(request: { status: RequestStatus; createdAt: Date }) {
  if (request.status === 'accepted') return new AppError('OFFER_ALREADY_ACCEPTED');
  const open = (OPEN_REQUEST_STATUSES as readonly string[]).includes(request.status);
  if (!open || isRequestExpired(request.createdAt)) return new AppError('REQUEST_CLOSED');
  return null;
}

/**
 * Accepts one offer: the request row is locked (select … for update), so of two acceptances of different offers
 * (two tabs) the second waits, then finds the request accepted and gets a 409; the partial unique index on
 * accepted bids backs this up. Accepting the offer that is already accepted answers the same again (a retry).
 * Opens the chat room with the tutor and notifies the tutor (in-app, mail, then realtime).
 */
export async function acceptBid({
  db,
  realtime,
  publicUrl,
  student,
  requestId,
  bidId,
}: {
  db: Database;
  realtime: Realtime;
  publicUrl: string;
  student: SessionUser;
  requestId: string;
  bidId: string;
}): Promise<AcceptBidResponse> {
  const { response, newlyAccepted, roomCreated } = await db.transaction(async (tx) => {
    const [request] = await tx
      .select({
        studentId: r.studentId,
        status: r.status,
        createdAt: r.createdAt,
        acceptedBidId: r.acceptedBidId,
        subjectName: subjects.name,
      })
      .from(r)
      .innerJoin(subjects, eq(subjects.id, r.subjectId))
      .where(eq(r.id, requestId))
      .for('update', { of: r });
    if (!request || request.studentId !== student.id) throw notFound();
    const [bid] = await tx
      .select({ tutorId: tutorBids.tutorId, amount: tutorBids.amount })
      .from(tutorBids)
      .where(and(eq(tutorBids.id, bidId), eq(tutorBids.requestId, requestId)));
    if (!bid) throw new AppError('NOT_FOUND', { message: 'Offer not found' });

    const retry = request.acceptedBidId === bidId;
    if (!retry) {
      const problem = closedProblem(request);
      if (problem) throw problem;
      await tx.update(tutorBids).set({ status: 'accepted' }).where(eq(tutorBids.id, bidId));
      await tx.update(r).set({ status: 'accepted', acceptedBidId: bidId }).where(eq(r.id, requestId));
    }
    const { room, created: roomCreated } = await findOrCreateRoom({
      db: tx,
      userAId: student.id,
      userBId: bid.tutorId,
    });
    if (!retry) {
      await createNotification({
        db: tx,
        publicUrl,
        userId: bid.tutorId,
        message: `${student.username} accepted your offer of ${formatAmount(bid.amount)} on their ${request.subjectName} request. You can now chat with them.`,
        link: paths.chat.getHref(),
        email: { type: 'offer_accepted', sender: student.username },
      });
    }
    return {
      response: { requestId, bidId, tutorId: bid.tutorId, roomId: room.id },
      newlyAccepted: !retry,
      roomCreated,
    };
  });
  if (newlyAccepted) realtime.toUsers([response.tutorId], 'notification:new', { kind: 'general', requestId: null });
  if (roomCreated) realtime.toUsers([student.id, response.tutorId], 'room:updated', { roomId: response.roomId });
  return response;
}

// The jobs a teacher sees: open, not expired, in one of the teacher's subjects (served by the partial index
// on open requests by subject and time).
function visibleJobs({ teacherId, subjectId }: { teacherId: string; subjectId?: string }) {
  return and(
    eq(r.status, 'open'),
    isNotExpired,
    inArray(
      r.subjectId,
      sql`(select ${teacherSpecializations.subjectId} from ${teacherSpecializations} where ${teacherSpecializations.teacherId} = ${teacherId})`,
    ),
    subjectId ? eq(r.subjectId, subjectId) : undefined,
  );
}

/**
 * A page of jobs for the teacher, newest first, with the tab counts for the subject filter (all / tutoring /
 * assignment, whatever the type filter and page) in the same statement: the counts row left-joined to the page.
 */
export async function listJobs({
  db,
  teacherId,
  subjectId,
  type,
  cursor,
}: {
  db: Executor;
  teacherId: string;
  subjectId?: string;
  type?: RequestType;
  cursor?: string;
}): Promise<JobsPage> {
  const visible = visibleJobs({ teacherId, subjectId });
  const counts = db
    .select({
      all: sql<number>`count(*)::int`.as('count_all'),
      tutoring: sql<number>`(count(*) filter (where ${r.type} = 'tutoring'))::int`.as('count_tutoring'),
      assignment: sql<number>`(count(*) filter (where ${r.type} = 'assignment'))::int`.as('count_assignment'),
    })
    .from(r)
    .where(visible)
    .as('counts');
  const jobColumns = {
    ...cardColumns,
    attachmentCount: sql<number>`jsonb_array_length(${r.attachments})`.as('attachment_count'),
    alreadyBid:
      sql<boolean>`exists (select 1 from ${tutorBids} where ${tutorBids.requestId} = ${outer(r.id)} and ${tutorBids.tutorId} = ${teacherId})`.as(
        'already_bid',
      ),
    cursorMicros: cursorMicros(r.createdAt).as('cursor_micros'),
  };
  const page = db
    .select(jobColumns)
    .from(r)
    .innerJoin(subjects, eq(subjects.id, r.subjectId))
    .where(and(visible, type ? eq(r.type, type) : undefined, olderThan(r.createdAt, r.id, cursor)))
    .orderBy(desc(r.createdAt), desc(r.id))
    .limit(JOBS_PAGE_SIZE + 1)
    .as('page');
  const rows = await db
    .select({
      counts: { all: counts.all, tutoring: counts.tutoring, assignment: counts.assignment },
      job: Object.fromEntries(Object.keys(jobColumns).map((key) => [key, page[key as keyof typeof jobColumns]])) as {
        [K in keyof typeof jobColumns]: (typeof page)[K];
      },
    })
    .from(counts)
    .leftJoin(page, sql`true`)
    .orderBy(desc(page.createdAt), desc(page.id));
  // With no job on the page, the one row holds the counts and a job of nulls.
  const jobs = rows.flatMap((row) => (row.job?.id ? [row.job] : []));
  const { page: pageRows, nextCursor } = toPage(jobs, JOBS_PAGE_SIZE);
  return {
    jobs: pageRows.map(({ cursorMicros: _, attachmentCount, alreadyBid, ...row }): Job => {
      const { acceptedBidId: __, ...card } = toCard(row);
      return { ...card, attachmentCount, alreadyBid };
    }),
    nextCursor,
    counts: rows[0]!.counts,
  };
}

/**
 * A teacher's bid on a job in one of their subjects (else 404): the request row is share-locked so an acceptance
 * cannot slip in between the checks and the insert; the amount must fit the budget; one bid per teacher and
 * request is the unique constraint's job (of two simultaneous bids one inserts, the other gets 409 ALREADY_BID).
 * The student gets an offer notification (in-app, mail, then realtime).
 */
export async function placeBid({
  db,
  realtime,
  moderation,
  publicUrl,
  teacher,
  requestId,
  input,
}: {
  db: Database;
  realtime: Realtime;
  moderation: Moderation;
  publicUrl: string;
  teacher: SessionUser;
  requestId: string;
  input: PlaceBidInput;
}): Promise<Bid> {
  await enforceUserLimit(db, teacher.id, 'bids');
  if (input.message) {
    await moderation.assertAllowed({ text: input.message, field: 'message', senderId: teacher.id, roomId: null });
  }
  const bid = await db.transaction(async (tx) => {
    const [request] = await tx
      .select({
        studentId: r.studentId,
        status: r.status,
        createdAt: r.createdAt,
        budgetMin: r.budgetMin,
        budgetMax: r.budgetMax,
        subjectName: subjects.name,
        teachesSubject: sql<boolean>`exists (select 1 from ${teacherSpecializations} where ${teacherSpecializations.teacherId} = ${teacher.id} and ${teacherSpecializations.subjectId} = ${outer(r.subjectId)})`,
      })
      .from(r)
      .innerJoin(subjects, eq(subjects.id, r.subjectId))
      .where(eq(r.id, requestId))
      .for('share', { of: r });
    if (!request?.teachesSubject) throw notFound();
    const problem = closedProblem(request);
    if (problem) throw problem;
    const budget = { min: request.budgetMin, max: request.budgetMax };
    if (!isBidInRange(input.amount, budget)) throw fieldError('amount', bidRangeMessage(budget));

    const [bid] = await tx
      .insert(tutorBids)
      .values({ requestId, tutorId: teacher.id, amount: input.amount, message: input.message })
      .onConflictDoNothing({ target: [tutorBids.requestId, tutorBids.tutorId] })
      .returning();
    if (!bid) throw new AppError('ALREADY_BID');
    await notifyStudentOfBid({
      db: tx,
      publicUrl,
      bid: {
        studentId: request.studentId,
        requestId,
        subjectName: request.subjectName,
        tutor: teacher,
        amount: bid.amount,
        message: bid.message,
        createdAt: bid.createdAt,
      },
    });
    return { ...bid, studentId: request.studentId };
  });
  realtime.toUsers([bid.studentId], 'notification:new', { kind: 'offer', requestId });
  return {
    id: bid.id,
    requestId,
    amount: bid.amount,
    message: bid.message,
    status: bid.status,
    createdAt: bid.createdAt.toISOString(),
  };
}

/**
 * One file of a request, for its student, for teachers who can see the job (their subject, open, not expired)
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
      createdAt: r.createdAt,
      attachments: r.attachments,
      teachesSubject: sql<boolean>`exists (select 1 from ${teacherSpecializations} where ${teacherSpecializations.teacherId} = ${user.id} and ${teacherSpecializations.subjectId} = ${outer(r.subjectId)})`,
      hasBid: sql<boolean>`exists (select 1 from ${tutorBids} where ${tutorBids.requestId} = ${outer(r.id)} and ${tutorBids.tutorId} = ${user.id})`,
    })
    .from(r)
    .where(eq(r.id, requestId));
  const seesJob =
    request &&
    user.role === 'teacher' &&
    ((request.teachesSubject && closedProblem(request) === null) || request.hasBid);
  const attachment = request && (request.studentId === user.id || seesJob) ? request.attachments[index] : undefined;
  if (!attachment) throw new AppError('NOT_FOUND');
  const file = await storage.get(attachment.file_path);
  if (!file) throw new AppError('NOT_FOUND');
  return { file, filename: attachment.original_filename };
}

/** Closes every open (or pending) request older than 48 hours, in one update; returns how many. */
export async function closeExpiredRequests({ db }: { db: Executor }) {
  const result = await db
    .update(r)
    .set({ status: 'closed' })
    .where(and(inArray(r.status, [...OPEN_REQUEST_STATUSES]), isExpired));
  return result.rowCount ?? 0;
}

export const requestExpiryJob: IntervalJob = {
  name: 'close-expired-requests',
  intervalMs: REQUEST_EXPIRY_JOB_INTERVAL_MS,
  run: closeExpiredRequests,
};
