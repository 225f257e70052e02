import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  answerRefundSchema,
  askForRefundSchema,
  jobParamsSchema,
  jobRefundsSchema,
  refundRequestParamsSchema,
  refundRequestSchema,
} from '#shared/schemas/refunds.ts';
import type { Database } from '../../db/client.ts';
import { requireRole, requireUser } from '../../http/session.ts';
import type { RefundContext } from './refund-jobs.ts';
import { getJobRefunds } from './refund-views.ts';
import { answerCancellation, answerRefundRequest, askForRefund, cancelJob } from './refunds.ts';

const tags = ['payments'];

/** A job's refunds: the student's request and the tutor's answer, a tutor's withdrawal, and an agreed cancellation. */
export const refundRoutes: FastifyPluginAsyncZod<{ db: Database; ctx: RefundContext }> = async (app, { db, ctx }) => {
  app.get(
    '/api/refunds/jobs/:requestId',
    {
      schema: {
        summary: "A job's refunds, for its student and tutor (anyone else: 404)",
        description: 'The money state, the sessions of the job with the tutor’s first Join, and the latest request.',
        tags,
        params: jobParamsSchema,
        response: { 200: jobRefundsSchema },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      reply.header('cache-control', 'no-store');
      return getJobRefunds({ db, userId: user.id, requestId: request.params.requestId });
    },
  );

  app.post(
    '/api/refunds/jobs/:requestId',
    {
      schema: {
        summary: 'Ask for a refund of a job whose money is held (its student only)',
        description:
          'reason: missed_session (with meetingId: not cancelled and no Join by the tutor within 15 minutes of its start) or missed_deadline. Any other reason: 400 with the terms’ wording. Not held (not paid here, released, refunded, a request open): 409. The money is frozen and the tutor has 3 days to answer.',
        tags,
        params: jobParamsSchema,
        body: askForRefundSchema,
        response: { 201: refundRequestSchema },
      },
    },
    async (request, reply) => {
      const student = await requireRole(request, 'student');
      const asked = await askForRefund({ db, ctx, student, requestId: request.params.requestId, input: request.body });
      return reply.status(201).send(asked);
    },
  );

  // Two ways to end a job whose money is held, which differ only in who may and in what follows.
  const endings = [
    {
      path: 'withdraw',
      how: 'withdraw',
      summary: 'The tutor withdraws from a job whose money is held: the student gets all of it back at once',
    },
    {
      path: 'cancellation',
      how: 'propose',
      summary: 'The student or tutor proposes to cancel a job whose money is held; the other agrees or declines',
    },
  ] as const;
  for (const { path, how, summary } of endings) {
    app.post(
      `/api/refunds/jobs/:requestId/${path}`,
      {
        schema: {
          summary,
          tags,
          params: jobParamsSchema,
          body: z.object({}).optional(),
          response: { 201: refundRequestSchema },
        },
      },
      async (request, reply) => {
        const user = await requireUser(request);
        const row = await cancelJob({ db, ctx, user, requestId: request.params.requestId, how });
        return reply.status(201).send(row);
      },
    );
  }

  app.post(
    '/api/refunds/requests/:refundRequestId/answer',
    {
      schema: {
        summary: "The tutor accepts (full refund at once) or contests (admins decide) a student's refund request",
        tags,
        params: refundRequestParamsSchema,
        body: answerRefundSchema,
        response: { 200: refundRequestSchema },
      },
    },
    async (request) => {
      const tutor = await requireUser(request);
      return answerRefundRequest({
        db,
        ctx,
        tutor,
        refundRequestId: request.params.refundRequestId,
        input: request.body,
      });
    },
  );

  app.post(
    '/api/refunds/requests/:refundRequestId/cancellation',
    {
      schema: {
        summary: 'The other person agrees to (full refund at once) or declines a proposal to cancel',
        tags,
        params: refundRequestParamsSchema,
        body: z.object({ agree: z.boolean({ error: 'Choose to agree or decline.' }) }),
        response: { 200: refundRequestSchema },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return answerCancellation({
        db,
        ctx,
        user,
        refundRequestId: request.params.refundRequestId,
        agree: request.body.agree,
      });
    },
  );
};
