import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminAccountDeletionPageSchema, adminAccountDeletionQuerySchema } from '#shared/schemas/account-deletion.ts';
import type { Database } from '../../../db/client.ts';
import { listAccountDeletions } from '../../account/service.ts';
import { requireAdmin } from '../service.ts';
import { tags } from './params.ts';

/** Accounts their owners deleted: the requests and the erasures, never the erased data. */
export const adminAccountDeletionsRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/admin/account-deletions',
    {
      schema: {
        summary: 'Account deletions, newest first: pending, restored and erased',
        description: 'The user by id, and by username only until the erasure. Page with the cursor. Needs users.',
        tags,
        querystring: adminAccountDeletionQuerySchema,
        response: { 200: adminAccountDeletionPageSchema },
      },
    },
    async (request) => {
      await requireAdmin(request, db, 'users');
      return listAccountDeletions({ db, cursor: request.query.cursor });
    },
  );
};
