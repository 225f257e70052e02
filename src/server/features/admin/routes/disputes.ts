import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  chargebackSchema,
  disputeEvidenceSchema,
  disputeSchema,
  refundDecisionSchema,
  refundRequestParamsSchema,
  refundRequestSchema,
} from '#shared/schemas/refunds.ts';
import type { Database } from '../../../db/client.ts';
import {
  decideRefundRequest,
  getDisputeEvidence,
  listChargebacks,
  listDisputes,
  type RefundContext,
} from '../../payments/service.ts';
import { recordAdminAction } from '../audit.ts';
import { requireAdmin } from '../service.ts';
import { tags } from './params.ts';

/** The disputes queue of the Payments section: refund requests contested or left unanswered, and their decision. */
export const adminDisputesRoutes: FastifyPluginAsyncZod<{ db: Database; refunds: RefundContext }> = async (
  app,
  { db, refunds },
) => {
  app.get(
    '/api/admin/payments/disputes',
    {
      schema: {
        summary: 'Refund requests waiting for an admin, oldest first, and chargebacks opened at Stripe',
        description:
          'Refund requests contested by the tutor, or unanswered for 3 days. Chargebacks (under Stripe): the open ' +
          'ones first, each with its job frozen until Stripe closes it. Needs payments.',
        tags,
        response: {
          200: z.object({ disputes: z.array(disputeSchema), chargebacks: z.array(chargebackSchema) }),
        },
      },
    },
    async (request) => {
      await requireAdmin(request, db, 'payments');
      const [disputes, chargebacks] = await Promise.all([listDisputes({ db }), listChargebacks(db)]);
      return { disputes, chargebacks };
    },
  );

  app.get(
    '/api/admin/payments/disputes/:refundRequestId',
    {
      schema: {
        summary: 'A refund request with its evidence',
        description:
          'The job’s deadline and delivered mark, each session’s joins, and the pair’s chat. Needs payments.',
        tags,
        params: refundRequestParamsSchema,
        response: { 200: disputeEvidenceSchema },
      },
    },
    async (request) => {
      await requireAdmin(request, db, 'payments');
      return getDisputeEvidence({ db, refundRequestId: request.params.refundRequestId });
    },
  );

  app.post(
    '/api/admin/payments/disputes/:refundRequestId/decision',
    {
      schema: {
        summary: 'Decide a refund request: full, partial (the rest is released to the tutor) or no refund, with a note',
        description: 'Audited in the deciding transaction. Needs payments. Already decided: 409.',
        tags,
        params: refundRequestParamsSchema,
        body: refundDecisionSchema,
        response: { 200: refundRequestSchema },
      },
    },
    async (request) => {
      const { user } = await requireAdmin(request, db, 'payments');
      return decideRefundRequest({
        db,
        ctx: refunds,
        admin: user,
        refundRequestId: request.params.refundRequestId,
        input: request.body,
        audit: ({ db: tx, before, after }) =>
          recordAdminAction(tx, {
            actor: user,
            action: 'refund_decided',
            objectType: 'refund_request',
            objectId: before.id,
            before,
            after,
          }),
      });
    },
  );
};
