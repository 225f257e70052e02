import { z } from 'zod';
import { BACKUP_CODE_PATTERN, TOTP_CODE_PATTERN, twoFactorMessages } from '../two-factor.ts';

// The inputs of better-auth's two-factor endpoints, checked with the messages of src/shared/two-factor.ts.

export const enableTwoFactorSchema = z.object({
  password: z.string({ error: twoFactorMessages.passwordRequired }).min(1, twoFactorMessages.passwordRequired),
});

export const totpCodeSchema = z.object({
  code: z.string({ error: twoFactorMessages.codeRequired }).regex(TOTP_CODE_PATTERN, twoFactorMessages.codeRequired),
});

export const backupCodeSchema = z.object({
  code: z
    .string({ error: twoFactorMessages.backupCodeRequired })
    .regex(BACKUP_CODE_PATTERN, twoFactorMessages.backupCodeRequired),
});

/** What enabling answers: the otpauth:// address for the app's QR code and the backup codes, shown once. */
export type TwoFactorEnrolment = { totpURI: string; backupCodes: string[] };
