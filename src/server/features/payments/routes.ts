import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { checkoutSchema, payCheckoutSchema } from '#shared/schemas/checkouts.ts';
import {
  paymentParamsSchema,
  paymentsPageSchema,
  paymentsQuerySchema,
  receiptSchema,
  type Operator,
} from '#shared/schemas/payments.ts';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import { requireRole } from '../../http/session.ts';
import { runClaimedWorkWhileUp } from '../../platform/jobs/claimed-work.ts';
import type { StripeGateway } from '../../platform/payments/stripe.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import { cancelCheckout, getCheckout, payCheckout } from './checkouts.ts';
import { acceptPaidOfferFor } from './paid-offer.ts';
import { stripeConnectRoutes } from './stripe-connect-routes.ts';
import { stripeCheckoutRoutes } from './stripe-routes.ts';
import { stripeEventWork, stripeWebhookRoutes } from './stripe-webhook.ts';
import { getReceipt, listStudentPayments } from './student-payments.ts';

const tags = ['payments'];
const checkoutParams = z.object({ id: z.uuid() });

export const paymentsRoutes: FastifyPluginAsyncZod<{
  db: Database;
  realtime: Realtime;
  publicUrl: string;
  /** False under `none`: nothing is paid, so there is no list of payments either. */
  takesPayments: boolean;
  operator: Operator;
  /** Tests only: hold each pay between the provider's confirmation and its record (the crash test kills it there). */
  pauseBeforeRecord: boolean;
  /** Under PAYMENTS_PROVIDER=stripe: who is asked about a checkout's PaymentIntent. */
  stripe: StripeGateway | null;
  /** Has the transfers to tutors made now, once a tutor's payouts are enabled, rather than at the work's next pass. */
  wakeStripeTransfers: () => void;
}> = async (
  app,
  { db, realtime, publicUrl, takesPayments, operator, pauseBeforeRecord, stripe, wakeStripeTransfers },
) => {
  const acceptPaidOffer = acceptPaidOfferFor({ realtime, publicUrl, operator });
  if (stripe) {
    await app.register(stripeCheckoutRoutes, { db, realtime, publicUrl, operator, stripe });
    const eventWork = stripeEventWork({
      db,
      stripe,
      acceptPaidOffer,
      onPayoutsEnabled: wakeStripeTransfers,
      log: app.log,
    });
    const events = runClaimedWorkWhileUp(app, { db, work: eventWork, intervalMs: 60_000, log: app.log });
    await app.register(stripeWebhookRoutes, { db, stripe, onEventKept: events.wake });
    await app.register(stripeConnectRoutes, { db, stripe, publicUrl, onPayoutsEnabled: wakeStripeTransfers });
  }
  const beforeRecord = pauseBeforeRecord
    ? () => {
        app.log.warn('payment confirmed by the provider; holding before its record');
        return new Promise<void>(() => {});
      }
    : undefined;
  app.get(
    '/api/checkouts/:id',
    {
      schema: {
        summary: "A student's checkout: the amount, the tutor, what is bought, its state and the end of its hold",
        description: "Anyone else's checkout: 404.",
        tags,
        params: checkoutParams,
        response: { 200: checkoutSchema },
      },
    },
    async (request, reply) => {
      const student = await requireRole(request, 'student');
      reply.header('cache-control', 'no-store');
      return getCheckout({ db, studentId: student.id, checkoutId: request.params.id });
    },
  );

  app.post(
    '/api/checkouts/:id/pay',
    {
      schema: {
        summary: 'Pay a checkout with a card; the paid checkout accepts the offer and opens the chat with the tutor',
        description:
          'A mistyped card answers 400 and a declined one 402, each with the message for its field; nothing changes ' +
          'and the checkout stays open. A paid checkout answers again without a second charge; one being paid 409 ' +
          'PAYMENT_IN_PROGRESS; a lapsed or cancelled one 409 CHECKOUT_CLOSED; a bank-transfer checkout 409 ' +
          'PAID_BY_TRANSFER. An assignment without a deadline needs `deadline` (400 otherwise).',
        tags,
        params: checkoutParams,
        body: payCheckoutSchema,
        response: { 200: checkoutSchema },
      },
    },
    async (request) => {
      const student = await requireRole(request, 'student');
      const checkoutId = request.params.id;
      await payCheckout({
        db,
        studentId: student.id,
        checkoutId,
        card: request.body.card,
        deadline: request.body.deadline ? new Date(request.body.deadline) : null,
        acceptPaidOffer,
        beforeRecord,
      });
      return getCheckout({ db, studentId: student.id, checkoutId });
    },
  );

  app.post(
    '/api/checkouts/:id/cancel',
    {
      schema: {
        summary: 'Cancel an unpaid checkout: the request is open for offers again',
        description: 'A cancelled checkout answers the same; a paid, lapsed or paying one 409.',
        tags,
        params: checkoutParams,
        response: { 200: checkoutSchema },
      },
    },
    async (request) => {
      const student = await requireRole(request, 'student');
      await cancelCheckout({ db, studentId: student.id, checkoutId: request.params.id });
      return getCheckout({ db, studentId: student.id, checkoutId: request.params.id });
    },
  );

  app.get(
    '/api/payments',
    {
      schema: {
        summary: "The signed-in student's payments: each paid job, newest first, with its money's state",
        description: 'Pages of 20: pass `nextCursor` as `cursor` for the next. Under `PAYMENTS_PROVIDER=none`: 404.',
        tags,
        querystring: paymentsQuerySchema,
        response: { 200: paymentsPageSchema },
      },
    },
    async (request, reply) => {
      const student = await requireRole(request, 'student');
      if (!takesPayments) throw new AppError('NOT_FOUND');
      reply.header('cache-control', 'no-store');
      return listStudentPayments({ db, studentId: student.id, cursor: request.query.cursor });
    },
  );

  app.get(
    '/api/payments/:id/receipt',
    {
      schema: {
        summary: "The receipt of one of the student's payments, naming the operator, with its refunds",
        description:
          "Anyone else's payment (admins' included), a checkout not paid, or under `PAYMENTS_PROVIDER=none`: 404.",
        tags,
        params: paymentParamsSchema,
        response: { 200: receiptSchema },
      },
    },
    async (request, reply) => {
      const student = await requireRole(request, 'student');
      // A site that moved to `none` keeps its old checkouts, but no longer speaks of paying.
      if (!takesPayments) throw new AppError('NOT_FOUND');
      reply.header('cache-control', 'no-store');
      return getReceipt({ db, studentId: student.id, checkoutId: request.params.id, operator });
    },
  );
};
