import { getTableName, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { OPEN_REQUEST_STATUSES, REQUEST_EXPIRY_HOURS, type RequestStatus } from '#shared/constants.ts';
import { isRequestExpired } from '#shared/rules/expiry.ts';
import { type RequestCard } from '#shared/schemas/requests.ts';
import { tutorBids, tutoringRequests, type TutoringRequest } from '../../db/schema/requests.ts';
import { subjects } from '../../db/schema/subjects.ts';
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

// Expiry in SQL, from the same constant as the shared isRequestExpired rule.
const expiredBefore = sql`now() - make_interval(hours => ${REQUEST_EXPIRY_HOURS})`;
export const isExpired = sql`${r.createdAt} <= ${expiredBefore}`;
export const isNotExpired = sql`${r.createdAt} > ${expiredBefore}`;
export const CLOSED_STATUSES: RequestStatus[] = ['completed', 'closed'];

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
};
type CardRow = Pick<TutoringRequest, Exclude<keyof typeof cardColumns, 'subjectName'>> & { subjectName: string };

export function toCard(row: CardRow): RequestCard {
  return {
    ...row,
    deadline: row.deadline?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    attachments: toAttachmentList(row.id, row.attachments),
  };
}

export const bidCount = sql<number>`(select count(*)::int from ${tutorBids} where ${tutorBids.requestId} = ${outer(r.id)})`;

/**
 * Why a request takes no more bids or acceptances, or null while it is open (or pending) and not expired. A request
 * held by a checkout does not expire until the checkout lapses (`heldByCheckout`).
 */
export function closedProblem(request: { status: RequestStatus; createdAt: Date }, { heldByCheckout = false } = {}) {
  if (request.status === 'accepted') return new AppError('OFFER_ALREADY_ACCEPTED');
  const open = (OPEN_REQUEST_STATUSES as readonly string[]).includes(request.status);
  if (!open || (!heldByCheckout && isRequestExpired(request.createdAt))) return new AppError('REQUEST_CLOSED');
  return null;
}
