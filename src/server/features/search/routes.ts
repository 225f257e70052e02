import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { vhSearchAnswerSchema, vhSearchQuerySchema, VH_SEARCH_KINDS } from '#shared/schemas/search.ts';
import type { Database } from '../../db/client.ts';
import { requireRole, requireUser } from '../../http/session.ts';
import { enforceUserLimit } from '../../platform/limits/usage-limits.ts';
import { searchByVhNumber } from './service.ts';

const tags = ['search'];

export const searchRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  const routes = [
    {
      url: '/api/search/students',
      kind: 'students',
      summary: 'Students with this VH number (teachers only), at most 10',
      // Only teachers look students up (SPEC.md §2 /search-student).
      caller: (request: Parameters<typeof requireUser>[0]) => requireRole(request, 'teacher'),
    },
    {
      url: '/api/search/experts',
      kind: 'experts',
      summary: 'Teachers with this VH number, at most 10',
      caller: requireUser,
    },
  ] as const;

  for (const { url, kind, summary, caller } of routes) {
    app.get(
      url,
      {
        schema: {
          summary,
          description:
            'vh: three digits (surrounding spaces ignored), else 400 with the search message. Counted against the caller’s search limit (429 past it), also when invalid, so the 900 numbers cannot be walked.',
          tags,
          querystring: vhSearchQuerySchema,
          response: { 200: vhSearchAnswerSchema },
        },
        // Who may search and how often is settled before the input is even looked at.
        onRequest: async (request) => {
          await enforceUserLimit(db, (await caller(request)).id, 'vhSearches');
        },
      },
      async (request, reply) => {
        const user = await requireUser(request);
        reply.header('cache-control', 'no-store');
        const results = await searchByVhNumber({
          db,
          searcherId: user.id,
          vhNumber: Number(request.query.vh),
          role: VH_SEARCH_KINDS[kind].role,
        });
        return { results };
      },
    );
  }
};
