import { and, eq, sql } from 'drizzle-orm';
import { REPORT_REASONS } from '#shared/constants.ts';
import { reportMessages, type CreateReportInput, type ReportTarget } from '#shared/schemas/reports.ts';
import type { Database, Executor } from '../../db/client.ts';
import { users } from '../../db/schema/auth.ts';
import { userReports } from '../../db/schema/moderation.ts';
import { AppError } from '../../http/errors.ts';

const reasonLabel = (value: string) => REPORT_REASONS.find((reason) => reason.value === value)?.label ?? value;

/**
 * The person a user may report: anyone but themselves and system accounts (Guru AI, which answers like an unknown
 * user). Admins are reported like anyone else, so that the answer never tells who is one (none decides a report about
 * themselves). Each refusal carries the message the form shows.
 */
export async function getReportTarget({
  db,
  reporterId,
  userId,
}: {
  db: Executor;
  reporterId: string;
  userId: string;
}): Promise<ReportTarget> {
  if (userId === reporterId) throw new AppError('VALIDATION_FAILED', { message: reportMessages.self });
  const [target] = await db
    .select({
      id: users.id,
      username: users.username,
      role: users.role,
      image: users.image,
      isSystem: users.isSystem,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!target || target.isSystem) throw new AppError('NOT_FOUND', { message: reportMessages.notFound });
  return { id: target.id, username: target.username, role: target.role, image: target.image };
}

/**
 * Files a report, or adds it to the reporter's earlier report on the same person while that one is still pending,
 * so admins see one report per pair with every detail. The reporter's row is locked for the duration, so two
 * racing submissions cannot both create a report.
 */
export async function createReport({
  db,
  reporterId,
  input,
}: {
  db: Database;
  reporterId: string;
  input: CreateReportInput;
}) {
  return db.transaction(async (tx) => {
    await getReportTarget({ db: tx, reporterId, userId: input.reportedUserId });
    await tx.select({ id: users.id }).from(users).where(eq(users.id, reporterId)).for('update');
    const [pending] = await tx
      .select({ id: userReports.id })
      .from(userReports)
      .where(
        and(
          eq(userReports.reporterId, reporterId),
          eq(userReports.reportedUserId, input.reportedUserId),
          eq(userReports.status, 'pending'),
        ),
      )
      .limit(1);

    const [report] = pending
      ? await tx
          .update(userReports)
          .set({
            description: sql`${userReports.description} || ${`\n\n${reasonLabel(input.reason)}: ${input.description}`}`,
          })
          .where(eq(userReports.id, pending.id))
          .returning()
      : await tx
          .insert(userReports)
          .values({
            reporterId,
            reportedUserId: input.reportedUserId,
            reason: input.reason,
            description: input.description,
          })
          .returning();
    const { id, reportedUserId, reason, description, status, createdAt } = report!;
    return {
      report: { id, reportedUserId, reason, description, status, createdAt: createdAt.toISOString() },
      merged: Boolean(pending),
    };
  });
}
