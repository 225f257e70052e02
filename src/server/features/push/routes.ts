import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createPushSubscriptionSchema,
  pushDeviceListSchema,
  pushPublicKeySchema,
  pushSubscriptionSchema,
} from '#shared/schemas/push.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { requireSession, requireUser } from '../../http/session.ts';
import { runClaimedWorkWhileUp } from '../../platform/jobs/claimed-work.ts';
import { resolveVapidKeys } from '../../system/vapid-keys.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import { trackVisibleTabs } from './presence.ts';
import { createPushSender } from './sender.ts';
import { createPushSubscription, deletePushSubscription, listPushDevices, pushDeliveryWork } from './service.ts';

const tags = ['push'];

/** How often each node looks for queued pushes. */
const DELIVERY_INTERVAL_MS = 2_000;

/** Web Push: devices subscribe and unsubscribe here; queued pushes are sent by one node each while the app is up. */
export const pushRoutes: FastifyPluginAsyncZod<{
  db: Database;
  realtime: Realtime;
  config: Pick<Config, 'dataDir' | 'push'>;
}> = async (app, { db, realtime, config }) => {
  const keys = resolveVapidKeys(config);
  const testOrigin = config.push.testEndpointOrigin;
  const sender = createPushSender({ keys, subject: config.push.subject, testOrigin });
  runClaimedWorkWhileUp(app, {
    db,
    work: pushDeliveryWork({ db, send: sender }),
    intervalMs: DELIVERY_INTERVAL_MS,
    log: app.log,
  });
  const tabs = trackVisibleTabs({ db, realtime, log: app.log });
  app.addHook('onClose', async () => tabs.stop());

  app.get(
    '/api/push/public-key',
    {
      schema: {
        summary: 'The server’s VAPID public key, for a browser’s push subscription',
        tags,
        response: { 200: pushPublicKeySchema },
      },
    },
    async (request) => {
      await requireUser(request);
      return { publicKey: keys.publicKey };
    },
  );

  app.post(
    '/api/push/subscriptions',
    {
      schema: {
        summary: 'Keep this device’s push subscription (replacing what was kept for its endpoint)',
        description:
          'The endpoint must be an https address whose host resolves only to public addresses: 400 otherwise. The subscription ends with the session that made it.',
        tags,
        body: createPushSubscriptionSchema,
        response: { 201: pushSubscriptionSchema },
      },
    },
    async (request, reply) => {
      const { user, sessionId } = await requireSession(request);
      const subscription = await createPushSubscription({
        db,
        userId: user.id,
        sessionId,
        input: request.body,
        testOrigin,
      });
      return reply.status(201).send(subscription);
    },
  );

  app.get(
    '/api/push/subscriptions',
    {
      schema: {
        summary: 'The signed-in user’s devices that receive pushes, newest first, this browser’s marked',
        tags,
        response: { 200: pushDeviceListSchema },
      },
    },
    async (request, reply) => {
      const { user, sessionId } = await requireSession(request);
      reply.header('cache-control', 'no-store');
      return listPushDevices({ db, userId: user.id, sessionId });
    },
  );

  app.delete(
    '/api/push/subscriptions/:id',
    {
      schema: {
        summary: 'Forget one of the signed-in user’s push subscriptions (another user’s: 404)',
        tags,
        params: z.object({ id: z.uuid() }),
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      await deletePushSubscription({ db, userId: user.id, id: request.params.id });
      return reply.status(204).send(null);
    },
  );
};
