import { createHmac, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import {
  NOTIFICATION_TOPICS,
  notificationTopicLabels,
  type NotificationTopic,
} from '#shared/schemas/notification-settings.ts';
import { escapeHtml } from '#shared/rules/text.ts';
import type { Database } from '../../db/client.ts';
import { users } from '../../db/schema/auth.ts';
import { fieldError } from '../../http/errors.ts';
import { updateNotificationSettings } from './settings.ts';

// One-click unsubscribe (RFC 8058) from a kind of news. The token is signed with the server's secret over the user
// and the kind, so no row is kept per mail and a link names exactly one setting of one user.

export const INVALID_UNSUBSCRIBE_LINK = 'This unsubscribe link is not valid';
export const UNSUBSCRIBE_PATH = '/api/notifications/unsubscribe';

const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const signature = (secret: string, userId: string, topic: string) =>
  createHmac('sha256', secret).update(`unsubscribe:${userId}:${topic}`).digest();

export function unsubscribeToken(secret: string, userId: string, topic: string) {
  return `${userId}.${topic}.${signature(secret, userId, topic).toString('base64url')}`;
}

export function unsubscribeUrl(
  publicUrl: string,
  secret: string,
  { userId, topic }: { userId: string; topic: string },
) {
  return `${publicUrl}${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(unsubscribeToken(secret, userId, topic))}`;
}

/** The user and kind a token names, or a 400 when it is not one this server signed. */
export function readUnsubscribeToken(secret: string, token: string): { userId: string; topic: NotificationTopic } {
  const [userId = '', topic = '', signed = '', ...rest] = token.split('.');
  const given = Buffer.from(signed, 'base64url');
  const isTopic = (NOTIFICATION_TOPICS as readonly string[]).includes(topic);
  if (rest.length > 0 || !UUID_SHAPE.test(userId) || !isTopic) throw fieldError('token', INVALID_UNSUBSCRIBE_LINK);
  const expected = signature(secret, userId, topic);
  // Compared in constant time, so the answer's timing tells nothing of the right signature.
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw fieldError('token', INVALID_UNSUBSCRIBE_LINK);
  }
  return { userId, topic: topic as NotificationTopic };
}

/** Turns off the e-mail of that kind only; again is the same. A user deleted since writes nothing. */
export async function unsubscribe(db: Database, secret: string, token: string) {
  const { userId, topic } = readUnsubscribeToken(secret, token);
  await db.transaction(async (tx) => {
    // The settings row refers to the user: a link outliving its account must not fail on the foreign key.
    const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('key share');
    if (user) await updateNotificationSettings(tx, userId, { topics: { [topic]: { email: false } } });
  });
  return topic;
}

/** The page a link opens: a button that posts, since link scanners open every link in a mail. */
export function renderUnsubscribePage(topic: NotificationTopic, token: string, done: boolean) {
  const label = escapeHtml(notificationTopicLabels[topic]);
  const body = done
    ? `<p>You will no longer get e-mails about “${label}”. You can change this in your <a href="/settings/notifications">notification settings</a>.</p>`
    : `<p>Stop e-mails about “${label}”?</p>
<form method="post" action="${UNSUBSCRIBE_PATH}?token=${escapeHtml(encodeURIComponent(token))}">
<button type="submit" style="font: inherit; min-height: 44px; padding: 0 20px; border: 0; border-radius: 6px; background: #2563eb; color: #ffffff;">Unsubscribe</button>
</form>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Unsubscribe - Virtual Help</title></head>
<body style="font-family: Arial, sans-serif; max-width: 32rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5;">
<h1>Unsubscribe</h1>
${body}
</body></html>
`;
}
