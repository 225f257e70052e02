import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  defaultChannels,
  NOTIFICATION_TOPICS,
  type NotificationChannel,
  type NotificationChannels,
  type NotificationSettings,
  type NotificationTopic,
  type UpdateNotificationSettingsInput,
} from '#shared/schemas/notification-settings.ts';
import type { Executor } from '../../db/client.ts';
import { notificationSettings } from '../../db/schema/notifications.ts';

// Each user's channels per kind of news: a kind without a row has its defaults, so nothing is written at sign-up.

const columnOf = {
  inApp: notificationSettings.inApp,
  email: notificationSettings.email,
  push: notificationSettings.push,
} satisfies Record<NotificationChannel, AnyPgColumn>;

/**
 * Whether the user (a column of the caller's query, or an id) wants this kind of news on this channel, as a
 * condition: their choice, else the default. For set-based statements that tell many users at once.
 */
export function wants(userId: AnyPgColumn | SQL | string, topic: NotificationTopic, channel: NotificationChannel) {
  const column = columnOf[channel];
  return sql<boolean>`coalesce((select ${column} from ${notificationSettings}
    where ${notificationSettings.userId} = ${userId} and ${notificationSettings.topic} = ${topic}), ${defaultChannels(topic)[channel]})`;
}

/** One user's channels for one kind of news. */
export async function channelsFor(
  db: Executor,
  userId: string,
  topic: NotificationTopic,
): Promise<NotificationChannels> {
  const [row] = await db
    .select({ inApp: notificationSettings.inApp, email: notificationSettings.email, push: notificationSettings.push })
    .from(notificationSettings)
    .where(and(eq(notificationSettings.userId, userId), eq(notificationSettings.topic, topic)));
  return row ?? defaultChannels(topic);
}

export async function getNotificationSettings(db: Executor, userId: string): Promise<NotificationSettings> {
  const rows = await db.select().from(notificationSettings).where(eq(notificationSettings.userId, userId));
  const chosen = new Map(rows.map((row) => [row.topic, row]));
  const topics = Object.fromEntries(
    NOTIFICATION_TOPICS.map((topic) => {
      const row = chosen.get(topic);
      return [topic, row ? { inApp: row.inApp, email: row.email, push: row.push } : defaultChannels(topic)];
    }),
  ) as NotificationSettings['topics'];
  return { topics };
}

/**
 * Changes the channels named, kind by kind; the others keep theirs. Each kind's upsert sets only the channels named,
 * so two changes at once to different channels both stay. Returns every kind's channels.
 */
export async function updateNotificationSettings(
  db: Executor,
  userId: string,
  input: UpdateNotificationSettingsInput,
): Promise<NotificationSettings> {
  for (const [topic, change] of Object.entries(input.topics) as Array<
    [NotificationTopic, Partial<NotificationChannels>]
  >) {
    const named = Object.keys(change) as NotificationChannel[];
    if (named.length === 0) continue;
    await db
      .insert(notificationSettings)
      .values({ userId, topic, ...defaultChannels(topic), ...change })
      .onConflictDoUpdate({
        target: [notificationSettings.userId, notificationSettings.topic],
        set: Object.fromEntries(named.map((channel) => [channel, change[channel]])),
      });
  }
  return getNotificationSettings(db, userId);
}
