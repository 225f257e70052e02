import { RESET_LINK_VALIDITY_MINUTES } from '#shared/constants.ts';
import { paths } from '#shared/paths.ts';
import type { Config } from '../../config.ts';
import type { Executor } from '../../db/client.ts';
import { enqueueMail } from '../../platform/mail/outbox.ts';
import { confirmEmailMail, resetPasswordMail } from '../../platform/mail/templates.ts';

// The account mails, queued by registration (service.ts) and by better-auth's own flows (auth.ts).

export const EMAIL_CONFIRMATION_VALIDITY_HOURS = 24;

// Where the links in the mails lead back to (pages of the web app).
const CONFIRMED_PAGE = `${paths.auth.login.getHref()}?confirmed=1`;
const RESET_PAGE = paths.auth.resetPassword.getHref();

// Per-account abuse limit on confirmation and reset mails, on top of the per-address request limits.
const MAIL_LIMIT = { max: 3, windowMs: 15 * 60 * 1000 };

type LinkMailOptions = { db: Executor; config: Config; email: string; token: string };

/** Queues the confirmation mail: better-auth's verify-email link, which returns to the sign-in page. */
export async function sendConfirmationMail({ db, config, email, token }: LinkMailOptions) {
  const url = `${config.publicUrl}/api/auth/verify-email?token=${encodeURIComponent(token)}&callbackURL=${encodeURIComponent(CONFIRMED_PAGE)}`;
  await enqueueMail({
    db,
    to: email,
    ...confirmEmailMail({ url, validHours: EMAIL_CONFIRMATION_VALIDITY_HOURS }),
    limitPerRecipient: MAIL_LIMIT,
  });
}

/** Queues the reset mail: better-auth's reset link, which checks the token and opens the reset page with it. */
export async function sendResetPasswordMail({ db, config, email, token }: LinkMailOptions) {
  const url = `${config.publicUrl}/api/auth/reset-password/${encodeURIComponent(token)}?callbackURL=${encodeURIComponent(RESET_PAGE)}`;
  await enqueueMail({
    db,
    to: email,
    ...resetPasswordMail({ url, validMinutes: RESET_LINK_VALIDITY_MINUTES }),
    limitPerRecipient: MAIL_LIMIT,
  });
}
