// The product's e-mails: plain text for every client, plus a simple HTML version.
import { escapeHtml } from '#shared/rules/text.ts';
import type { Operator } from '#shared/schemas/payments.ts';

const PRODUCT = 'Virtual Help';

type MailContent = { subject: string; text: string; html: string };

/** A mail whose point is one link: a greeting, what the link does, the button, and a closing note. */
function linkMail({
  subject,
  intro,
  action,
  url,
  note,
}: {
  subject: string;
  intro: string;
  action: string;
  url: string;
  note: string;
}): MailContent {
  const text = `Hello,\n\n${intro}\n\n${action}:\n${url}\n\n${note}\n\n— The ${PRODUCT} team\n`;
  const html = `<!doctype html>
<html lang="en"><body style="font-family: Arial, sans-serif; color: #1f2937; line-height: 1.5;">
<p>Hello,</p>
<p>${escapeHtml(intro)}</p>
<p><a href="${escapeHtml(url)}" style="display: inline-block; padding: 10px 18px; background: #2563eb; color: #ffffff; border-radius: 6px; text-decoration: none;">${escapeHtml(action)}</a></p>
<p style="font-size: 13px; color: #6b7280;">If the button does not work, copy this link into your browser:<br>${escapeHtml(url)}</p>
<p style="font-size: 13px; color: #6b7280;">${escapeHtml(note)}</p>
<p>— The ${PRODUCT} team</p>
</body></html>
`;
  return { subject, text, html };
}

export function confirmEmailMail({ url, validHours }: { url: string; validHours: number }) {
  return linkMail({
    subject: `Confirm your e-mail address for ${PRODUCT}`,
    intro: `Welcome to ${PRODUCT}! Please confirm your e-mail address to finish creating your account.`,
    action: 'Confirm my e-mail address',
    url,
    note: `The link is valid for ${validHours} hours. If you did not create an account, you can ignore this e-mail.`,
  });
}

export function resetPasswordMail({ url, validMinutes }: { url: string; validMinutes: number }) {
  return linkMail({
    subject: `Reset your ${PRODUCT} password`,
    intro: `We received a request to reset the password of your ${PRODUCT} account.`,
    action: 'Choose a new password',
    url,
    note: `The link expires after ${validMinutes} minutes and works once. If you did not ask for this, ignore this e-mail: your password stays as it is.`,
  });
}

export function confirmEmailChangeMail({ url, validHours }: { url: string; validHours: number }) {
  return linkMail({
    subject: `Confirm your new e-mail address for ${PRODUCT}`,
    intro: `You asked to use this address for your ${PRODUCT} account. Please confirm it to finish the change.`,
    action: 'Confirm my new address',
    url,
    note: `The link is valid for ${validHours} hours. If you did not ask for this, ignore this e-mail: nothing changes.`,
  });
}

/** To the address being replaced: the change is announced there, without the link that makes it. */
export function emailChangeNoticeMail({ maskedNewEmail, url }: { maskedNewEmail: string; url: string }) {
  return linkMail({
    subject: `Your ${PRODUCT} e-mail address is about to change`,
    intro: `Someone signed in to your ${PRODUCT} account asked to change its e-mail address to ${maskedNewEmail}. The change happens once that address is confirmed.`,
    action: 'Review my account',
    url,
    note: 'If this was not you, sign in and change your password now: that signs out every other device.',
  });
}

/**
 * The foot of every receipt mail (payments, refunds, payouts): who took the money, as the operator set it, each
 * detail on its own line; the address and VAT number only when set.
 */
export function receiptFooter(operator: Operator) {
  const lines = [
    operator.legalName,
    operator.address,
    operator.vatNumber === null ? null : `VAT number ${operator.vatNumber}`,
  ].filter((line) => line !== null);
  return {
    text: `Receipt issued by:\n${lines.join('\n')}`,
    html: `<p style="font-size: 13px; color: #6b7280;">Receipt issued by:<br>${lines.map(escapeHtml).join('<br>')}</p>`,
  };
}
