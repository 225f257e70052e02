import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createPatternSchema,
  moderationPatternSchema,
  patternsPageSchema,
  patternsQuerySchema,
  setPatternActiveSchema,
} from '#shared/schemas/admin.ts';
import type { Database } from '../../../db/client.ts';
import type { Moderation } from '../../moderation/service.ts';
import { createPattern, listPatterns, setPatternActive } from '../patterns.ts';
import { requireAdmin } from '../service.ts';
import { idParams, tags } from './params.ts';

/** Moderation patterns; every change makes the chat filter read them again. */
export const adminPatternsRoutes: FastifyPluginAsyncZod<{ db: Database; moderation: Moderation }> = async (
  app,
  { db, moderation },
) => {
  app.get(
    '/api/admin/patterns',
    {
      schema: {
        summary: 'Moderation patterns, newest first',
        description: 'Filter active or inactive, order by Created At, page with the cursor. Needs patterns.',
        tags,
        querystring: patternsQuerySchema,
        response: { 200: patternsPageSchema },
      },
    },
    async (request) => {
      await requireAdmin(request, db, 'patterns');
      return listPatterns({ db, ...request.query });
    },
  );

  app.post(
    '/api/admin/patterns',
    {
      schema: {
        summary: 'Add a moderation pattern, checked and tried on a sample message first',
        description:
          'A case-insensitive regular expression that must compile, must not risk catastrophic backtracking, must block the sample within a time bound and must not match an empty message (400 with the reason). The chat filter uses it from the next message. Same pattern and category: 409. Needs patterns.',
        tags,
        body: createPatternSchema,
        response: { 201: moderationPatternSchema },
      },
    },
    async (request, reply) => {
      const { user } = await requireAdmin(request, db, 'patterns');
      const pattern = await createPattern({ db, actor: user, input: request.body });
      moderation.forgetPatterns();
      return reply.status(201).send(pattern);
    },
  );

  app.patch(
    '/api/admin/patterns/:id',
    {
      schema: {
        summary: 'Enable or disable a moderation pattern',
        description: 'The chat filter follows from the next message. Unknown pattern: 404. Needs patterns.',
        tags,
        params: idParams,
        body: setPatternActiveSchema,
        response: { 200: moderationPatternSchema },
      },
    },
    async (request) => {
      const { user } = await requireAdmin(request, db, 'patterns');
      const pattern = await setPatternActive({ db, actor: user, patternId: request.params.id, ...request.body });
      moderation.forgetPatterns();
      return pattern;
    },
  );
};
