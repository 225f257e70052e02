import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  chatErrorSchema,
  createMeetingSchema,
  meetingJoinSchema,
  meetingDetailSchema,
  meetingParamsSchema,
  messageSchema,
  roomParamsSchema,
  toMeetingDetail,
} from '#shared/schemas/chat.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { requireUser } from '../../http/session.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import type { Moderation } from '../moderation/service.ts';
import { cancelMeeting, followUpNewMeeting, getMeeting, mailAddressOf, recordMeetingJoin } from './meetings.ts';
import { createMeeting } from './scheduling.ts';

// Meetings live in chat rooms, so their routes stay under /api/chat.
const tags = ['chat'];

export const meetingsRoutes: FastifyPluginAsyncZod<{
  db: Database;
  realtime: Realtime;
  moderation: Moderation;
  config: Config;
}> = async (app, { db, realtime, moderation, config }) => {
  const meetingMail = { publicUrl: config.publicUrl, organizerEmail: mailAddressOf(config.mail.from) };

  app.post(
    '/api/chat/rooms/:roomId/meetings',
    {
      schema: {
        summary: 'Schedule a video meeting in a room (teachers only)',
        description:
          'Creates the meeting and its chat message ("📹 Scheduled meeting: {title}"); the message is returned and published as message:new.',
        tags,
        params: roomParamsSchema,
        body: createMeetingSchema,
        response: { 201: messageSchema, 400: chatErrorSchema },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const message = await createMeeting({
        db,
        realtime,
        moderation,
        jitsiDomain: config.jitsiDomain,
        user,
        roomId: request.params.roomId,
        input: request.body,
        followUp: (options) => followUpNewMeeting({ ...options, ctx: meetingMail, creator: user }),
      });
      realtime.toUsers([message.receiverId], 'notification:new', { kind: 'general', requestId: null });
      return reply.status(201).send(message);
    },
  );

  app.get(
    '/api/chat/meetings/:meetingId',
    {
      schema: {
        summary: 'One meeting, for its two participants only (anyone else: 404)',
        description:
          'status: cancelled once cancelled, else scheduled while the start is in the future, else completed.',
        tags,
        params: meetingParamsSchema,
        response: { 200: meetingDetailSchema },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      reply.header('cache-control', 'no-store');
      return toMeetingDetail(await getMeeting({ db, userId: user.id, meetingId: request.params.meetingId }));
    },
  );

  app.post(
    '/api/chat/meetings/:meetingId/cancel',
    {
      schema: {
        summary: 'Cancel a meeting (the teacher who scheduled it only)',
        description:
          'The other participant is notified (bell and e-mail with a cancelling invite.ics) and the reminders stop; the meeting message is published again as message:new. A third user: 404; the other participant: 403; already cancelled or started: 409.',
        tags,
        params: meetingParamsSchema,
        response: { 200: meetingDetailSchema },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      await cancelMeeting({ db, realtime, ctx: meetingMail, user, meetingId: request.params.meetingId });
      return toMeetingDetail(await getMeeting({ db, userId: user.id, meetingId: request.params.meetingId }));
    },
  );

  app.post(
    '/api/chat/meetings/:meetingId/join',
    {
      schema: {
        summary: 'Record that the signed-in participant joins a meeting (call before opening its link)',
        description:
          'Each call records a join (user, meeting, time): whether the tutor joined decides a refund for a missed session. A third user: 404; cancelled, more than 10 minutes before the start or over: 409.',
        tags,
        params: meetingParamsSchema,
        response: { 201: meetingJoinSchema },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const join = await recordMeetingJoin({ db, userId: user.id, meetingId: request.params.meetingId });
      return reply.status(201).send({ meetingId: join.meetingId, joinedAt: join.joinedAt.toISOString() });
    },
  );
};
