import { and, desc, eq, sql } from 'drizzle-orm';
import { describeUserAgent } from '#shared/rules/user-agent.ts';
import type { CreatePushSubscriptionInput, PushDeviceList, PushPayload } from '#shared/schemas/push.ts';
import { pushMessages } from '#shared/schemas/push.ts';
import type { Executor } from '../../db/client.ts';
import { withoutName } from '#shared/rules/erased-name.ts';
import { naming, writeRewritten, type ErasedName } from '../../db/erased-names.ts';
import { sessions } from '../../db/schema/auth.ts';
import { pushDeliveries, pushSubscriptions } from '../../db/schema/push.ts';
import { AppError } from '../../http/errors.ts';
import type { ClaimedWork } from '../../platform/jobs/claimed-work.ts';
import { hasVisibleTab } from './presence.ts';
import { isAllowedPushEndpoint } from './public-endpoint.ts';
import type { PushSender } from './sender.ts';

/**
 * Keeps this device's subscription for the signed-in session. An endpoint names one browser: subscribing again (new
 * keys, or someone else signed in on it) replaces what was kept for it.
 */
export async function createPushSubscription({
  db,
  userId,
  sessionId,
  input,
  testOrigin,
}: {
  db: Executor;
  userId: string;
  sessionId: string;
  input: CreatePushSubscriptionInput;
  testOrigin: string | null;
}) {
  if (!(await isAllowedPushEndpoint(input.endpoint, { testOrigin }))) {
    throw new AppError('VALIDATION_FAILED', { fields: { endpoint: pushMessages.endpoint } });
  }
  const values = { userId, sessionId, p256dh: input.keys.p256dh, auth: input.keys.auth };
  const [row] = await db
    .insert(pushSubscriptions)
    .values({ ...values, endpoint: input.endpoint })
    .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: values })
    .returning({ id: pushSubscriptions.id });
  return row!;
}

/** The user's devices that receive pushes, newest first, each described from its session's browser. */
export async function listPushDevices({
  db,
  userId,
  sessionId,
}: {
  db: Executor;
  userId: string;
  sessionId: string;
}): Promise<PushDeviceList> {
  const rows = await db
    .select({
      id: pushSubscriptions.id,
      endpoint: pushSubscriptions.endpoint,
      sessionId: pushSubscriptions.sessionId,
      createdAt: pushSubscriptions.createdAt,
      userAgent: sessions.userAgent,
    })
    .from(pushSubscriptions)
    .innerJoin(sessions, eq(sessions.id, pushSubscriptions.sessionId))
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(desc(pushSubscriptions.createdAt));
  return {
    devices: rows.map((row) => ({
      id: row.id,
      endpoint: row.endpoint,
      ...describeUserAgent(row.userAgent),
      createdAt: row.createdAt.toISOString(),
      isCurrent: row.sessionId === sessionId,
    })),
  };
}

/** Forgets one of the user's subscriptions; someone else's is not found. */
export async function deletePushSubscription({ db, userId, id }: { db: Executor; userId: string; id: string }) {
  const deleted = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.id, id), eq(pushSubscriptions.userId, userId)))
    .returning({ id: pushSubscriptions.id });
  if (deleted.length === 0) throw new AppError('NOT_FOUND');
}

/**
 * Queues a push to each device of these users, in the caller's transaction, one statement for any number of users; a
 * user with a tab of the app open and shown (on any node) is told there instead. The delivery work sends them.
 */
export async function queuePushes(db: Executor, { userIds, payload }: { userIds: string[]; payload: PushPayload }) {
  if (userIds.length === 0) return;
  await db.execute(sql`
    insert into ${pushDeliveries} (subscription_id, payload)
    select ${pushSubscriptions.id}, ${JSON.stringify(payload)}::jsonb from ${pushSubscriptions}
    where ${pushSubscriptions.userId} = any(${sql.param(userIds)}::uuid[])
      and not ${hasVisibleTab(pushSubscriptions.userId)}`);
}

/** A push service's answer that the subscription is gone (RFC 8030: 404 unknown, 410 expired or unsubscribed). */
const isGone = (statusCode: number) => statusCode === 404 || statusCode === 410;
/** Answers after which trying again would not help: taken, or refused for what was sent. */
const isFinal = (statusCode: number) =>
  (statusCode >= 200 && statusCode < 300) || (statusCode >= 400 && statusCode < 500 && statusCode !== 429);

/**
 * Sends queued pushes, each claimed by one node and deleted once the push service took it; a subscription the push
 * service no longer knows is deleted with what was queued for it. A failure or a busy push service is tried again
 * at a later round, at most 5 times.
 */
export const pushDeliveryWork = ({
  db,
  send,
}: {
  db: Executor;
  send: PushSender;
}): ClaimedWork<typeof pushDeliveries, { statusCode: number }> => ({
  name: 'push deliveries',
  table: pushDeliveries,
  due: sql`true`,
  order: pushDeliveries.createdAt,
  batchSize: 50,
  leaseMs: 60_000,
  maxClaims: 5,
  async call(row) {
    const [target] = await db
      .select({ endpoint: pushSubscriptions.endpoint, p256dh: pushSubscriptions.p256dh, auth: pushSubscriptions.auth })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.id, row.subscriptionId));
    // Deleted meanwhile (sign-out), with this row: the record finds no claim to end.
    if (!target) return { statusCode: 410 };
    return send(target, row.payload);
  },
  async record({ db: tx, row, outcome }) {
    if (!outcome.ok) return;
    if (isGone(outcome.value.statusCode)) {
      await tx.delete(pushSubscriptions).where(eq(pushSubscriptions.id, row.subscriptionId));
    } else if (isFinal(outcome.value.statusCode)) {
      await tx.delete(pushDeliveries).where(eq(pushDeliveries.id, row.id));
    }
  },
  giveUp: async ({ db: tx, row }) => {
    await tx.delete(pushDeliveries).where(eq(pushDeliveries.id, row.id));
  },
});

/**
 * Forgets an erased user's devices (their queued pushes go with them); the pushes queued for others that name them
 * read "Deleted user" in their title and text instead (the screen a click opens stays as it is).
 */
export async function erasePushesOf({ db, userId, name }: { db: Executor; userId: string; name: ErasedName }) {
  await db.delete(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
  const named = await db
    .select({ id: pushDeliveries.id, payload: pushDeliveries.payload })
    .from(pushDeliveries)
    .where(naming(sql`${pushDeliveries.payload}::text`, name));
  await writeRewritten(
    db,
    pushDeliveries,
    [pushDeliveries.payload],
    named.map(({ id, payload }) => ({
      id,
      values: [
        JSON.stringify({
          ...payload,
          title: withoutName(payload.title, 'text', name),
          body: withoutName(payload.body, 'text', name),
        }),
      ],
    })),
  );
}
