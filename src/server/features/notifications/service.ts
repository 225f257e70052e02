import { desc, eq, sql, type SQL } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import { NOTIFICATION_DESCRIPTION_LENGTH, NOTIFICATION_LIST_LIMIT, type NotificationKind } from '#shared/constants.ts';
import { formatCents } from '#shared/rules/money.ts';
import { notificationText, truncateText } from '#shared/rules/text.ts';
import type { AppNotification, NotificationList } from '#shared/schemas/notifications.ts';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema/auth.ts';
import { notifications, studentNotifications, teacherNotifications } from '../../db/schema/notifications.ts';
import { AppError } from '../../http/errors.ts';
import { queuePushes } from '../push/service.ts';
import {
  NOTIFICATION_EMAIL_TYPES,
  queueNotificationEmails,
  topicOfNotification,
  type NotificationEmail,
} from './email.ts';
import { channelsFor } from './settings.ts';

export { notifyTeachersOfRequest } from './new-job.ts';
export { getNotificationSettings, updateNotificationSettings } from './settings.ts';
import { paths } from '#shared/paths.ts';

// Notifications (three tables, one bell) with their e-mails and pushes, each as the user chose for its kind of news.
// Callers publish the realtime `notification:new` event after their transaction commits.

/** Queues the e-mail of one user's notification, addressed from the user's account. */
async function emailUser({
  db,
  publicUrl,
  userId,
  email,
}: {
  db: Executor;
  publicUrl: string;
  userId: string;
  email: Omit<NotificationEmail, 'userId' | 'recipient' | 'username' | 'role'>;
}) {
  const [recipient] = await db
    .select({ email: users.email, username: users.username, role: users.role })
    .from(users)
    .where(eq(users.id, userId));
  if (!recipient) throw new AppError('NOT_FOUND');
  await queueNotificationEmails({
    db,
    publicUrl,
    emails: [{ ...email, userId, recipient: recipient.email, username: recipient.username, role: recipient.role }],
  });
}

type NewBidNotice = {
  studentId: string;
  requestId: string;
  subjectName: string;
  tutor: { id: string; username: string; image: string | null; vhNumber: number };
  amountCents: number;
  message: string | null;
  createdAt: Date;
};

/** The student's "new offer" notification with a snapshot of the tutor, its e-mail and push, as the student chose. */
export async function notifyStudentOfBid({
  db,
  publicUrl,
  bid,
}: {
  db: Executor;
  publicUrl: string;
  bid: NewBidNotice;
}) {
  const channels = await channelsFor(db, bid.studentId, 'offers');
  const [notification] = channels.inApp
    ? await db
        .insert(studentNotifications)
        .values({
          studentId: bid.studentId,
          requestId: bid.requestId,
          tutorId: bid.tutor.id,
          tutorName: bid.tutor.username,
          tutorAvatar: bid.tutor.image,
          tutorVhNumber: bid.tutor.vhNumber,
          bidAmountCents: bid.amountCents,
          bidMessage: bid.message,
        })
        .returning({ id: studentNotifications.id })
    : [];
  const offered = `${bid.tutor.username} (VH ${bid.tutor.vhNumber}) offered ${formatCents(bid.amountCents)} on your ${bid.subjectName} request.`;
  const link = paths.student.offers.getHref(bid.requestId);
  if (channels.email) {
    await emailUser({
      db,
      publicUrl,
      userId: bid.studentId,
      email: {
        type: 'new_offer',
        message: `${offered}${bid.message ? ` Message: ${bid.message}` : ''}`,
        link,
        sender: bid.tutor.username,
        timestamp: bid.createdAt,
        notificationId: notification?.id ?? null,
      },
    });
  }
  if (channels.push) {
    await queuePushes(db, {
      userIds: [bid.studentId],
      payload: { title: NOTIFICATION_EMAIL_TYPES.new_offer, body: offered, url: link },
    });
  }
}

/**
 * A generic notification (message and link) for one user, in the ways the user chose for its kind: in the app, by
 * e-mail, pushed to their devices. Returns whether it was stored in the app (the caller then tells their tabs).
 */
export async function createNotification({
  db,
  publicUrl,
  userId,
  message,
  link,
  email,
}: {
  db: Executor;
  publicUrl: string;
  userId: string;
  message: string;
  link: string;
  email: Pick<NotificationEmail, 'type' | 'sender' | 'calendar' | 'operator'>;
}) {
  const topic = topicOfNotification[email.type];
  const channels = topic ? await channelsFor(db, userId, topic) : { inApp: true, email: true, push: true };
  const [notification] = channels.inApp
    ? await db
        .insert(notifications)
        .values({ userId, message, link })
        .returning({ id: notifications.id, createdAt: notifications.createdAt })
    : [];
  if (channels.email) {
    await emailUser({
      db,
      publicUrl,
      userId,
      email: {
        ...email,
        message,
        link,
        timestamp: notification?.createdAt ?? new Date(),
        notificationId: notification?.id ?? null,
      },
    });
  }
  if (channels.push) {
    await queuePushes(db, {
      userIds: [userId],
      payload: {
        title: NOTIFICATION_EMAIL_TYPES[email.type],
        body: truncateText(message, NOTIFICATION_DESCRIPTION_LENGTH),
        url: link,
      },
    });
  }
  return { inApp: channels.inApp };
}

/**
 * A chat message pushed to its receiver's devices, if they chose so: "New message from" its sender and the first words
 * (SPEC.md §7); one tag for every message, so a new one replaces the last. A click opens the conversation.
 */
export async function pushChatMessage(db: Executor, message: { senderId: string; receiverId: string; text: string }) {
  if (!(await channelsFor(db, message.receiverId, 'messages')).push) return;
  const [sender] = await db.select({ username: users.username }).from(users).where(eq(users.id, message.senderId));
  await queuePushes(db, {
    userIds: [message.receiverId],
    payload: {
      title: `New message from ${sender?.username ?? 'Virtual Help'}`,
      body: notificationText(message.text),
      url: paths.chat.getHref(message.senderId),
      tag: 'chat-message',
    },
  });
}

// The three kinds share one row shape so that one union query returns the latest 20 of all of them.
const none = {
  text: sql<string | null>`null::text`,
  uuid: sql<string | null>`null::uuid`,
  smallint: sql<number | null>`null::smallint`,
  integer: sql<number | null>`null::integer`,
};
const jobColumns = { subjectTitle: none.text, budget: none.text, description: none.text };
const offerColumns = {
  tutorId: none.uuid,
  tutorName: none.text,
  tutorAvatar: none.text,
  tutorVhNumber: none.smallint,
  bidAmountCents: none.integer,
  bidMessage: none.text,
};

function latestNotifications({ db, userId }: { db: Executor; userId: string }) {
  const jobs = db
    .select({
      id: teacherNotifications.id,
      kind: sql<NotificationKind>`'job'`.as('kind'),
      // The first branch types the union's rows: columns that other branches leave null are typed nullable.
      requestId: sql<string | null>`${teacherNotifications.requestId}`.as('request_id'),
      message: none.text,
      link: sql<string | null>`${teacherNotifications.jobUrl}`.as('link'),
      read: teacherNotifications.read,
      createdAt: teacherNotifications.createdAt,
      subjectTitle: sql<string | null>`${teacherNotifications.subjectTitle}`.as('subject_title'),
      budget: sql<string | null>`${teacherNotifications.budget}`.as('budget'),
      description: sql<string | null>`${teacherNotifications.description}`.as('description'),
      ...offerColumns,
    })
    .from(teacherNotifications)
    .where(eq(teacherNotifications.teacherId, userId))
    .orderBy(desc(teacherNotifications.createdAt))
    .limit(NOTIFICATION_LIST_LIMIT);
  const offers = db
    .select({
      id: studentNotifications.id,
      kind: sql<NotificationKind>`'offer'`.as('kind'),
      requestId: studentNotifications.requestId,
      message: none.text,
      link: none.text,
      read: studentNotifications.read,
      createdAt: studentNotifications.createdAt,
      ...jobColumns,
      tutorId: studentNotifications.tutorId,
      tutorName: studentNotifications.tutorName,
      tutorAvatar: studentNotifications.tutorAvatar,
      tutorVhNumber: studentNotifications.tutorVhNumber,
      bidAmountCents: studentNotifications.bidAmountCents,
      bidMessage: studentNotifications.bidMessage,
    })
    .from(studentNotifications)
    .where(eq(studentNotifications.studentId, userId))
    .orderBy(desc(studentNotifications.createdAt))
    .limit(NOTIFICATION_LIST_LIMIT);
  const general = db
    .select({
      id: notifications.id,
      kind: sql<NotificationKind>`'general'`.as('kind'),
      requestId: none.uuid,
      message: notifications.message,
      link: notifications.link,
      read: notifications.read,
      createdAt: notifications.createdAt,
      ...jobColumns,
      ...offerColumns,
    })
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.createdAt))
    .limit(NOTIFICATION_LIST_LIMIT);
  return unionAll(jobs, offers, general)
    .orderBy(desc(sql`created_at`))
    .limit(NOTIFICATION_LIST_LIMIT);
}

/** How many teachers were told about a request, as a subquery for the caller's select (`requestId`: its column). */
export const notifiedTeachersCount = (requestId: SQL) =>
  sql<number>`(select count(*)::int from ${teacherNotifications} where ${teacherNotifications.requestId} = ${requestId})`;

type NotificationRow = Awaited<ReturnType<typeof latestNotifications>>[number];

function toNotification(row: NotificationRow): AppNotification {
  const common = { id: row.id, read: row.read, createdAt: new Date(row.createdAt).toISOString() };
  if (row.kind === 'job') {
    return {
      ...common,
      kind: 'job',
      requestId: row.requestId!,
      message: `New job in ${row.subjectTitle} - ${row.budget}`,
      link: paths.teacher.jobs.getHref(row.requestId!),
      subjectTitle: row.subjectTitle!,
      budget: row.budget!,
      description: row.description!,
    };
  }
  if (row.kind === 'offer') {
    return {
      ...common,
      kind: 'offer',
      requestId: row.requestId!,
      message: `${row.tutorName} offered ${formatCents(row.bidAmountCents!)} on your request`,
      link: paths.student.offers.getHref(row.requestId!),
      tutorId: row.tutorId,
      tutorName: row.tutorName!,
      tutorAvatar: row.tutorAvatar,
      tutorVhNumber: row.tutorVhNumber === null ? null : Number(row.tutorVhNumber),
      bidAmountCents: row.bidAmountCents!,
      bidMessage: row.bidMessage,
    };
  }
  return { ...common, kind: 'general', requestId: null, message: row.message!, link: row.link };
}

/** The unread notifications of every kind, counted exactly (the bell shows 99+). */
async function countUnread({ db, userId }: { db: Executor; userId: string }) {
  const result = await db.execute<{ unread: number }>(sql`
    select (select count(*) from ${teacherNotifications} where ${teacherNotifications.teacherId} = ${userId} and not ${teacherNotifications.read})
         + (select count(*) from ${studentNotifications} where ${studentNotifications.studentId} = ${userId} and not ${studentNotifications.read})
         + (select count(*) from ${notifications} where ${notifications.userId} = ${userId} and not ${notifications.read}) as unread`);
  return Number(result.rows[0]!.unread);
}

/** The latest 20 notifications of the user (job, offer and general), newest first, and the exact unread count. */
export async function listNotifications({ db, userId }: { db: Executor; userId: string }): Promise<NotificationList> {
  const [rows, unreadCount] = await Promise.all([latestNotifications({ db, userId }), countUnread({ db, userId })]);
  return { notifications: rows.map(toNotification), unreadCount };
}

/**
 * Marks the user's notifications read in one statement across the three tables: the one with this id (no row
 * when it is not theirs), or every unread one. Returns how many changed.
 */
async function markRead({ db, userId, id }: { db: Executor; userId: string; id?: string }) {
  const which = (table: typeof teacherNotifications | typeof studentNotifications | typeof notifications) =>
    id ? sql`${table.id} = ${id}` : sql`not ${table.read}`;
  const result = await db.execute<{ updated: number }>(sql`
    with jobs as (update ${teacherNotifications} set read = true
                  where ${teacherNotifications.teacherId} = ${userId} and ${which(teacherNotifications)} returning 1),
         offers as (update ${studentNotifications} set read = true
                  where ${studentNotifications.studentId} = ${userId} and ${which(studentNotifications)} returning 1),
         general as (update ${notifications} set read = true
                  where ${notifications.userId} = ${userId} and ${which(notifications)} returning 1)
    select (select count(*) from jobs) + (select count(*) from offers) + (select count(*) from general) as updated`);
  return Number(result.rows[0]!.updated);
}

/** Marks one of the user's notifications read; another user's (or an unknown) id is a 404. */
export async function markNotificationRead({ db, userId, id }: { db: Executor; userId: string; id: string }) {
  if ((await markRead({ db, userId, id })) === 0) throw new AppError('NOT_FOUND');
}

export async function markAllNotificationsRead({ db, userId }: { db: Executor; userId: string }) {
  return { updated: await markRead({ db, userId }) };
}

export { eraseNotificationsOf } from './erasure.ts';
