import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SUPER_ADMIN_ROLE } from '#shared/constants.ts';
import { auditLogPageSchema, auditLogQuerySchema } from '#shared/schemas/admin.ts';
import type { Database } from '../../../db/client.ts';
import { listAuditLog } from '../audit.ts';
import { requireAdmin } from '../service.ts';
import { tags } from './params.ts';

/** The audit log, read-only, for the super-admin only. */
export const adminAuditLogRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/admin/audit-log',
    {
      schema: {
        summary: 'The audit log of admin actions, newest first',
        description:
          'Who did what to which object, when, with the object before and after. Read-only. The super-admin only.',
        tags,
        querystring: auditLogQuerySchema,
        response: { 200: auditLogPageSchema },
      },
    },
    async (request) => {
      await requireAdmin(request, db, SUPER_ADMIN_ROLE);
      return listAuditLog({ db, ...request.query });
    },
  );
};
