import { and, eq, isNull } from 'drizzle-orm';
import { paths } from '#shared/paths.ts';
import type { PayoutSetup } from '#shared/schemas/earnings.ts';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema/auth.ts';
import { stripeConnectedAccounts } from '../../db/schema/stripe-connect.ts';
import { AppError } from '../../http/errors.ts';
import { countUse, enforceLimit } from '../../platform/limits/usage-limits.ts';
import type { StripeGateway } from '../../platform/payments/stripe.ts';

// A tutor's payouts under Stripe (docs/decisions/0053): a Connect Express account, made once, which the tutor
// completes in Stripe's own onboarding; Stripe tells (account.updated, or the tutor's return) whether it may be paid.

/** Where Stripe sends the tutor back: Earnings, told whether they finished or the link had expired. */
export const payoutSetupReturn = (publicUrl: string, outcome: 'return' | 'refresh') =>
  `${publicUrl}${paths.earnings.getHref()}?payout-setup=${outcome}`;

/** How long Stripe keeps an idempotency key (24 h), less a margin: past it a repeated key would make a new account. */
const ACCOUNT_KEY_TRUSTED_MS = 23 * 60 * 60 * 1000;

/** Onboarding links a tutor may ask for: each asks Stripe, and finishing a set-up takes a few. */
export const PAYOUT_SETUP_LINKS = {
  max: 20,
  windowMs: 60 * 60_000,
  message: 'You have opened payout set-up many times in a short while. Please wait a few minutes and try again.',
};
/** Returns from onboarding that ask Stripe for the account's state; past it the stored state is answered. */
export const PAYOUT_SETUP_CHECKS = { max: 20, windowMs: 60 * 60_000 };

/**
 * The address of Stripe's onboarding for the tutor's connected account, made on first need under the key
 * `connect-account:<tutorId>`, written with the tutor's row before Stripe is asked, so a repeat (a double click, a
 * second tab, a crash before the account's id is written) is the same account. A row older than Stripe keeps keys
 * has its account looked up by the tutor's id in its metadata before one is made. A payout needs the adult
 * confirmation first (403); each link is counted against a per-tutor limit (429), since each asks Stripe.
 */
export async function startPayoutSetup({
  db,
  stripe,
  tutorId,
  publicUrl,
}: {
  db: Executor;
  stripe: StripeGateway;
  tutorId: string;
  publicUrl: string;
}) {
  const [tutor] = await db
    .select({ adultConfirmedAt: users.adultConfirmedAt })
    .from(users)
    .where(eq(users.id, tutorId));
  if (!tutor?.adultConfirmedAt) throw new AppError('ADULT_CONFIRMATION_REQUIRED');
  await enforceLimit(db, `payout-setup-links:${tutorId}`, PAYOUT_SETUP_LINKS, PAYOUT_SETUP_LINKS.message);
  const idempotencyKey = `connect-account:${tutorId}`;
  await db.insert(stripeConnectedAccounts).values({ tutorId, idempotencyKey }).onConflictDoNothing();
  const account = (await connectedAccountOf(db, tutorId))!;
  let accountId = account.accountId;
  if (!accountId) {
    const keyTrusted = Date.now() - account.createdAt.getTime() < ACCOUNT_KEY_TRUSTED_MS;
    const made =
      (!keyTrusted && (await stripe.connectedAccountOf(tutorId))) ||
      (await stripe.createConnectedAccount({ idempotencyKey, tutorId }));
    await db
      .update(stripeConnectedAccounts)
      .set({ accountId: made.accountId })
      .where(and(eq(stripeConnectedAccounts.tutorId, tutorId), isNull(stripeConnectedAccounts.accountId)));
    accountId = made.accountId;
  }
  return stripe.onboardingLink({
    accountId,
    refreshUrl: payoutSetupReturn(publicUrl, 'refresh'),
    returnUrl: payoutSetupReturn(publicUrl, 'return'),
  });
}

async function connectedAccountOf(db: Executor, tutorId: string) {
  const [account] = await db.select().from(stripeConnectedAccounts).where(eq(stripeConnectedAccounts.tutorId, tutorId));
  return account;
}

/**
 * Stores what Stripe tells of the connected account now; answers whether its payouts are enabled, or null for an
 * account no tutor of ours has (another application's on the same platform).
 */
export async function refreshConnectedAccount({
  db,
  stripe,
  accountId,
}: {
  db: Executor;
  stripe: StripeGateway;
  accountId: string;
}) {
  const [known] = await db
    .select({ tutorId: stripeConnectedAccounts.tutorId })
    .from(stripeConnectedAccounts)
    .where(eq(stripeConnectedAccounts.accountId, accountId));
  if (!known) return null;
  const state = await stripe.connectedAccountState(accountId);
  await db
    .update(stripeConnectedAccounts)
    .set({ ...state, stateReadAt: new Date(), updatedAt: new Date() })
    .where(eq(stripeConnectedAccounts.accountId, accountId));
  return state.payoutsEnabled;
}

/** The tutor's payout set-up as Earnings shows it. */
export async function payoutSetupOf(db: Executor, tutorId: string): Promise<PayoutSetup> {
  const account = await connectedAccountOf(db, tutorId);
  return {
    started: Boolean(account?.accountId),
    payoutsEnabled: account?.payoutsEnabled ?? false,
    requirementsDue: account?.requirementsDue ?? [],
  };
}

/**
 * The tutor's payout set-up for their return from onboarding: asked of Stripe now (its webhook may come later) when
 * they come back from it or when Stripe has not told it yet, otherwise what `account.updated` last stored. Asking
 * Stripe is bounded per tutor; past the bound the stored state is answered.
 */
export async function payoutSetupAfterReturn({
  db,
  stripe,
  tutorId,
  backFromOnboarding,
}: {
  db: Executor;
  stripe: StripeGateway;
  tutorId: string;
  backFromOnboarding: boolean;
}) {
  const account = await connectedAccountOf(db, tutorId);
  if (!account?.accountId) throw new AppError('NOT_FOUND', { message: 'Payouts have not been set up' });
  const ask = backFromOnboarding || !account.stateReadAt;
  const { windowMs, max } = PAYOUT_SETUP_CHECKS;
  if (ask && (await countUse(db, `payout-setup-checks:${tutorId}`, windowMs)).hits <= max) {
    await refreshConnectedAccount({ db, stripe, accountId: account.accountId });
  }
  return payoutSetupOf(db, tutorId);
}
