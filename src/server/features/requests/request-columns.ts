import { eq, getTableName, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { OPEN_REQUEST_STATUSES, REQUEST_EXPIRY_HOURS, type RequestStatus } from '#shared/constants.ts';
import { isRequestExpired } from '#shared/rules/expiry.ts';
import { type RequestCard } from '#shared/schemas/requests.ts';
import { requestOpenSince, tutorBids, tutoringRequests, type TutoringRequest } from '../../db/schema/requests.ts';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema/auth.ts';
import { subjects, teacherSpecializations } from '../../db/schema/subjects.ts';
import { AppError } from '../../http/errors.ts';
import { toAttachmentList } from './attachments.ts';

// The column sets and conditions every request query shares: the card's columns, expiry in SQL, bid counts.

export const r = tutoringRequests;

/**
 * A column of the outer query inside a correlated subquery, always table-qualified: drizzle leaves columns of a
 * single-table select unqualified, and an unqualified "id" in a subquery would bind to the subquery's own table.
 */
export const outer = (column: AnyPgColumn) =>
  sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;

export const openSince = requestOpenSince;

// Expiry in SQL, from the same constant as the shared isRequestExpired rule.
const expiredBefore = sql`now() - make_interval(hours => ${REQUEST_EXPIRY_HOURS})`;
export const isExpired = sql`${openSince} <= ${expiredBefore}`;
export const isNotExpired = sql`${openSince} > ${expiredBefore}`;
export const CLOSED_STATUSES: RequestStatus[] = ['completed', 'closed'];

/** Whether a request was sent to this teacher directly and still waits for their answer. */
const awaitsAnswerFrom = (teacherId: string) =>
  sql<boolean>`(${r.directTutorId} = ${teacherId} and ${r.directState} in ('waiting', 'unanswered'))`;

/**
 * Whether a request reaches this teacher, whatever its status (docs/decisions/0061): a request posted to all (or a
 * direct one opened to all) reaches the teachers of its subject, except a direct tutor who declined it; a direct one
 * reaches only its tutor, until they decline it or it is opened to all.
 */
export const reachesTeacher = (teacherId: string) => sql<boolean>`(
  ((${r.directState} is null or ${r.directState} = 'opened')
    and ${r.subjectId} in (select ${teacherSpecializations.subjectId} from ${teacherSpecializations} where ${teacherSpecializations.teacherId} = ${teacherId})
    and (${r.directDeclinedAt} is null or ${r.directTutorId} is distinct from ${teacherId}))
  or ${awaitsAnswerFrom(teacherId)})`;

/** Whether this teacher has a bid on the request. */
export const hasBidFrom = (teacherId: string) =>
  sql<boolean>`exists (select 1 from ${tutorBids} where ${tutorBids.requestId} = ${outer(r.id)} and ${tutorBids.tutorId} = ${teacherId})`;

export const notFound = () => new AppError('NOT_FOUND', { message: 'Request not found' });

// The columns of a request card, with its subject's name.
export const cardColumns = {
  id: r.id,
  type: r.type,
  subjectId: r.subjectId,
  subjectName: subjects.name,
  description: r.description,
  budgetMinCents: r.budgetMinCents,
  budgetMaxCents: r.budgetMaxCents,
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
  openSince,
  directTutorId: r.directTutorId,
  directTutorName: sql<
    string | null
  >`(select ${users.username} from ${users} where ${users.id} = ${outer(r.directTutorId)})`,
  directState: r.directState,
  directDeclineReason: r.directDeclineReason,
};
type CardRow = Pick<
  TutoringRequest,
  Exclude<keyof typeof cardColumns, 'subjectName' | 'directTutorName' | 'openSince'>
> & {
  subjectName: string;
  openSince: Date;
  directTutorName?: string | null;
};

export function toCard({
  directTutorId,
  directTutorName,
  directState,
  directDeclineReason,
  ...row
}: CardRow): RequestCard {
  return {
    ...row,
    deadline: row.deadline?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    openSince: row.openSince.toISOString(),
    attachments: toAttachmentList(row.id, row.attachments),
    direct: directState
      ? {
          tutorId: directTutorId,
          tutorName: directTutorName ?? null,
          state: directState,
          declineReason: directDeclineReason,
        }
      : null,
  };
}

export const bidCount = sql<number>`(select count(*)::int from ${tutorBids} where ${tutorBids.requestId} = ${outer(r.id)})`;

/**
 * Why a request takes no more bids or acceptances, or null while it is open (or pending) and not expired. A request
 * held by a checkout does not expire until the checkout lapses (`heldByCheckout`).
 */
export function closedProblem(request: { status: RequestStatus; openSince: Date }, { heldByCheckout = false } = {}) {
  if (request.status === 'accepted') return new AppError('OFFER_ALREADY_ACCEPTED');
  const open = (OPEN_REQUEST_STATUSES as readonly string[]).includes(request.status);
  if (!open || (!heldByCheckout && isRequestExpired(request.openSince))) return new AppError('REQUEST_CLOSED');
  return null;
}

/**
 * A request as the teacher answering it sees it, with its subject, in a transaction: row-locked (`share` for a bid,
 * which an acceptance must not slip past; `update` to change the request itself), 404 unless it reaches them (with
 * `directOnly`, unless it was sent to them and waits for their answer), and refused once closed or expired.
 */
export async function lockRequestForTeacher(
  tx: Executor,
  {
    requestId,
    teacherId,
    lock,
    directOnly = false,
  }: { requestId: string; teacherId: string; lock: 'share' | 'update'; directOnly?: boolean },
) {
  const [request] = await tx
    .select({
      studentId: r.studentId,
      status: r.status,
      openSince,
      budgetMinCents: r.budgetMinCents,
      budgetMaxCents: r.budgetMaxCents,
      subjectName: subjects.name,
      hasBid: hasBidFrom(teacherId),
      reachesTeacher: directOnly ? awaitsAnswerFrom(teacherId) : reachesTeacher(teacherId),
    })
    .from(r)
    .innerJoin(subjects, eq(subjects.id, r.subjectId))
    .where(eq(r.id, requestId))
    .for(lock, { of: r });
  if (!request?.reachesTeacher) throw notFound();
  const problem = closedProblem(request);
  if (problem) throw problem;
  return request;
}
