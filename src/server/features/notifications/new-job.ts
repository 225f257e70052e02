import { and, eq, sql } from 'drizzle-orm';
import { NOTIFICATION_DESCRIPTION_LENGTH, type RequestType } from '#shared/constants.ts';
import { paths } from '#shared/paths.ts';
import { formatBudget } from '#shared/rules/budget.ts';
import { truncateText } from '#shared/rules/text.ts';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema/auth.ts';
import { teacherNotifications } from '../../db/schema/notifications.ts';
import { teacherSpecializations } from '../../db/schema/subjects.ts';
import { queuePushes } from '../push/service.ts';
import { NOTIFICATION_EMAIL_TYPES, queueNotificationEmails } from './email.ts';
import { wants } from './settings.ts';

const typeLabels: Record<RequestType, string> = { tutoring: 'tutoring', assignment: 'assignment help' };

type NewRequestNotice = {
  id: string;
  type: RequestType;
  subjectId: string;
  subjectName: string;
  description: string;
  budgetMinCents: number;
  budgetMaxCents: number;
  studentId: string;
  studentName: string;
  createdAt: Date;
};

/**
 * Tells every teacher of the request's subject (confirmed teacher accounts only, never the author) in the ways each
 * chose for new jobs, in set-based statements whatever their number: the in-app notices (insert … select), the
 * e-mails and the pushes. A teacher told before about this request is not told again. Returns the ids of the
 * teachers told in the app.
 */
export async function notifyTeachersOfRequest({
  db,
  publicUrl,
  request,
  onlyTeacherId,
}: {
  db: Executor;
  publicUrl: string;
  request: NewRequestNotice;
  /** A direct request tells only its tutor. */
  onlyTeacherId?: string | null;
}) {
  const budget = formatBudget({ minCents: request.budgetMinCents, maxCents: request.budgetMaxCents });
  const description = truncateText(request.description, NOTIFICATION_DESCRIPTION_LENGTH);
  const link = paths.teacher.jobs.getHref(request.id);
  const teacherId = teacherSpecializations.teacherId;
  const teachersOfSubject = and(
    eq(teacherSpecializations.subjectId, request.subjectId),
    eq(users.role, 'teacher'),
    eq(users.emailVerified, true),
    sql`${users.id} <> ${request.studentId}`,
    onlyTeacherId ? eq(users.id, onlyTeacherId) : undefined,
    // Told before (a direct request opened to all): not again.
    sql`not exists (select 1 from ${teacherNotifications} where ${teacherNotifications.teacherId} = ${teacherId}
      and ${teacherNotifications.requestId} = ${request.id})`,
  );
  // Who is e-mailed and pushed is read before the notices are written, which the condition above would then find.
  const recipients = (channel: 'email' | 'push') =>
    db
      .select({ teacherId, email: users.email, username: users.username })
      .from(teacherSpecializations)
      .innerJoin(users, eq(users.id, teacherId))
      .where(and(teachersOfSubject, wants(teacherId, 'jobs', channel)));
  const emailed = await recipients('email');
  const pushed = await recipients('push');
  // insert … select lists every column: id, read and created_at repeat their defaults.
  const told = await db
    .insert(teacherNotifications)
    .select((qb) =>
      qb
        .select({
          id: sql<string>`gen_random_uuid()`.as('id'),
          teacherId,
          requestId: sql<string>`${request.id}::uuid`.as('request_id'),
          subjectTitle: sql<string>`${request.subjectName}::text`.as('subject_title'),
          budget: sql<string>`${budget}::text`.as('budget'),
          description: sql<string>`${description}::text`.as('description'),
          jobUrl: sql<string>`${link}::text`.as('job_url'),
          read: sql<boolean>`false`.as('read'),
          teacherEmail: users.email,
          createdAt: sql<Date>`now()`.as('created_at'),
        })
        .from(teacherSpecializations)
        .innerJoin(users, eq(users.id, teacherId))
        .where(and(teachersOfSubject, wants(teacherId, 'jobs', 'inApp'))),
    )
    .onConflictDoNothing()
    .returning({ id: teacherNotifications.id, teacherId: teacherNotifications.teacherId });
  const noticeOf = new Map(told.map((row) => [row.teacherId, row.id]));

  const message = `${request.studentName} ${onlyTeacherId ? 'sent you' : 'posted'} a new ${typeLabels[request.type]} request in ${request.subjectName} (${budget}): ${description}`;
  await queueNotificationEmails({
    db,
    publicUrl,
    emails: emailed.map((teacher) => ({
      userId: teacher.teacherId,
      recipient: teacher.email,
      username: teacher.username,
      type: 'new_job',
      message,
      link,
      role: 'teacher',
      sender: request.studentName,
      timestamp: request.createdAt,
      notificationId: noticeOf.get(teacher.teacherId) ?? null,
    })),
  });

  await queuePushes(db, {
    userIds: pushed.map((teacher) => teacher.teacherId),
    payload: {
      title: NOTIFICATION_EMAIL_TYPES.new_job,
      body: `${request.subjectName} (${budget}): ${description}`,
      url: link,
    },
  });
  return told.map((row) => row.teacherId);
}
