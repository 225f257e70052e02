import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adjustmentInputSchema, adjustmentSchema } from '#shared/schemas/admin-payments.ts';
import { jobParamsSchema } from '#shared/schemas/refunds.ts';
import type { Database } from '../../../db/client.ts';
import { adjustReleasedJob, type RefundContext } from '../../payments/service.ts';
import { recordAdminAction } from '../audit.ts';
import { requireAdmin } from '../service.ts';
import { tags } from './params.ts';

/** Adjustments after release (docs/decisions/0066): money of a released job given back to its student. */
export const adminAdjustmentsRoutes: FastifyPluginAsyncZod<{ db: Database; refunds: RefundContext }> = async (
  app,
  { db, refunds },
) => {
  app.post(
    '/api/admin/payments/jobs/:requestId/adjustment',
    {
      schema: {
        summary: 'Give part or all of a released job’s money back to its student, taken back from the tutor',
        description:
          'The provider refunds the student at once; the tutor’s part (as the release split it) leaves their ' +
          'earnings and the commission on those cents the platform’s. Under Stripe a transfer already made is ' +
          'reversed for the tutor’s part; where Stripe refuses (the account was paid out), tutorOutcome is ' +
          'owed_by_tutor: their balance is below zero and later shares pay it back first. Audited in the same ' +
          'transaction. Unknown job: 404; not released in full, adjusted already or with a chargeback: 409; more than ' +
          'was paid: 400. Needs payments.',
        tags,
        params: jobParamsSchema,
        body: adjustmentInputSchema,
        response: { 200: adjustmentSchema },
      },
    },
    async (request) => {
      const { user } = await requireAdmin(request, db, 'payments');
      return adjustReleasedJob({
        db,
        ctx: refunds,
        admin: user,
        requestId: request.params.requestId,
        input: request.body,
        audit: ({ db: tx, adjustment }) =>
          recordAdminAction(tx, {
            actor: user,
            action: 'payments.adjustment_made',
            objectType: 'payment_adjustment',
            objectId: adjustment.id,
            before: { requestId: adjustment.requestId },
            after: {
              amountCents: adjustment.amountCents,
              tutorCents: adjustment.tutorCents,
              commissionCents: adjustment.commissionCents,
              note: adjustment.note,
            },
          }),
      });
    },
  );
};
