import { eq, inArray, or } from 'drizzle-orm';
import type { Executor } from '../../../db/client.ts';
import { users } from '../../../db/schema/auth.ts';
import { chatRooms, messages } from '../../../db/schema/chat.ts';
import { storedFiles } from '../../../db/schema/limits.ts';
import { meetings } from '../../../db/schema/meetings.ts';
import { userReports } from '../../../db/schema/moderation.ts';
import { notifications, studentNotifications, teacherNotifications } from '../../../db/schema/notifications.ts';
import { checkouts, payouts, refundRequests } from '../../../db/schema/payments.ts';
import { tutorBids, tutoringRequests } from '../../../db/schema/requests.ts';
import { reviews } from '../../../db/schema/reviews.ts';
import { subjects, teacherSpecializations } from '../../../db/schema/subjects.ts';
import { avatarKeyOf } from '../../profiles/service.ts';

// What "Download my data" puts in the zip: a JSON file per kind of record, read for one user. Every query is bounded
// by the user's id; rows of other people appear only where they are part of this user's own exchanges (the partner's
// messages in a shared conversation, reviews received), and never another person's e-mail address or reports
// about this user.

export const EXPORT_README = `Your Virtual Help data
======================

This archive holds what Virtual Help keeps about your account, as it was when the archive was made.
Times are in UTC (ISO 8601). Other people appear only by their ids.

profile.json        Your account: username, name, e-mail address, role, VH number, profile texts, subjects.
requests.json       The tutoring requests you posted.
bids.json           The offers you made ("made") and the offers made on your requests ("received").
jobs.json           The requests you were hired for as a tutor.
messages.json       Every message you sent or received, Guru AI conversations included.
meetings.json       The video meetings of your conversations.
reviews.json        The reviews you wrote ("written") and received ("received").
reports.json        The reports you filed about other users (reports about you are not included).
notifications.json  Your in-app notifications.
payments.json       Your checkouts and refund requests as a student (present when payments are on).
earnings.json       Your paid jobs and payouts as a tutor (present when payments are on).
files/              The files you uploaded: your picture, chat files and request attachments.

Your password is not included: it is kept only as a one-way hash.
`;

type ExportFile = { name: string; data: unknown };

/** The JSON files of one user's export, in the order they go into the zip. */
export async function collectExportFiles({ db, userId }: { db: Executor; userId: string }): Promise<ExportFile[]> {
  const [profile] = await db
    .select({
      id: users.id,
      username: users.username,
      name: users.name,
      fullName: users.fullName,
      email: users.email,
      emailVerified: users.emailVerified,
      role: users.role,
      vhNumber: users.vhNumber,
      image: users.image,
      headline: users.headline,
      about: users.about,
      adultConfirmedAt: users.adultConfirmedAt,
      createdAt: users.createdAt,
    })
    .from(users)
    .where(eq(users.id, userId));
  const specializations = await db
    .select({ subject: subjects.name, since: teacherSpecializations.createdAt })
    .from(teacherSpecializations)
    .innerJoin(subjects, eq(subjects.id, teacherSpecializations.subjectId))
    .where(eq(teacherSpecializations.teacherId, userId));

  const ownRequestIds = db
    .select({ id: tutoringRequests.id })
    .from(tutoringRequests)
    .where(eq(tutoringRequests.studentId, userId));
  const roomIds = db
    .select({ id: chatRooms.id })
    .from(chatRooms)
    .where(or(eq(chatRooms.participant1Id, userId), eq(chatRooms.participant2Id, userId)));

  const files: ExportFile[] = [
    { name: 'profile.json', data: { ...profile, specializations } },
    {
      name: 'requests.json',
      data: await db.select().from(tutoringRequests).where(eq(tutoringRequests.studentId, userId)),
    },
    {
      name: 'bids.json',
      data: {
        made: await db.select().from(tutorBids).where(eq(tutorBids.tutorId, userId)),
        received: await db.select().from(tutorBids).where(inArray(tutorBids.requestId, ownRequestIds)),
      },
    },
    {
      name: 'jobs.json',
      data: (
        await db
          .select({ request: tutoringRequests })
          .from(tutoringRequests)
          .innerJoin(tutorBids, eq(tutorBids.id, tutoringRequests.acceptedBidId))
          .where(eq(tutorBids.tutorId, userId))
      ).map((row) => row.request),
    },
    {
      name: 'messages.json',
      data: await db
        .select()
        .from(messages)
        .where(or(eq(messages.senderId, userId), eq(messages.receiverId, userId)))
        .orderBy(messages.createdAt),
    },
    {
      name: 'meetings.json',
      data: await db
        .select()
        .from(meetings)
        .where(or(eq(meetings.creatorId, userId), inArray(meetings.chatRoomId, roomIds))),
    },
    {
      name: 'reviews.json',
      data: {
        written: await db.select().from(reviews).where(eq(reviews.studentId, userId)),
        received: await db.select().from(reviews).where(eq(reviews.tutorId, userId)),
      },
    },
    {
      name: 'reports.json',
      data: await db
        .select({
          id: userReports.id,
          reportedUserId: userReports.reportedUserId,
          reason: userReports.reason,
          description: userReports.description,
          status: userReports.status,
          createdAt: userReports.createdAt,
        })
        .from(userReports)
        .where(eq(userReports.reporterId, userId)),
    },
    {
      name: 'notifications.json',
      data: {
        general: await db.select().from(notifications).where(eq(notifications.userId, userId)),
        newJobs: await db.select().from(teacherNotifications).where(eq(teacherNotifications.teacherId, userId)),
        offers: await db.select().from(studentNotifications).where(eq(studentNotifications.studentId, userId)),
      },
    },
  ];

  const paid = await db.select().from(checkouts).where(eq(checkouts.studentId, userId));
  const refunds = await db.select().from(refundRequests).where(eq(refundRequests.studentId, userId));
  if (paid.length > 0 || refunds.length > 0) files.push({ name: 'payments.json', data: { checkouts: paid, refunds } });
  const earned = await db.select().from(checkouts).where(eq(checkouts.tutorId, userId));
  const paidOut = await db.select().from(payouts).where(eq(payouts.tutorId, userId));
  if (earned.length > 0 || paidOut.length > 0)
    files.push({ name: 'earnings.json', data: { jobs: earned, payouts: paidOut } });
  return files;
}

/** The keys of the files this user uploaded: the avatar, chat files and request attachments. */
export async function uploadedFileKeys({ db, userId }: { db: Executor; userId: string }) {
  const [user] = await db.select({ image: users.image }).from(users).where(eq(users.id, userId));
  const avatar = avatarKeyOf(user?.image ?? null);
  const rows = await db
    .select({ key: storedFiles.key })
    .from(storedFiles)
    .where(eq(storedFiles.ownerId, userId))
    .orderBy(storedFiles.createdAt);
  return [...(avatar ? [avatar] : []), ...rows.map((row) => row.key)];
}
