import { eq, isNull } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database, Executor } from '../../db/client.ts';
import { checkouts, stripeEvents } from '../../db/schema/payments.ts';
import { AppError } from '../../http/errors.ts';
import type { ClaimedWork } from '../../platform/jobs/claimed-work.ts';
import { STRIPE_WORK_LEASE_MS, type StripeGateway } from '../../platform/payments/stripe.ts';
import type { AcceptPaidOffer } from './checkouts.ts';
import { recordStripePayment } from './stripe-checkouts.ts';
import { refreshConnectedAccount } from './stripe-connect.ts';
import { recordStripeDispute } from './stripe-disputes.ts';

// Stripe's webhook (docs/decisions/0051): the signature is checked on the exact bytes Stripe sent, the event's id
// kept once, and the answer given at once; claimed work processes the event afterwards, reading the object's state
// from Stripe rather than from the event, so a repeated or out-of-order event changes nothing twice. The events it
// acts on: payment_intent.succeeded, account.updated, charge.dispute.created, charge.dispute.closed and
// charge.dispute.funds_reinstated.

/** A chargeback opened, closed, or its money (and Stripe's fee) given back to the platform. */
const DISPUTE_EVENTS = new Set(['charge.dispute.created', 'charge.dispute.closed', 'charge.dispute.funds_reinstated']);

/** The object an event is about, as far as the webhook needs to know it. */
const eventObjectSchema = z.object({ id: z.string() });

export const stripeWebhookRoutes: FastifyPluginAsyncZod<{
  db: Database;
  stripe: StripeGateway;
  /** Called after a new event is kept, so the work picks it up now rather than at its next interval. */
  onEventKept: () => void;
}> = async (app, { db, stripe, onEventKept }) => {
  // The signature covers the bytes as sent: the body is kept as text here, not parsed and serialised again.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    done(null, body);
  });

  app.post(
    '/api/payments/stripe/webhook',
    {
      schema: {
        summary: "Stripe's events (payments, refunds, disputes, connected accounts), signed with the endpoint's secret",
        description:
          'A signature that does not match the body, or is older than 300 seconds: 400, nothing kept. An event id ' +
          'already kept answers the same and changes nothing.',
        tags: ['payments'],
        response: { 200: z.object({ received: z.literal(true) }) },
      },
    },
    async (request) => {
      const signature = request.headers['stripe-signature'];
      const body = typeof request.body === 'string' ? request.body : '';
      const event = stripe.verifyEvent({ body, signature: Array.isArray(signature) ? signature[0] : signature });
      if (!event) throw new AppError('VALIDATION_FAILED', { message: 'The Stripe signature does not match.' });
      const object = eventObjectSchema.safeParse(event.data.object);
      if (!object.success) throw new AppError('VALIDATION_FAILED', { message: 'The event names no object.' });
      const kept = await db
        .insert(stripeEvents)
        .values({ id: event.id, type: event.type, objectId: object.data.id })
        .onConflictDoNothing()
        .returning({ id: stripeEvents.id });
      if (kept.length > 0) onEventKept();
      return { received: true as const };
    },
  );
};

/**
 * Processes each kept event once: a succeeded PaymentIntent records its checkout's payment (if not already); a
 * connected account's update stores its state (and, payouts enabled, wakes its waiting transfers); a chargeback's
 * opening or closing records it (stripe-disputes.ts).
 */
export function stripeEventWork({
  db,
  stripe,
  acceptPaidOffer,
  onPayoutsEnabled,
  log,
}: {
  db: Database;
  stripe: StripeGateway;
  acceptPaidOffer: AcceptPaidOffer;
  /** Called when a tutor's payouts are enabled, so their waiting transfers go now. */
  onPayoutsEnabled: () => void;
  log: { error(fields: object, message: string): void };
}) {
  return {
    name: 'stripe-events',
    table: stripeEvents,
    due: isNull(stripeEvents.processedAt),
    order: stripeEvents.receivedAt,
    batchSize: 20,
    leaseMs: STRIPE_WORK_LEASE_MS,
    maxClaims: 10,
    async call(row) {
      if (row.type === 'account.updated') {
        if (await refreshConnectedAccount({ db, stripe, accountId: row.objectId })) onPayoutsEnabled();
        return;
      }
      if (DISPUTE_EVENTS.has(row.type)) {
        await recordStripeDispute({ db, stripe, disputeId: row.objectId });
        return;
      }
      if (row.type !== 'payment_intent.succeeded') return;
      const [checkout] = await db
        .select({ id: checkouts.id })
        .from(checkouts)
        .where(eq(checkouts.stripePaymentIntentId, row.objectId));
      // A PaymentIntent no checkout made here (another application on the same account) is not ours to record.
      if (!checkout) return;
      const charge = await recordStripePayment({
        db,
        stripe,
        checkoutId: checkout.id,
        acceptPaidOffer,
      });
      // Stripe has not settled the charge's fee yet: the event is processed again at the work's next run.
      if (charge?.status === 'pending') throw new Error(`PaymentIntent ${row.objectId} is not settled yet`);
    },
    async record({ db: tx, row, outcome }) {
      // A failed call leaves the event due: it is processed again once its claim lapses.
      if (outcome.ok) await markProcessed(tx, row.id);
    },
    async giveUp({ db: tx, row }) {
      log.error({ stripeEventId: row.id, type: row.type }, 'a Stripe event could not be processed; given up');
      await markProcessed(tx, row.id);
    },
  } satisfies ClaimedWork<typeof stripeEvents, void>;
}

const markProcessed = (db: Executor, id: string) =>
  db.update(stripeEvents).set({ processedAt: new Date() }).where(eq(stripeEvents.id, id));
