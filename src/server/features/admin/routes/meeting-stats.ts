import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminMeetingStatsSchema } from '#shared/schemas/admin.ts';
import type { Database } from '../../../db/client.ts';
import { getMeetingStats } from '../../meetings/service.ts';
import { requireAdmin } from '../service.ts';
import { tags } from './params.ts';

/** Meeting Statistics. */
export const adminMeetingStatsRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/admin/meetings/stats',
    {
      schema: {
        summary: 'Meeting Statistics',
        description: 'Total Meetings, Jitsi Meetings and the 5 most recently scheduled. Needs meetings.',
        tags,
        response: { 200: adminMeetingStatsSchema },
      },
    },
    async (request) => {
      await requireAdmin(request, db, 'meetings');
      return getMeetingStats({ db });
    },
  );
};
