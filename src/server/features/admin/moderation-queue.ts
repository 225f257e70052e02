import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { FlagStatus, ReportStatus } from '#shared/constants.ts';
import {
  adminMessages,
  type AdminFlag,
  type AdminFlagsPage,
  type AdminListOrder,
  type AdminReport,
  type AdminReportsPage,
  type DecideFlagInput,
  type DecideReportInput,
} from '#shared/schemas/admin.ts';
import type { Database, Executor } from '../../db/client.ts';
import { cursorMicros, keysetOrderBy, pastCursor, toPage } from '../../db/keyset.ts';
import { users } from '../../db/schema/auth.ts';
import { illegalContentFlags, userReports } from '../../db/schema/moderation.ts';
import { AppError } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { recordAdminAction } from './audit.ts';

// Report Management and Illegal Content: the reports and flags admins decide, with who decided, when and why.

const PAGE_SIZE = 25;
/** Reports in these states can still be decided; a decision is final (the audit log keeps it). */
const OPEN_REPORT_STATUSES = ['pending', 'reviewed'] as const;

type Actor = Pick<SessionUser, 'id' | 'username'>;
type ListOptions<S> = { db: Executor; status?: S; order: AdminListOrder; cursor?: string };

const decider = alias(users, 'decider');
const userRefOf = (row: { id: string | null; username: string | null }) =>
  row.id && row.username ? { id: row.id, username: row.username } : null;
const decisionOf = (row: {
  deciderId: string | null;
  deciderName: string | null;
  decidedAt: Date | null;
  decisionNote: string | null;
}) => ({
  decidedBy: userRefOf({ id: row.deciderId, username: row.deciderName }),
  decidedAt: row.decidedAt?.toISOString() ?? null,
  decisionNote: row.decisionNote,
});

// Reports.

const reporter = alias(users, 'reporter');
const reported = alias(users, 'reported');

function selectReports(db: Executor, where: SQL | undefined, order: AdminListOrder, limit: number) {
  return db
    .select({
      id: userReports.id,
      reporterId: reporter.id,
      reporterName: reporter.username,
      reportedId: reported.id,
      reportedName: reported.username,
      reason: userReports.reason,
      description: userReports.description,
      status: userReports.status,
      createdAt: userReports.createdAt,
      deciderId: decider.id,
      deciderName: decider.username,
      decidedAt: userReports.decidedAt,
      decisionNote: userReports.decisionNote,
      cursorMicros: cursorMicros(userReports.createdAt),
    })
    .from(userReports)
    .innerJoin(reported, eq(reported.id, userReports.reportedUserId))
    .leftJoin(reporter, eq(reporter.id, userReports.reporterId))
    .leftJoin(decider, eq(decider.id, userReports.decidedBy))
    .where(where)
    .orderBy(...keysetOrderBy(userReports.createdAt, userReports.id, order))
    .limit(limit);
}

const toAdminReport = (row: Awaited<ReturnType<typeof selectReports>>[number]): AdminReport => ({
  id: row.id,
  reporter: userRefOf({ id: row.reporterId, username: row.reporterName }),
  reportedUser: { id: row.reportedId, username: row.reportedName },
  reason: row.reason,
  description: row.description,
  status: row.status,
  createdAt: row.createdAt.toISOString(),
  ...decisionOf(row),
});

/** Report Management: one page of user reports, newest first unless asked otherwise. */
export async function listReports({ db, status, order, cursor }: ListOptions<ReportStatus>): Promise<AdminReportsPage> {
  const where = and(
    status ? eq(userReports.status, status) : undefined,
    pastCursor(userReports.createdAt, userReports.id, cursor, order),
  );
  const { page, nextCursor } = toPage(await selectReports(db, where, order, PAGE_SIZE + 1), PAGE_SIZE);
  return { items: page.map(toAdminReport), nextCursor };
}

/** Reports made by or about one user, newest first (the user page). */
export async function listReportsOfUser({ db, userId }: { db: Executor; userId: string }) {
  const rows = await selectReports(
    db,
    sql`${userReports.reporterId} = ${userId} or ${userReports.reportedUserId} = ${userId}`,
    'newest',
    PAGE_SIZE,
  );
  return rows.map(toAdminReport);
}

/** Resolves or dismisses a pending report with a note: 404 unknown, 403 about the admin, 409 already decided. */
export async function decideReport({
  db,
  actor,
  reportId,
  input,
}: {
  db: Database;
  actor: Actor;
  reportId: string;
  input: DecideReportInput;
}): Promise<AdminReport> {
  await db.transaction(async (tx) => {
    const [report] = await tx
      .select({ status: userReports.status, reportedUserId: userReports.reportedUserId })
      .from(userReports)
      .where(eq(userReports.id, reportId))
      .for('update');
    if (!report) throw new AppError('NOT_FOUND');
    if (report.reportedUserId === actor.id) throw new AppError('FORBIDDEN', { message: adminMessages.ownReport });
    const before = { status: report.status };
    const [after] = await tx
      .update(userReports)
      .set({ status: input.status, decidedBy: actor.id, decidedAt: new Date(), decisionNote: input.note })
      .where(and(eq(userReports.id, reportId), inArray(userReports.status, OPEN_REPORT_STATUSES)))
      .returning({ status: userReports.status, decisionNote: userReports.decisionNote });
    if (!after) throw new AppError('CONFLICT', { message: adminMessages.alreadyDecided });
    await recordAdminAction(tx, {
      actor,
      action: input.status === 'resolved' ? 'report.resolve' : 'report.dismiss',
      objectType: 'user_report',
      objectId: reportId,
      before,
      after,
    });
  });
  const [row] = await selectReports(db, eq(userReports.id, reportId), 'newest', 1);
  return toAdminReport(row!);
}

// Illegal-content flags.

const sender = alias(users, 'sender');

function selectFlags(db: Executor, where: SQL | undefined, order: AdminListOrder, limit: number) {
  return db
    .select({
      id: illegalContentFlags.id,
      flagType: illegalContentFlags.flagType,
      content: illegalContentFlags.content,
      description: illegalContentFlags.description,
      senderId: sender.id,
      senderName: sender.username,
      status: illegalContentFlags.status,
      createdAt: illegalContentFlags.createdAt,
      deciderId: decider.id,
      deciderName: decider.username,
      decidedAt: illegalContentFlags.decidedAt,
      decisionNote: illegalContentFlags.decisionNote,
      cursorMicros: cursorMicros(illegalContentFlags.createdAt),
    })
    .from(illegalContentFlags)
    .leftJoin(sender, eq(sender.id, illegalContentFlags.senderId))
    .leftJoin(decider, eq(decider.id, illegalContentFlags.decidedBy))
    .where(where)
    .orderBy(...keysetOrderBy(illegalContentFlags.createdAt, illegalContentFlags.id, order))
    .limit(limit);
}

const toAdminFlag = (row: Awaited<ReturnType<typeof selectFlags>>[number]): AdminFlag => ({
  id: row.id,
  flagType: row.flagType,
  content: row.content,
  description: row.description,
  sender: userRefOf({ id: row.senderId, username: row.senderName }),
  status: row.status,
  createdAt: row.createdAt.toISOString(),
  ...decisionOf(row),
});

/** Illegal Content: one page of flags of blocked messages, newest first unless asked otherwise. */
export async function listFlags({ db, status, order, cursor }: ListOptions<FlagStatus>): Promise<AdminFlagsPage> {
  const where = and(
    status ? eq(illegalContentFlags.status, status) : undefined,
    pastCursor(illegalContentFlags.createdAt, illegalContentFlags.id, cursor, order),
  );
  const { page, nextCursor } = toPage(await selectFlags(db, where, order, PAGE_SIZE + 1), PAGE_SIZE);
  return { items: page.map(toAdminFlag), nextCursor };
}

/** The flags of one user's blocked messages, newest first (the user page). */
export async function listFlagsOfUser({ db, userId }: { db: Executor; userId: string }) {
  const rows = await selectFlags(db, eq(illegalContentFlags.senderId, userId), 'newest', PAGE_SIZE);
  return rows.map(toAdminFlag);
}

/** Marks a pending flag reviewed (the content was illegal) or dismissed, with a note: 404 unknown, 409 decided. */
export async function decideFlag({
  db,
  actor,
  flagId,
  input,
}: {
  db: Database;
  actor: Actor;
  flagId: string;
  input: DecideFlagInput;
}): Promise<AdminFlag> {
  await db.transaction(async (tx) => {
    const [before] = await tx
      .select({ status: illegalContentFlags.status })
      .from(illegalContentFlags)
      .where(eq(illegalContentFlags.id, flagId))
      .for('update');
    if (!before) throw new AppError('NOT_FOUND');
    const [after] = await tx
      .update(illegalContentFlags)
      .set({ status: input.status, decidedBy: actor.id, decidedAt: new Date(), decisionNote: input.note })
      .where(and(eq(illegalContentFlags.id, flagId), eq(illegalContentFlags.status, 'pending')))
      .returning({ status: illegalContentFlags.status, decisionNote: illegalContentFlags.decisionNote });
    if (!after) throw new AppError('CONFLICT', { message: adminMessages.alreadyDecided });
    await recordAdminAction(tx, {
      actor,
      action: input.status === 'reviewed' ? 'flag.review' : 'flag.dismiss',
      objectType: 'illegal_content_flag',
      objectId: flagId,
      before,
      after,
    });
  });
  const [row] = await selectFlags(db, eq(illegalContentFlags.id, flagId), 'newest', 1);
  return toAdminFlag(row!);
}
