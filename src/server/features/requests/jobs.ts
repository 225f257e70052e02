import { and, desc, eq, sql } from 'drizzle-orm';
import { JOBS_PAGE_SIZE, type RequestType } from '#shared/constants.ts';
import { bidRangeMessage, isBidInRange } from '#shared/rules/budget.ts';
import { type Bid, type Job, type JobsPage, type PlaceBidInput } from '#shared/schemas/requests.ts';
import type { Database, Executor } from '../../db/client.ts';
import { tutorBids } from '../../db/schema/requests.ts';
import { subjects } from '../../db/schema/subjects.ts';
import { cursorMicros, olderThan, toPage } from '../../db/keyset.ts';
import { AppError, fieldError } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import { enforceUserLimit } from '../../platform/limits/usage-limits.ts';
import type { Moderation } from '../moderation/service.ts';
import { notifyStudentOfBid } from '../notifications/service.ts';
import { refreshResponseMinutes } from '../tutors/service.ts';
import {
  cardColumns,
  hasBidFrom,
  isNotExpired,
  lockRequestForTeacher,
  openSince,
  r,
  reachesTeacher,
  toCard,
} from './request-columns.ts';

// The jobs a teacher sees and the bids placed on them.

// The jobs a teacher sees: open, not expired, and reaching them (their subjects, or sent to them directly).
function visibleJobs({ teacherId, subjectId }: { teacherId: string; subjectId?: string }) {
  return and(
    eq(r.status, 'open'),
    isNotExpired,
    reachesTeacher(teacherId),
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
    // Inside the page subquery, a computed column needs a name.
    directTutorName: cardColumns.directTutorName.as('direct_tutor_name'),
    openSince: openSince.as('open_since'),
    attachmentCount: sql<number>`jsonb_array_length(${r.attachments})`.as('attachment_count'),
    alreadyBid: hasBidFrom(teacherId).as('already_bid'),
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
      const { acceptedBidId: __, direct, ...card } = toCard(row);
      return { ...card, direct: directAsTutorSees(direct, teacherId), attachmentCount, alreadyBid };
    }),
    nextCursor,
    counts: rows[0]!.counts,
  };
}

/**
 * What a tutor reads of a request's being sent to one tutor: that it was sent to them, while it waits for them. Once it
 * is opened to all, the other tutors learn neither whom it was sent to nor the reason that tutor gave the student.
 */
function directAsTutorSees(direct: Job['direct'], teacherId: string): Job['direct'] {
  return direct?.tutorId === teacherId ? { ...direct, declineReason: null } : null;
}

/**
 * A teacher's bid on a job that reaches them (else 404): the request row is share-locked so an acceptance
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
    const request = await lockRequestForTeacher(tx, { requestId, teacherId: teacher.id, lock: 'share' });
    const budget = { minCents: request.budgetMinCents, maxCents: request.budgetMaxCents };
    if (!isBidInRange(input.amountCents, budget)) throw fieldError('amountCents', bidRangeMessage(budget));

    const [bid] = await tx
      .insert(tutorBids)
      .values({ requestId, tutorId: teacher.id, amountCents: input.amountCents, message: input.message })
      .onConflictDoNothing({ target: [tutorBids.requestId, tutorBids.tutorId] })
      .returning();
    if (!bid) throw new AppError('ALREADY_BID');
    await refreshResponseMinutes(tx, teacher.id);
    await notifyStudentOfBid({
      db: tx,
      publicUrl,
      bid: {
        studentId: request.studentId,
        requestId,
        subjectName: request.subjectName,
        tutor: teacher,
        amountCents: bid.amountCents,
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
    amountCents: bid.amountCents,
    message: bid.message,
    status: bid.status,
    createdAt: bid.createdAt.toISOString(),
  };
}
