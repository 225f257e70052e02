import { randomBytes, randomUUID } from 'node:crypto';
import { MEETINGS_PER_CHAT } from '#shared/constants.ts';
import type { ChatMessage, CreateMeetingInput } from '#shared/schemas/chat.ts';
import type { Database, Executor } from '../../db/client.ts';
import { meetings } from '../../db/schema/meetings.ts';
import { AppError } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { enforceLimit } from '../../platform/limits/usage-limits.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import { getMeetingMessage, getRoom, insertMessage, partnerOf, publishMessage } from '../chat/service.ts';
import type { Moderation } from '../moderation/service.ts';
import { findOpenJobOfPair } from '../requests/service.ts';

// Video meetings scheduled in a chat: the meeting row and the chat message that carries it.

const MEETING_MESSAGE_PREFIX = '📹 Scheduled meeting: ';

/**
 * A teacher schedules a video meeting in a room: the jitsi_meetings row and a chat message that carries it, in
 * one transaction. The join URL names a random room on the video service; the client adds the display name and
 * disables the service's own chat with URL config parameters. A chat gets at most MEETINGS_PER_CHAT a day, counted in
 * the transaction: a meeting refused for any reason neither counts nor leaves a trace. The meeting belongs to the
 * newest job of the pair not yet completed, if any.
 */
export async function createMeeting({
  db,
  realtime,
  moderation,
  jitsiDomain,
  user,
  roomId,
  input,
  followUp,
}: {
  db: Database;
  realtime: Realtime;
  moderation: Moderation;
  jitsiDomain: string;
  user: SessionUser;
  roomId: string;
  input: CreateMeetingInput;
  /** Runs in the creating transaction (notifications, reminders). */
  followUp?: (options: { db: Executor; meetingId: string; participantId: string }) => Promise<unknown>;
}): Promise<ChatMessage> {
  const room = await getRoom({ db, userId: user.id, roomId });
  if (user.role !== 'teacher') throw new AppError('FORBIDDEN', { message: 'Only teachers can schedule meetings.' });
  await moderation.assertAllowed({ text: input.title, field: 'title', senderId: user.id, roomId });
  if (input.description)
    await moderation.assertAllowed({ text: input.description, field: 'description', senderId: user.id, roomId });

  const meetingId = `VirtualHelp-${randomBytes(12).toString('hex')}`;
  const message = await db.transaction(async (tx) => {
    await enforceLimit(tx, `meetings:${roomId}`, MEETINGS_PER_CHAT, MEETINGS_PER_CHAT.message);
    const stored = await insertMessage({
      db: tx,
      values: {
        clientId: randomUUID(),
        roomId,
        senderId: user.id,
        receiverId: partnerOf(room, user.id),
        content: [`${MEETING_MESSAGE_PREFIX}${input.title}`, input.description].filter(Boolean).join('\n'),
      },
    });
    const [meeting] = await tx
      .insert(meetings)
      .values({
        creatorId: user.id,
        title: input.title,
        description: input.description || null,
        meetingId,
        joinUrl: `https://${jitsiDomain}/${meetingId}`,
        startTime: new Date(input.startTime),
        requestId: await findOpenJobOfPair({ db: tx, studentId: partnerOf(room, user.id), tutorId: user.id }),
        chatRoomId: roomId,
        chatMessageId: stored!.id,
      })
      .returning({ id: meetings.id });
    await followUp?.({ db: tx, meetingId: meeting!.id, participantId: partnerOf(room, user.id) });
    return (await getMeetingMessage({ db: tx, messageId: stored!.id }))!;
  });
  publishMessage({ realtime, message });
  return message;
}
