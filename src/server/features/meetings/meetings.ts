import { and, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import { MEETING_JOIN_WINDOW, MEETING_REMINDERS, MEETING_REMINDERS_INTERVAL_MS } from '#shared/constants.ts';
import type { Database, Executor } from '../../db/client.ts';
import { users } from '../../db/schema/auth.ts';
import { chatRooms } from '../../db/schema/chat.ts';
import { meetingJoins, meetingReminders, meetings, type Meeting } from '../../db/schema/meetings.ts';
import { AppError } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import type { IntervalJob } from '../../platform/jobs/interval-jobs.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import { createNotification } from '../notifications/service.ts';
import { meetingInvite } from './ics.ts';
import { getMeetingMessage, publishMessage } from '../chat/service.ts';
import { paths } from '#shared/paths.ts';

// What follows a meeting's creation: the other participant is told (bell and e-mail with an invitation), reminders
// are planned; and the meeting's later life: reading it, cancelling it, the reminders job.

const MEETING_DURATION_MINUTES = 60;

/** Where mails and calendar entries point and come from. */
type MeetingMailContext = { publicUrl: string; organizerEmail: string };

/** "Thu 27 Nov 2026, 17:00 UTC": e-mails cannot know the reader's zone; the attached invitation can. */
const utcLabel = (date: Date) =>
  `${new Intl.DateTimeFormat('en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'UTC',
    hourCycle: 'h23',
  }).format(date)} UTC`;

/** The address part of MAIL_FROM ("Virtual Help <no-reply@x>" → no-reply@x), the invitation's organizer. */
export const mailAddressOf = (from: string) => from.match(/<([^>]+)>/)?.[1] ?? from.trim();

async function usernameOf(db: Executor, userId: string) {
  const [user] = await db.select({ username: users.username }).from(users).where(eq(users.id, userId));
  if (!user) throw new AppError('NOT_FOUND');
  return user.username;
}

/** The two participants of a meeting: its creator and the other person of its chat room. */
async function participantsOf(db: Executor, meeting: Pick<Meeting, 'creatorId' | 'chatRoomId'>) {
  if (!meeting.chatRoomId) return { creatorId: meeting.creatorId, otherId: null };
  const [room] = await db.select().from(chatRooms).where(eq(chatRooms.id, meeting.chatRoomId));
  if (!room) return { creatorId: meeting.creatorId, otherId: null };
  const otherId = room.participant1Id === meeting.creatorId ? room.participant2Id : room.participant1Id;
  return { creatorId: meeting.creatorId, otherId };
}

function invitationFor(meeting: Meeting, organizer: string, attendee: string, ctx: MeetingMailContext) {
  return meetingInvite({
    meetingId: meeting.id,
    title: meeting.title,
    description: meeting.description,
    joinUrl: meeting.joinUrl,
    start: meeting.startTime,
    durationMinutes: MEETING_DURATION_MINUTES,
    // The service's own address: participants never learn each other's e-mail address.
    organizer: { name: organizer, email: ctx.organizerEmail },
    attendee: { name: attendee },
    cancelled: meeting.cancelledAt !== null,
  });
}

/**
 * In the creating transaction: the other participant's notification and e-mail with invite.ics, and the reminders
 * still ahead (a meeting less than 24 hours away gets only the 1-hour one). Returns whom to tell live after commit.
 */
export async function followUpNewMeeting({
  db,
  ctx,
  meetingId,
  creator,
  participantId,
}: {
  db: Executor;
  ctx: MeetingMailContext;
  meetingId: string;
  creator: SessionUser;
  participantId: string;
}) {
  const [meeting] = await db.select().from(meetings).where(eq(meetings.id, meetingId));
  const start = meeting!.startTime.getTime();
  const due = MEETING_REMINDERS.filter((reminder) => start - reminder.beforeMs > Date.now());
  if (due.length > 0)
    await db
      .insert(meetingReminders)
      .values(due.map((reminder) => ({ meetingId, kind: reminder.kind, dueAt: new Date(start - reminder.beforeMs) })));
  const participant = await usernameOf(db, participantId);
  await createNotification({
    db,
    publicUrl: ctx.publicUrl,
    userId: participantId,
    message: `${creator.username} scheduled a video meeting "${meeting!.title}" for ${utcLabel(meeting!.startTime)}.`,
    link: paths.chat.getHref(creator.id),
    email: {
      type: 'meeting_scheduled',
      sender: creator.username,
      calendar: invitationFor(meeting!, creator.username, participant, ctx),
    },
  });
  return [participantId];
}

/** A meeting to one of its two participants; anyone else gets 404, as if it did not exist. */
export async function getMeeting({ db, userId, meetingId }: { db: Executor; userId: string; meetingId: string }) {
  const [meeting] = await db.select().from(meetings).where(eq(meetings.id, meetingId));
  if (!meeting) throw new AppError('NOT_FOUND');
  const { creatorId, otherId } = await participantsOf(db, meeting);
  if (userId !== creatorId && userId !== otherId) throw new AppError('NOT_FOUND');
  return meeting;
}

/**
 * A participant presses Join: the press is recorded (who, when) before the client opens the meeting, since a refund
 * for a missed session asks whether the tutor joined. Only a meeting that is not cancelled, in the window the Join
 * button is offered (10 minutes before to 10 hours after the start), can be joined.
 */
export async function recordMeetingJoin({
  db,
  userId,
  meetingId,
}: {
  db: Database;
  userId: string;
  meetingId: string;
}) {
  return db.transaction(async (tx) => {
    const meeting = await getMeeting({ db: tx, userId, meetingId });
    if (meeting.cancelledAt) throw new AppError('CONFLICT', { message: 'This meeting was cancelled.' });
    const start = meeting.startTime.getTime();
    if (Date.now() < start - MEETING_JOIN_WINDOW.beforeMs)
      throw new AppError('CONFLICT', { message: 'This meeting opens 10 minutes before its start.' });
    if (Date.now() > start + MEETING_JOIN_WINDOW.afterMs)
      throw new AppError('CONFLICT', { message: 'This meeting is over.' });
    const [join] = await tx.insert(meetingJoins).values({ meetingId, userId }).returning();
    return join!;
  });
}

/**
 * The teacher who created a meeting cancels it (only before it is over): the card shows Cancelled for both, the
 * other participant is told with a cancelling invitation, and its unsent reminders are dropped.
 */
export async function cancelMeeting({
  db,
  realtime,
  ctx,
  user,
  meetingId,
}: {
  db: Database;
  realtime: Realtime;
  ctx: MeetingMailContext;
  user: SessionUser;
  meetingId: string;
}) {
  const { message, otherId } = await db.transaction(async (tx) => {
    const found = await getMeeting({ db: tx, userId: user.id, meetingId });
    if (found.creatorId !== user.id)
      throw new AppError('FORBIDDEN', { message: 'Only the teacher who scheduled this meeting can cancel it.' });
    if (found.startTime.getTime() <= Date.now())
      throw new AppError('CONFLICT', { message: 'This meeting has already started and can no longer be cancelled.' });
    const [meeting] = await tx
      .update(meetings)
      .set({ cancelledAt: sql`now()` })
      .where(and(eq(meetings.id, meetingId), isNull(meetings.cancelledAt)))
      .returning();
    if (!meeting) throw new AppError('CONFLICT', { message: 'This meeting is already cancelled.' });
    await tx
      .delete(meetingReminders)
      .where(and(eq(meetingReminders.meetingId, meetingId), isNull(meetingReminders.sentAt)));
    const { otherId } = await participantsOf(tx, meeting);
    if (otherId)
      await createNotification({
        db: tx,
        publicUrl: ctx.publicUrl,
        userId: otherId,
        message: `${user.username} cancelled the video meeting "${meeting.title}" of ${utcLabel(meeting.startTime)}.`,
        link: paths.chat.getHref(user.id),
        email: {
          type: 'meeting_cancelled',
          sender: user.username,
          calendar: invitationFor(meeting, user.username, await usernameOf(tx, otherId), ctx),
        },
      });
    const message = meeting.chatMessageId
      ? await getMeetingMessage({ db: tx, messageId: meeting.chatMessageId })
      : null;
    return { message, otherId };
  });
  if (message) publishMessage({ realtime, message });
  if (otherId) realtime.toUsers([otherId], 'notification:new', { kind: 'general', requestId: null });
  return message;
}

const REMINDER_BATCH = 100;

/**
 * Sends due reminders to both participants. Each reminder row is claimed (sent_at set) in the job's transaction
 * together with the notifications and mails it causes, so a reminder is sent exactly once: a crash rolls all of it
 * back, a restart finds it claimed, and a second server either waits for the job's lock or skips locked rows.
 * Reminders of cancelled or already started meetings are claimed without being sent.
 */
export function meetingRemindersJob({ realtime, ctx }: { realtime: Realtime; ctx: MeetingMailContext }): IntervalJob {
  return {
    name: 'meeting-reminders',
    intervalMs: MEETING_REMINDERS_INTERVAL_MS,
    async run({ db }) {
      const due = db
        .select({ id: meetingReminders.id })
        .from(meetingReminders)
        .where(and(isNull(meetingReminders.sentAt), lte(meetingReminders.dueAt, sql`now()`)))
        .orderBy(meetingReminders.dueAt)
        .limit(REMINDER_BATCH)
        .for('update', { skipLocked: true });
      const claimed = await db
        .update(meetingReminders)
        .set({ sentAt: sql`now()` })
        .where(and(inArray(meetingReminders.id, due), isNull(meetingReminders.sentAt)))
        .returning({ meetingId: meetingReminders.meetingId, kind: meetingReminders.kind });
      const told = new Set<string>();
      for (const reminder of claimed) {
        const [meeting] = await db
          .select()
          .from(meetings)
          .where(and(eq(meetings.id, reminder.meetingId), isNull(meetings.cancelledAt)));
        if (!meeting || meeting.startTime.getTime() <= Date.now()) continue;
        const { creatorId, otherId } = await participantsOf(db, meeting);
        if (!otherId) continue;
        const when = MEETING_REMINDERS.find((r) => r.kind === reminder.kind)!.label;
        for (const [userId, partnerId] of [
          [creatorId, otherId],
          [otherId, creatorId],
        ] as const) {
          const partner = await usernameOf(db, partnerId);
          await createNotification({
            db,
            publicUrl: ctx.publicUrl,
            userId,
            message: `Reminder: your video meeting "${meeting.title}" with ${partner} starts ${when} (${utcLabel(meeting.startTime)}).`,
            link: paths.chat.getHref(partnerId),
            email: { type: 'meeting_reminder', sender: 'Virtual Help' },
          });
          told.add(userId);
        }
      }
      return [...told];
    },
    // Only once committed: a bell that refetched earlier would not find the new notifications yet.
    afterCommit(told) {
      const userIds = told as string[];
      if (userIds.length > 0) realtime.toUsers(userIds, 'notification:new', { kind: 'general', requestId: null });
    },
  };
}
