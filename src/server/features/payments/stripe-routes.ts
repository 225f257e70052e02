import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { checkoutMessages, checkoutSchema } from '#shared/schemas/checkouts.ts';
import type { Operator } from '#shared/schemas/payments.ts';
import { stripePaymentIntentSchema, stripePaymentSchema } from '#shared/schemas/stripe-checkouts.ts';
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { checkouts } from '../../db/schema/payments.ts';
import { tutoringRequests } from '../../db/schema/requests.ts';
import { AppError, fieldError } from '../../http/errors.ts';
import { requireRole } from '../../http/session.ts';
import type { StripeGateway } from '../../platform/payments/stripe.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import { getCheckout } from './checkouts.ts';
import { acceptPaidOfferFor } from './paid-offer.ts';
import { recordStripePayment, stripePaymentIntentFor } from './stripe-checkouts.ts';

// The checkout's Stripe routes (docs/decisions/0051), registered under PAYMENTS_PROVIDER=stripe only.

const tags = ['payments'];
const checkoutParams = z.object({ id: z.uuid() });

export const stripeCheckoutRoutes: FastifyPluginAsyncZod<{
  db: Database;
  realtime: Realtime;
  publicUrl: string;
  operator: Operator;
  stripe: StripeGateway;
}> = async (app, { db, realtime, publicUrl, operator, stripe }) => {
  const acceptPaidOffer = acceptPaidOfferFor({ realtime, publicUrl, operator });

  /** The student's own Stripe checkout with its request's type and deadline; anyone else's, or another kind: 404. */
  const ownStripeCheckout = async (studentId: string, checkoutId: string) => {
    const [found] = await db
      .select({
        checkout: checkouts,
        pastHold: sql<boolean>`${checkouts.expiresAt} <= now()`,
        type: tutoringRequests.type,
        deadline: tutoringRequests.deadline,
      })
      .from(checkouts)
      .innerJoin(tutoringRequests, eq(tutoringRequests.id, checkouts.requestId))
      .where(and(eq(checkouts.id, checkoutId), eq(checkouts.studentId, studentId), eq(checkouts.provider, 'stripe')));
    if (!found) throw new AppError('NOT_FOUND', { message: 'Checkout not found' });
    return found;
  };

  app.post(
    '/api/checkouts/:id/stripe-payment',
    {
      schema: {
        summary:
          "Start or resume paying a checkout with Stripe: the PaymentIntent's client secret for the Payment Element",
        description:
          "The PaymentIntent is made once per checkout, for the checkout's amount. An assignment without a deadline " +
          'needs `deadline` (400 otherwise) on the first call, kept with the checkout and shown as the ' +
          "request's deadline on it. Anyone else's checkout: 404; a paid, lapsed or " +
          'cancelled one 409 CHECKOUT_CLOSED; Stripe not answering 502 PAYMENT_PROVIDER_FAILED.',
        tags,
        params: checkoutParams,
        body: stripePaymentSchema,
        response: { 200: stripePaymentIntentSchema },
      },
    },
    async (request, reply) => {
      const student = await requireRole(request, 'student');
      const { checkout, pastHold, type, deadline } = await ownStripeCheckout(student.id, request.params.id);
      if (checkout.status !== 'awaiting_payment' || pastHold) throw new AppError('CHECKOUT_CLOSED');
      // Asked once: a student back from a refused card or 3-D Secure pays on under the deadline they set.
      if (type === 'assignment' && !deadline && !checkout.deadline) {
        if (!request.body.deadline) throw fieldError('deadline', checkoutMessages.deadlineRequired);
        await db
          .update(checkouts)
          .set({ deadline: new Date(request.body.deadline) })
          .where(eq(checkouts.id, checkout.id));
      }
      reply.header('cache-control', 'no-store');
      const { clientSecret } = await stripePaymentIntentFor({ db, stripe, checkout }).catch((error: unknown) => {
        request.log.error({ err: error, checkoutId: checkout.id }, 'Stripe did not make the PaymentIntent');
        throw new AppError('PAYMENT_PROVIDER_FAILED');
      });
      return { clientSecret, publishableKey: stripe.publishableKey };
    },
  );

  app.post(
    '/api/checkouts/:id/stripe-paid',
    {
      schema: {
        summary: 'The student confirmed the payment with Stripe: the server asks Stripe and records it',
        description:
          'The payment is recorded once, by this call or by the webhook, whichever comes first; the paid checkout ' +
          'accepts the offer. Stripe still processing (or not answering, or the webhook recording it meanwhile): ' +
          "202 with the checkout still awaiting payment. Anyone else's checkout: 404; a lapsed or cancelled one 409 " +
          'CHECKOUT_CLOSED.',
        tags,
        params: checkoutParams,
        response: { 200: checkoutSchema, 202: checkoutSchema },
      },
    },
    async (request, reply) => {
      const student = await requireRole(request, 'student');
      const checkoutId = request.params.id;
      const { checkout } = await ownStripeCheckout(student.id, checkoutId);
      if (checkout.status === 'awaiting_payment') {
        await recordStripePayment({ db, stripe, checkoutId, acceptPaidOffer }).catch((error: unknown) => {
          request.log.error({ err: error, checkoutId }, 'Stripe did not tell the payment');
        });
      }
      const view = await getCheckout({ db, studentId: student.id, checkoutId });
      if (view.status === 'paid') return view;
      // Not paid yet is an answer, not a failure: the page asks again, and the webhook records it meanwhile.
      if (view.status === 'awaiting_payment') return reply.code(202).send(view);
      throw new AppError('CHECKOUT_CLOSED');
    },
  );
};
