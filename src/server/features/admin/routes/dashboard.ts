import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminAccessSchema, adminStatsSchema } from '#shared/schemas/admin.ts';
import type { Database } from '../../../db/client.ts';
import { getAdminStats, readAdminAccess, requireAdmin } from '../service.ts';
import { tags } from './params.ts';

/** Dashboard: who the admin is, and the counters. */
export const adminDashboardRoutes: FastifyPluginAsyncZod<{ db: Database; takesPayments: boolean }> = async (
  app,
  { db, takesPayments },
) => {
  app.get(
    '/api/admin/me',
    {
      schema: {
        summary: 'The signed-in admin’s role, permissions and second factor',
        description:
          'Signed out: 401; a user without an admin role: 403 (the admin login then signs them out). Answers before a required second factor is set up, so the panel can ask for it; every other admin route answers 403 until then.',
        tags,
        response: { 200: adminAccessSchema },
      },
    },
    async (request) => (await readAdminAccess(request, db)).access,
  );

  app.get(
    '/api/admin/stats',
    {
      schema: {
        summary: 'Dashboard counters',
        description:
          'Total Chats (chat rooms), Total Users (accounts, without system accounts), Active Reports (pending user reports), Flagged Content (pending illegal-content flags); with the payments permission too, on a site that takes payments, revenue (the commission account) and the money held for jobs. Needs the dashboard permission.',
        tags,
        response: { 200: adminStatsSchema },
      },
    },
    async (request) => {
      const { access } = await requireAdmin(request, db, 'dashboard');
      return getAdminStats(db, access, { takesPayments });
    },
  );
};
