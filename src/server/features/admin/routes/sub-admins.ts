import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SUPER_ADMIN_ROLE } from '#shared/constants.ts';
import {
  addSubAdminSchema,
  subAdminSchema,
  subAdminsPageSchema,
  subAdminsQuerySchema,
  updateSubAdminSchema,
} from '#shared/schemas/admin.ts';
import type { Database } from '../../../db/client.ts';
import { noContentAnswer } from '../../../http/openapi.ts';
import { requireAdmin } from '../service.ts';
import { addSubAdmin, listSubAdmins, removeSubAdmin, updateSubAdmin } from '../sub-admins.ts';
import { tags, userParams } from './params.ts';

/** Sub-Admin Management, for the super-admin only. */
export const adminSubAdminsRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/admin/sub-admins',
    {
      schema: {
        summary: 'Sub-Admin Management: every admin role but the super-admin’s',
        description: 'Newest first, paged. The super-admin only.',
        tags,
        querystring: subAdminsQuerySchema,
        response: { 200: subAdminsPageSchema },
      },
    },
    async (request) => {
      await requireAdmin(request, db, SUPER_ADMIN_ROLE);
      return listSubAdmins({ db, ...request.query });
    },
  );

  app.post(
    '/api/admin/sub-admins',
    {
      schema: {
        summary: 'Make an existing account a sub-admin with permissions',
        description:
          'By e-mail address or username. No such account: 404; already an admin: 409. The super-admin only.',
        tags,
        body: addSubAdminSchema,
        response: { 201: subAdminSchema },
      },
    },
    async (request, reply) => {
      const { user } = await requireAdmin(request, db, SUPER_ADMIN_ROLE);
      return reply.status(201).send(await addSubAdmin({ db, actor: user, input: request.body }));
    },
  );

  app.put(
    '/api/admin/sub-admins/:userId',
    {
      schema: {
        summary: 'Set a sub-admin’s permissions',
        description: 'Not a sub-admin: 404. The super-admin only.',
        tags,
        params: userParams,
        body: updateSubAdminSchema,
        response: { 200: subAdminSchema },
      },
    },
    async (request) => {
      const { user } = await requireAdmin(request, db, SUPER_ADMIN_ROLE);
      return updateSubAdmin({ db, actor: user, userId: request.params.userId, input: request.body });
    },
  );

  app.delete(
    '/api/admin/sub-admins/:userId',
    {
      schema: {
        summary: 'Take the sub-admin role away',
        description: 'The account stays, without admin access. Not a sub-admin: 404. The super-admin only.',
        tags,
        params: userParams,
        response: { 204: noContentAnswer },
      },
    },
    async (request, reply) => {
      const { user } = await requireAdmin(request, db, SUPER_ADMIN_ROLE);
      await removeSubAdmin({ db, actor: user, userId: request.params.userId });
      return reply.status(204).send(null);
    },
  );
};
