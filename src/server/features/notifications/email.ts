import { sql } from 'drizzle-orm';
import type { Role } from '#shared/constants.ts';
import type { NotificationTopic } from '#shared/schemas/notification-settings.ts';
import type { Executor } from '../../db/client.ts';
import { emailLogs } from '../../db/schema/notifications.ts';
import { enqueueMails } from '../../platform/mail/outbox.ts';
import { escapeHtml } from '#shared/rules/text.ts';
import type { Operator } from '#shared/schemas/payments.ts';
import { receiptFooter } from '../../platform/mail/templates.ts';

// E-mail for notifications, with the semantics of SPEC.md §7 "send-notification-email": recipient, username,
// type, message, link, role, sender, timestamp; each outcome is logged in email_logs.

export const NOTIFICATION_EMAIL_TYPES = {
  new_job: 'New job available',
  new_offer: 'New offer on your request',
  offer_accepted: 'Your offer was accepted',
  meeting_scheduled: 'Meeting scheduled',
  meeting_reminder: 'Meeting reminder',
  meeting_cancelled: 'Meeting cancelled',
  job_delivered: 'Your job was marked as delivered',
  job_completed: 'Job completed',
  new_review: 'New review',
  refund_requested: 'A refund was asked for',
  refund_update: 'Refund request update',
  payment_receipt: 'Payment receipt',
  refund_issued: 'Refund receipt',
  payout_paid: 'Payout receipt',
  data_export_ready: 'Your data is ready to download',
  direct_request_update: 'Your request to a tutor',
} as const;
export type NotificationEmailType = keyof typeof NOTIFICATION_EMAIL_TYPES;

/**
 * The kind of news each notification is, whose settings say where it goes; null for the account's own business (the
 * data export), which always comes in every way.
 */
export const topicOfNotification: Record<NotificationEmailType, NotificationTopic | null> = {
  new_job: 'jobs',
  new_offer: 'offers',
  offer_accepted: 'offers',
  meeting_scheduled: 'meetings',
  meeting_reminder: 'meetings',
  meeting_cancelled: 'meetings',
  job_delivered: 'offers',
  job_completed: 'offers',
  new_review: 'reviews',
  refund_requested: 'payments',
  refund_update: 'payments',
  payment_receipt: 'payments',
  refund_issued: 'payments',
  payout_paid: 'payments',
  data_export_ready: null,
  direct_request_update: 'offers',
};

export type NotificationEmail = {
  /** The recipient's account: its news of this kind can be unsubscribed from the mail itself. */
  userId: string;
  recipient: string;
  username: string;
  type: NotificationEmailType;
  message: string;
  /** A path of the web app, such as /teacher/jobs?highlight=…; made absolute with PUBLIC_URL. */
  link: string;
  role: Role;
  sender: string;
  timestamp: Date;
  /** The notification row the mail is about, for email_logs (none when the user chose not to see it in the app). */
  notificationId: string | null;
  /** An iCalendar invitation attached as invite.ics (meetings). */
  calendar?: string;
  /** A receipt's mail names who took the money at its foot. */
  operator?: Operator;
};

export const INVALID_EMAIL_FORMAT = 'Invalid email format';
// "Looks like an e-mail" (SPEC.md §5 Notifications): something@something.tld, no spaces.
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function notificationMail(email: NotificationEmail, publicUrl: string) {
  const url = `${publicUrl}${email.link}`;
  const subject = `${NOTIFICATION_EMAIL_TYPES[email.type]} - Virtual Help`;
  const footer = `Sent by ${email.sender} on ${email.timestamp.toUTCString()}. You receive this e-mail because you have a ${email.role} account on Virtual Help.`;
  const receipt = email.operator ? receiptFooter(email.operator) : null;
  const text = `Hello ${email.username},\n\n${email.message}\n\nOpen it in Virtual Help:\n${url}\n\n${receipt ? `${receipt.text}\n\n` : ''}${footer}\n\n— The Virtual Help team\n`;
  const html = `<!doctype html>
<html lang="en"><body style="font-family: Arial, sans-serif; color: #1f2937; line-height: 1.5;">
<p>Hello ${escapeHtml(email.username)},</p>
<p>${escapeHtml(email.message)}</p>
<p><a href="${escapeHtml(url)}" style="display: inline-block; padding: 10px 18px; background: #2563eb; color: #ffffff; border-radius: 6px; text-decoration: none;">Open in Virtual Help</a></p>
${receipt?.html ?? ''}
<p style="font-size: 13px; color: #6b7280;">${escapeHtml(footer)}</p>
<p>— The Virtual Help team</p>
</body></html>
`;
  return { subject, text, html };
}

/**
 * Queues the mails of valid recipients and logs every one (queued, or failed with "Invalid email format"),
 * in the caller's transaction: two statements whatever the number of mails (arrays unnested into rows), so a
 * job for 1,000 teachers costs the same two round trips as one. An invalid address is never an error for the caller.
 */
export async function queueNotificationEmails({
  db,
  publicUrl,
  emails,
}: {
  db: Executor;
  publicUrl: string;
  emails: NotificationEmail[];
}) {
  if (emails.length === 0) return;
  const valid = new Set(emails.filter((email) => EMAIL_SHAPE.test(email.recipient)));
  await enqueueMails({
    db,
    mails: [...valid].map((email) => ({
      to: email.recipient,
      ...notificationMail(email, publicUrl),
      calendar: email.calendar ?? null,
      unsubscribe: topicOfNotification[email.type]
        ? { userId: email.userId, topic: topicOfNotification[email.type]! }
        : null,
    })),
  });
  const isValid = (email: NotificationEmail) => valid.has(email);
  await db.execute(sql`
    insert into ${emailLogs} (${sql.identifier(emailLogs.recipientEmail.name)}, ${sql.identifier(emailLogs.notificationType.name)},
      ${sql.identifier(emailLogs.status.name)}, ${sql.identifier(emailLogs.notificationId.name)}, ${sql.identifier(emailLogs.error.name)})
    select * from unnest(${sql.param(emails.map((email) => email.recipient))}::text[], ${sql.param(emails.map((email) => email.type))}::text[],
      ${sql.param(emails.map((email) => (isValid(email) ? 'queued' : 'failed')))}::text[],
      ${sql.param(emails.map((email) => email.notificationId))}::uuid[],
      ${sql.param(emails.map((email) => (isValid(email) ? null : INVALID_EMAIL_FORMAT)))}::text[])`);
}
