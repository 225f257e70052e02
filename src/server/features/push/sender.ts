import http from 'node:http';
import https from 'node:https';
import webPush from 'web-push';
import type { PushPayload } from '#shared/schemas/push.ts';
import type { VapidKeys } from '../../system/vapid-keys.ts';
import { publicOnlyLookup } from './public-endpoint.ts';

export type PushTarget = { endpoint: string; p256dh: string; auth: string };

/** How long a push service may keep an undelivered push: a notification a day old is news no longer. */
const TIME_TO_LIVE_SECONDS = 24 * 60 * 60;
const SEND_TIMEOUT_MS = 10_000;

export type PushSender = (target: PushTarget, payload: PushPayload) => Promise<{ statusCode: number }>;

/**
 * Sends one push: the payload encrypted for the subscription (aes128gcm, RFC 8291) and signed with the server's VAPID
 * key (RFC 8292), posted to its endpoint through connections that reach public addresses only; the test origin alone
 * may be a local (and plain http) one.
 */
export function createPushSender({
  keys,
  subject,
  testOrigin,
}: {
  keys: VapidKeys;
  subject: string;
  testOrigin: string | null;
}): PushSender {
  const publicAgent = new https.Agent({ lookup: publicOnlyLookup, keepAlive: true });
  return (target, payload) => {
    const details = webPush.generateRequestDetails(
      { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
      JSON.stringify(payload),
      {
        vapidDetails: { subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
        TTL: TIME_TO_LIVE_SECONDS,
        contentEncoding: 'aes128gcm',
        urgency: 'high',
      },
    );
    const url = new URL(details.endpoint);
    const isTest = testOrigin !== null && url.origin === testOrigin;
    if (!isTest && url.protocol !== 'https:') return Promise.reject(new Error('push endpoints are https'));
    const client = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const request = client.request(
        url,
        {
          method: details.method,
          headers: details.headers,
          agent: isTest ? undefined : publicAgent,
          timeout: SEND_TIMEOUT_MS,
        },
        (response) => {
          response.resume();
          response.on('end', () => resolve({ statusCode: response.statusCode ?? 0 }));
        },
      );
      request.on('timeout', () => request.destroy(new Error('the push service did not answer in time')));
      request.on('error', reject);
      request.end(details.body);
    });
  };
}
