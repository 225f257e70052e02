import { timingSafeEqual } from 'node:crypto';
import { createOTP } from '@better-auth/utils/otp';
import { symmetricDecrypt } from 'better-auth/crypto';
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import { TOTP_DIGITS } from '#shared/two-factor.ts';
import type { Executor } from '../../db/client.ts';
import { twoFactors } from '../../db/schema/auth.ts';

/** The authenticator app's period, as the two-factor plugin is configured with it. */
export const TOTP_PERIOD_SECONDS = 30;
/** The plugin accepts the code of the step before and after the current one (a phone's clock drifts). */
const ACCEPTED_DRIFT_STEPS = 1;

type SecretKey = Parameters<typeof symmetricDecrypt>[0]['key'];

const sameCode = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** The time step whose code this is, among those the plugin accepts now, or null. */
async function stepOfCode(secret: string, code: string) {
  const current = Math.floor(Date.now() / (TOTP_PERIOD_SECONDS * 1000));
  const otp = createOTP(secret, { period: TOTP_PERIOD_SECONDS, digits: TOTP_DIGITS });
  let matched: number | null = null;
  // Every step is compared, so the time taken does not tell which one matched.
  for (let step = current - ACCEPTED_DRIFT_STEPS; step <= current + ACCEPTED_DRIFT_STEPS; step++) {
    if (sameCode(await otp.hotp(step), code)) matched = step;
  }
  return matched;
}

/**
 * What became of an authenticator code: `taken` (its step is now the user's last accepted one), `used` (that step or a
 * later one was accepted before), `wrong` (no step the plugin accepts now has it) or `none` (no second factor).
 */
export type TotpCodeUse = 'taken' | 'used' | 'wrong' | 'none';

/**
 * Takes an authenticator code once. The one statement that records its step refuses it when that step or a later one
 * was already accepted, so a code seen over a shoulder or relayed by a phishing page, or two racing requests with one
 * code, pass once.
 */
export async function takeTotpCode({
  db,
  key,
  userId,
  code,
}: {
  db: Executor;
  /** better-auth's key of the stored secrets. */
  key: SecretKey;
  userId: string;
  code: string;
}): Promise<TotpCodeUse> {
  const [factor] = await db.select({ secret: twoFactors.secret }).from(twoFactors).where(eq(twoFactors.userId, userId));
  if (!factor) return 'none';
  const step = await stepOfCode(await symmetricDecrypt({ key, data: factor.secret }), code);
  if (step === null) return 'wrong';
  const taken = await db
    .update(twoFactors)
    .set({ lastAcceptedTotpStep: step })
    .where(
      and(
        eq(twoFactors.userId, userId),
        or(isNull(twoFactors.lastAcceptedTotpStep), lt(twoFactors.lastAcceptedTotpStep, step)),
      ),
    )
    .returning({ userId: twoFactors.userId });
  return taken.length > 0 ? 'taken' : 'used';
}
