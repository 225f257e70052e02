import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createReportAnswerSchema, createReportSchema, reportTargetSchema } from '#shared/schemas/reports.ts';
import type { Database } from '../../db/client.ts';
import { requireUser } from '../../http/session.ts';
import { enforceUserLimit } from '../../platform/limits/usage-limits.ts';
import { createReport, getReportTarget } from './service.ts';

const tags = ['reports'];

export const reportsRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/reports/targets/:userId',
    {
      schema: {
        summary: 'Who the report form is about (name and avatar)',
        description:
          'Yourself: 400; an admin: 403; an unknown user or a system account: 404, each with a message to show.',
        tags,
        params: z.object({ userId: z.uuid() }),
        response: { 200: reportTargetSchema },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      reply.header('cache-control', 'no-store');
      return getReportTarget({ db, reporterId: user.id, userId: request.params.userId });
    },
  );

  app.post(
    '/api/reports',
    {
      schema: {
        summary: 'Report a user to the admins',
        description:
          '201 with a new report, or 200 when the caller’s earlier report on this user is still pending: the details are added to it. Same refusals as the target route.',
        tags,
        body: createReportSchema,
        response: { 200: createReportAnswerSchema, 201: createReportAnswerSchema },
      },
      onRequest: async (request) => {
        await enforceUserLimit(db, (await requireUser(request)).id, 'reports');
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const answer = await createReport({ db, reporterId: user.id, input: request.body });
      return reply.status(answer.merged ? 200 : 201).send(answer);
    },
  );
};
