import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { failedStripeTransfersSchema } from '#shared/schemas/admin-payments.ts';
import type { Database } from '../../../db/client.ts';
import { noContentAnswer } from '../../../http/openapi.ts';
import { listFailedStripeTransfers, retryStripeTransfer } from '../../payments/service.ts';
import { recordAdminAction } from '../audit.ts';
import { requireAdmin } from '../service.ts';
import { idParams, tags } from './params.ts';

/** The Payments section's failed Stripe transfers (docs/decisions/0053): a tutor's share Stripe would not take. */
export const adminStripeTransfersRoutes: FastifyPluginAsyncZod<{ db: Database; onRetried: () => void }> = async (
  app,
  { db, onRetried },
) => {
  app.get(
    '/api/admin/payments/failed-transfers',
    {
      schema: {
        summary: 'Transfers of tutors’ shares to Stripe that failed, oldest first, with Stripe’s last answer',
        description: 'Refused by Stripe, or failed every try; empty unless PAYMENTS_PROVIDER=stripe. Needs payments.',
        tags,
        response: { 200: failedStripeTransfersSchema },
      },
    },
    async (request) => {
      await requireAdmin(request, db, 'payments');
      return listFailedStripeTransfers(db);
    },
  );

  app.post(
    '/api/admin/payments/failed-transfers/:id/retry',
    {
      schema: {
        summary: 'Try a failed transfer again: it is made at once under a new idempotency key',
        description:
          'A transfer an earlier try made after all is recorded rather than made again. Audited in the same ' +
          'transaction. Unknown transfer: 404; not failed: 409. Needs payments.',
        tags,
        params: idParams,
        response: { 204: noContentAnswer },
      },
    },
    async (request, reply) => {
      const { user } = await requireAdmin(request, db, 'payments');
      await db.transaction(async (tx) => {
        const { before, after } = await retryStripeTransfer({ db: tx, transferId: request.params.id });
        await recordAdminAction(tx, {
          actor: user,
          action: 'payments.stripe_transfer_retried',
          objectType: 'stripe_transfer',
          objectId: before.id,
          before: { status: before.status, attempts: before.attempts, lastError: before.lastError },
          after: { status: after.status, retries: after.retries, amountCents: after.amountCents },
        });
      });
      // Committed: the transfer is due now, and is made at once rather than at the work's next pass.
      onRetried();
      return reply.status(204).send(null);
    },
  );
};
