import { z } from 'zod';

// Web Push subscriptions (POST /api/push/subscriptions): what a browser's PushSubscription.toJSON() gives.

export const pushMessages = {
  endpoint: 'Push notifications need the https address of a public push service.',
  keys: 'This push subscription is missing its keys.',
} as const;

/** The longest endpoint kept: push services' are some 200 to 500 characters. */
export const PUSH_ENDPOINT_MAX_LENGTH = 2_048;

const base64Url = (bytes: number) => new RegExp(`^[A-Za-z0-9_-]{${Math.ceil((bytes * 4) / 3)}}={0,2}$`);

export const createPushSubscriptionSchema = z.object({
  endpoint: z
    .url({ protocol: /^https?$/, error: pushMessages.endpoint })
    .max(PUSH_ENDPOINT_MAX_LENGTH, pushMessages.endpoint),
  keys: z.object(
    {
      // The browser's P-256 public key (65 bytes, uncompressed) and its 16-byte authentication secret.
      p256dh: z.string({ error: pushMessages.keys }).regex(base64Url(65), pushMessages.keys),
      auth: z.string({ error: pushMessages.keys }).regex(base64Url(16), pushMessages.keys),
    },
    { error: pushMessages.keys },
  ),
});
export type CreatePushSubscriptionInput = z.infer<typeof createPushSubscriptionSchema>;

export const pushSubscriptionSchema = z.object({ id: z.uuid() });

/** A device that receives pushes, for the settings screen: "Chrome 131 on Android phone", since when. */
export const pushDeviceSchema = z.object({
  id: z.uuid(),
  /** The browser's own push address: the page finds its device by it. */
  endpoint: z.string(),
  browser: z.string(),
  device: z.string(),
  createdAt: z.iso.datetime(),
  /** Subscribed in the session of this request (this browser). */
  isCurrent: z.boolean(),
});
export type PushDevice = z.infer<typeof pushDeviceSchema>;
export const pushDeviceListSchema = z.object({ devices: z.array(pushDeviceSchema) });
export type PushDeviceList = z.infer<typeof pushDeviceListSchema>;

export const pushPublicKeySchema = z.object({
  /** The server's VAPID public key, for PushManager.subscribe's applicationServerKey. */
  publicKey: z.string(),
});

/** What a push carries: no more than the notification shows. */
export const pushPayloadSchema = z.object({
  title: z.string(),
  body: z.string(),
  /** The screen a click opens. */
  url: z.string(),
  /** Notifications of one tag replace each other (SPEC.md: chat-message). */
  tag: z.string().optional(),
});
export type PushPayload = z.infer<typeof pushPayloadSchema>;
