import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notificationListSchema } from '#shared/schemas/notifications.ts';
import type { Database } from '../../db/client.ts';
import { requireUser } from '../../http/session.ts';
import { listNotifications, markAllNotificationsRead, markNotificationRead } from './service.ts';

export const notificationsRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
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
};
