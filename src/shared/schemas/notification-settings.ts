import { z } from 'zod';

// Notification settings (/settings/notifications): for each kind of news, whether it shows in the app, comes by
// e-mail and is pushed to the user's devices.

export const NOTIFICATION_TOPICS = ['messages', 'jobs', 'offers', 'meetings', 'reviews', 'payments', 'news'] as const;
export type NotificationTopic = (typeof NOTIFICATION_TOPICS)[number];

export const NOTIFICATION_CHANNELS = ['inApp', 'email', 'push'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/** What each kind is called on the settings screen. */
export const notificationTopicLabels: Record<NotificationTopic, string> = {
  messages: 'Messages',
  jobs: 'New jobs in my subjects',
  offers: 'Offers and bids',
  meetings: 'Meetings',
  reviews: 'Reviews',
  payments: 'Payments',
  news: 'Product news',
};

export const notificationChannelLabels: Record<NotificationChannel, string> = {
  inApp: 'In the app',
  email: 'E-mail',
  push: 'Push',
};

const channelsSchema = z.object({ inApp: z.boolean(), email: z.boolean(), push: z.boolean() });
export type NotificationChannels = z.infer<typeof channelsSchema>;

/** Until the user chooses, everything is on except product news. */
export const defaultChannels = (topic: NotificationTopic): NotificationChannels => {
  const on = topic !== 'news';
  return { inApp: on, email: on, push: on };
};

export const notificationSettingsSchema = z.object({
  topics: z.object(
    Object.fromEntries(NOTIFICATION_TOPICS.map((topic) => [topic, channelsSchema])) as {
      [T in NotificationTopic]: typeof channelsSchema;
    },
  ),
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

/** A change of some kinds' channels; kinds left out keep theirs. */
export const updateNotificationSettingsSchema = z.object({
  topics: z
    .object(
      Object.fromEntries(NOTIFICATION_TOPICS.map((topic) => [topic, channelsSchema.partial().strict()])) as {
        [T in NotificationTopic]: ReturnType<typeof channelsSchema.partial>;
      },
    )
    .partial()
    .strict(),
});
export type UpdateNotificationSettingsInput = z.infer<typeof updateNotificationSettingsSchema>;
