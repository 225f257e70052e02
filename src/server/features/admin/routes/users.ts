import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminUserSchema, suspensionSchema } from '#shared/schemas/admin.ts';
import type { Database } from '../../../db/client.ts';
import type { Realtime } from '../../../platform/realtime/realtime.ts';
import { requireAdmin } from '../service.ts';
import { getAdminUser, reinstateUser, suspendUser } from '../users.ts';
import { tags, userParams } from './params.ts';

/** A user's page, suspension and reinstatement; a suspension closes the user's sockets at once. */
export const adminUsersRoutes: FastifyPluginAsyncZod<{ db: Database; realtime: Realtime }> = async (
  app,
  { db, realtime },
) => {
  app.get(
    '/api/admin/users/:userId',
    {
      schema: {
        summary: 'A user’s page: profile, role, VH number, requests, bids, reports by and against them, flags',
        description: 'Unknown user: 404. Needs users.',
        tags,
        params: userParams,
        response: { 200: adminUserSchema },
      },
    },
    async (request) => {
      await requireAdmin(request, db, 'users');
      return getAdminUser({ db, userId: request.params.userId });
    },
  );

  app.post(
    '/api/admin/users/:userId/suspension',
    {
      schema: {
        summary: 'Suspend a user, with a reason',
        description:
          'They cannot sign in any more; their sessions end and their sockets close at once. Unknown user: 404; an admin or already suspended: 409. Needs users.',
        tags,
        params: userParams,
        body: suspensionSchema,
        response: { 200: adminUserSchema },
      },
    },
    async (request) => {
      const { user } = await requireAdmin(request, db, 'users');
      const { userId } = request.params;
      const { endedSessionIds } = await suspendUser({ db, actor: user, userId, reason: request.body.reason });
      for (const sessionId of endedSessionIds) realtime.endSession(sessionId);
      return getAdminUser({ db, userId });
    },
  );

  app.post(
    '/api/admin/users/:userId/reinstatement',
    {
      schema: {
        summary: 'Reinstate a suspended user, with a reason',
        description: 'They can sign in again. Unknown user: 404; not suspended: 409. Needs users.',
        tags,
        params: userParams,
        body: suspensionSchema,
        response: { 200: adminUserSchema },
      },
    },
    async (request) => {
      const { user } = await requireAdmin(request, db, 'users');
      const { userId } = request.params;
      await reinstateUser({ db, actor: user, userId, reason: request.body.reason });
      return getAdminUser({ db, userId });
    },
  );
};
