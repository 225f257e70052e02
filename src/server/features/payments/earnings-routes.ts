import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { adultConfirmationSchema, earningsSchema, payoutSchema } from '#shared/schemas/earnings.ts';
import type { Database } from '../../db/client.ts';
import { requireRole } from '../../http/session.ts';
import { confirmAdultForPayouts, getEarnings, requestPayout, type Payouts } from './earnings.ts';

const tags = ['earnings'];

/** The tutor's side of payments: earnings, the adult confirmation and payouts (teachers only). */
export const earningsRoutes: FastifyPluginAsyncZod<{
  db: Database;
  commissionBasisPoints: number;
  payouts: Payouts;
}> = async (app, { db, commissionBasisPoints, payouts }) => {
  app.get(
    '/api/earnings',
    {
      schema: {
        summary: 'The signed-in teacher’s earnings: pending, available, paid out, each paid job and each payout',
        tags,
        response: { 200: earningsSchema },
      },
    },
    async (request, reply) => {
      const tutor = await requireRole(request, 'teacher');
      reply.header('cache-control', 'no-store');
      return getEarnings({ db, tutorId: tutor.id, commissionBasisPoints, provider: payouts.provider });
    },
  );

  app.post(
    '/api/earnings/adult-confirmation',
    {
      schema: {
        summary: 'The teacher confirms being 18 or older, which a payout needs',
        description: 'Confirming again keeps the first confirmation’s time.',
        tags,
        body: adultConfirmationSchema,
        response: { 200: z.object({ adultConfirmedAt: z.iso.datetime({ offset: true }) }) },
      },
    },
    async (request) => {
      const tutor = await requireRole(request, 'teacher');
      return confirmAdultForPayouts({ db, tutorId: tutor.id });
    },
  );

  app.post(
    '/api/earnings/payouts',
    {
      schema: {
        summary: 'Pay out the whole available balance',
        description:
          'The amount is the available balance, read on the server. The `test` provider pays at once; under `manual` the payout stays requested until an admin records it; under `stripe` there is no payout request (404): released earnings are transferred to the tutor’s Stripe account. ' +
          'Without the adult confirmation: 403 ADULT_CONFIRMATION_REQUIRED; nothing available: 409 NOTHING_TO_PAY_OUT; a payout still requested: 409 PAYOUT_IN_PROGRESS.',
        tags,
        headers: z.object({
          'idempotency-key': z
            .uuid({ error: 'The Idempotency-Key header must be a UUID' })
            .meta({ description: 'A UUID per press of the button: sending it again answers with the same payout' }),
        }),
        body: z.object({}).optional(),
        response: { 200: payoutSchema },
      },
    },
    async (request) => {
      const tutor = await requireRole(request, 'teacher');
      return requestPayout({ db, payouts, tutorId: tutor.id, idempotencyKey: request.headers['idempotency-key'] });
    },
  );
};
