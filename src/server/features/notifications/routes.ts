import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notificationSettingsSchema, updateNotificationSettingsSchema } from '#shared/schemas/notification-settings.ts';
import { notificationListSchema } from '#shared/schemas/notifications.ts';
import type { Database } from '../../db/client.ts';
import { requireUser } from '../../http/session.ts';
import {
  getNotificationSettings,
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  updateNotificationSettings,
} from './service.ts';
import { readUnsubscribeToken, renderUnsubscribePage, unsubscribe, UNSUBSCRIBE_PATH } from './unsubscribe.ts';

const unsubscribeSchema = {
  tags: ['notifications'],
  // Opened and posted from a mail, where no one is signed in: the signed token is the authority.
  security: [],
  querystring: z.object({ token: z.string().max(200) }),
  response: { 200: { content: { 'text/html': { schema: z.string() } } } },
};

const sendPage = (reply: FastifyReply, page: string) =>
  reply
    .header('cache-control', 'no-store')
    .header(
      'content-security-policy',
      "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    )
    .type('text/html; charset=utf-8')
    .send(page);

export const notificationsRoutes: FastifyPluginAsyncZod<{ db: Database; authSecret: string }> = async (
  app,
  { db, authSecret },
) => {
  app.get(
    UNSUBSCRIBE_PATH,
    {
      schema: {
        ...unsubscribeSchema,
        summary: 'The page of a mail’s unsubscribe link: a button that posts; opening it changes nothing',
      },
    },
    async (request, reply) => {
      const { topic } = readUnsubscribeToken(authSecret, request.query.token);
      return sendPage(reply, renderUnsubscribePage(topic, request.query.token, false));
    },
  );

  app.post(
    UNSUBSCRIBE_PATH,
    {
      schema: {
        ...unsubscribeSchema,
        summary: 'One-click unsubscribe (RFC 8058): turns off the e-mail of the token’s kind of news for its user',
      },
    },
    async (request, reply) => {
      const topic = await unsubscribe(db, authSecret, request.query.token);
      return sendPage(reply, renderUnsubscribePage(topic, request.query.token, true));
    },
  );

  app.get(
    '/api/notifications',
    {
      schema: {
        summary:
          'The latest 20 notifications of the signed-in user (new jobs, offers, general) and the exact unread count',
        tags: ['notifications'],
        response: { 200: notificationListSchema },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      reply.header('cache-control', 'no-store');
      return listNotifications({ db, userId: user.id });
    },
  );

  app.post(
    '/api/notifications/:id/read',
    {
      schema: {
        summary: 'Mark one of the signed-in user’s notifications read (another user’s id: 404)',
        tags: ['notifications'],
        params: z.object({ id: z.uuid() }),
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      await markNotificationRead({ db, userId: user.id, id: request.params.id });
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/notifications/read-all',
    {
      schema: {
        summary: 'Mark all of the signed-in user’s notifications read, in one update',
        tags: ['notifications'],
        response: { 200: z.object({ updated: z.number().int() }) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return markAllNotificationsRead({ db, userId: user.id });
    },
  );

  app.get(
    '/api/notifications/settings',
    {
      schema: {
        summary: 'For each kind of news, whether the signed-in user has it in the app, by e-mail and pushed',
        tags: ['notifications'],
        response: { 200: notificationSettingsSchema },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      reply.header('cache-control', 'no-store');
      return getNotificationSettings(db, user.id);
    },
  );

  app.patch(
    '/api/notifications/settings',
    {
      schema: {
        summary: 'Change the channels named, per kind of news; the others keep theirs. Answers every kind’s.',
        tags: ['notifications'],
        body: updateNotificationSettingsSchema,
        response: { 200: notificationSettingsSchema },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return updateNotificationSettings(db, user.id, request.body);
    },
  );
};
