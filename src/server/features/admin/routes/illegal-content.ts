import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminFlagSchema,
  adminFlagsPageSchema,
  adminFlagsQuerySchema,
  decideFlagSchema,
  repeatedSendersSchema,
} from '#shared/schemas/admin.ts';
import type { Database } from '../../../db/client.ts';
import { listRepeatedSenders } from '../../moderation/service.ts';
import { decideFlag, listFlags } from '../moderation-queue.ts';
import { requireAdmin } from '../service.ts';
import { idParams, tags } from './params.ts';

/** Illegal Content: flags of refused messages and the users who try again and again. */
export const adminIllegalContentRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/admin/flags',
    {
      schema: {
        summary: 'Illegal Content: flags of blocked messages, newest first',
        description: 'Filter by status, order by Created At, page with the cursor. Needs content.',
        tags,
        querystring: adminFlagsQuerySchema,
        response: { 200: adminFlagsPageSchema },
      },
    },
    async (request) => {
      await requireAdmin(request, db, 'content');
      return listFlags({ db, ...request.query });
    },
  );

  app.get(
    '/api/admin/flags/repeated-senders',
    {
      schema: {
        summary: 'Illegal Content: users with repeated refused attempts',
        description:
          'Users with 3 or more refused attempts to send a text in the last 24 hours (every attempt counted, the flags stop at 3 an hour for each user), most first, with their latest flag. Needs content.',
        tags,
        response: { 200: repeatedSendersSchema },
      },
    },
    async (request) => {
      await requireAdmin(request, db, 'content');
      return { items: await listRepeatedSenders({ db }) };
    },
  );

  app.post(
    '/api/admin/flags/:id/decision',
    {
      schema: {
        summary: 'Review or dismiss a flag with a note',
        description: 'Unknown flag: 404; already decided: 409. Needs content.',
        tags,
        params: idParams,
        body: decideFlagSchema,
        response: { 200: adminFlagSchema },
      },
    },
    async (request) => {
      const { user } = await requireAdmin(request, db, 'content');
      return decideFlag({ db, actor: user, flagId: request.params.id, input: request.body });
    },
  );
};
