import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { payoutSetupLinkSchema, payoutSetupSchema } from '#shared/schemas/earnings.ts';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import { requireRole } from '../../http/session.ts';
import type { StripeGateway } from '../../platform/payments/stripe.ts';
import { payoutSetupAfterReturn, startPayoutSetup } from './stripe-connect.ts';

// Earnings' payout set-up under PAYMENTS_PROVIDER=stripe (docs/decisions/0053), registered under it only.

const tags = ['earnings'];

export const stripeConnectRoutes: FastifyPluginAsyncZod<{
  db: Database;
  stripe: StripeGateway;
  publicUrl: string;
  /** Called when a tutor's payouts turn out enabled, so their waiting transfers go now. */
  onPayoutsEnabled: () => void;
}> = async (app, { db, stripe, publicUrl, onPayoutsEnabled }) => {
  app.post(
    '/api/earnings/payout-setup',
    {
      schema: {
        summary: 'Set up payouts: the address of Stripe’s onboarding for the teacher’s connected account',
        description:
          'The Express account is made once per teacher; each call answers a new one-time address, which brings the ' +
          'teacher back to Earnings. Without the adult confirmation: 403 ADULT_CONFIRMATION_REQUIRED; too many in an ' +
          'hour: 429 RATE_LIMITED; Stripe not answering: 502 PAYOUT_SETUP_FAILED.',
        tags,
        response: { 200: payoutSetupLinkSchema },
      },
    },
    async (request, reply) => {
      const tutor = await requireRole(request, 'teacher');
      reply.header('cache-control', 'no-store');
      try {
        return await startPayoutSetup({ db, stripe, tutorId: tutor.id, publicUrl });
      } catch (error) {
        if (error instanceof AppError) throw error;
        request.log.error({ err: error, tutorId: tutor.id }, 'Stripe did not set up the connected account');
        throw new AppError('PAYOUT_SETUP_FAILED');
      }
    },
  );

  app.get(
    '/api/earnings/payout-setup',
    {
      schema: {
        summary: 'The teacher’s payout set-up, asked of Stripe on their return from Stripe’s onboarding',
        description:
          'What Stripe last told (account.updated keeps it). With `from=onboarding`, or when Stripe has told nothing ' +
          'yet, Stripe is asked now and its answer kept, a bounded number of times per teacher (past it, the kept ' +
          'state). Not set up yet: 404; Stripe not answering: 502 PAYOUT_SETUP_FAILED.',
        tags,
        querystring: z.object({ from: z.literal('onboarding').optional() }),
        response: { 200: payoutSetupSchema },
      },
    },
    async (request, reply) => {
      const tutor = await requireRole(request, 'teacher');
      reply.header('cache-control', 'no-store');
      const backFromOnboarding = request.query.from === 'onboarding';
      const setup = await payoutSetupAfterReturn({ db, stripe, tutorId: tutor.id, backFromOnboarding }).catch(
        (error: unknown) => {
          if (error instanceof AppError) throw error;
          request.log.error({ err: error, tutorId: tutor.id }, 'Stripe did not tell the connected account');
          throw new AppError('PAYOUT_SETUP_FAILED');
        },
      );
      if (setup.payoutsEnabled) onPayoutsEnabled();
      return setup;
    },
  );
};
