import { index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import type { PushPayload } from '#shared/schemas/push.ts';
import { sessions, users } from './auth.ts';
import { claimColumns, createdAt, id, timestamptz } from './columns.ts';

/**
 * A device's Web Push subscription, one per endpoint. It belongs to the session that subscribed: signing out (or any
 * end of the session) deletes it with the session row.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull().unique(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('push_subscriptions_user_idx').on(table.userId)],
);

/** A push to send to one subscription, claimed by one node (platform/jobs/claimed-work.ts) and deleted once sent. */
export const pushDeliveries = pgTable(
  'push_deliveries',
  {
    id: id(),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => pushSubscriptions.id, { onDelete: 'cascade' }),
    payload: jsonb('payload').$type<PushPayload>().notNull(),
    createdAt: createdAt(),
    ...claimColumns(),
  },
  (table) => [index('push_deliveries_created_idx').on(table.createdAt)],
);

/**
 * A tab of the app that is open and shown, one per socket, on any node: pushes wait while the user has one. Each node
 * renews its own tabs' rows; a row not renewed for a while (its node died) no longer counts.
 */
export const visibleTabs = pgTable(
  'visible_tabs',
  {
    socketId: text('socket_id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    seenAt: timestamptz('seen_at').notNull().defaultNow(),
  },
  (table) => [index('visible_tabs_user_idx').on(table.userId)],
);
