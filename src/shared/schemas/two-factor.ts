import { z } from 'zod';
import { BACKUP_CODE_PATTERN, TOTP_CODE_PATTERN, twoFactorMessages } from '../two-factor.ts';

// The inputs of better-auth's two-factor endpoints, checked with the messages of src/shared/two-factor.ts.

export const enableTwoFactorSchema = z.object({
  password: z.string({ error: twoFactorMessages.passwordRequired }).min(1, twoFactorMessages.passwordRequired),
});

/** New backup codes are confirmed with the password, as turning the factor on is. */
export const generateBackupCodesSchema = enableTwoFactorSchema;

export const totpCodeSchema = z.object({
  code: z.string({ error: twoFactorMessages.codeRequired }).regex(TOTP_CODE_PATTERN, twoFactorMessages.codeRequired),
});

/** Turning it off takes the password and a code the app shows now. */
export const disableTwoFactorSchema = enableTwoFactorSchema.extend(totpCodeSchema.shape);
export type DisableTwoFactorInput = z.infer<typeof disableTwoFactorSchema>;

export const backupCodeSchema = z.object({
  code: z
    .string({ error: twoFactorMessages.backupCodeRequired })
    .regex(BACKUP_CODE_PATTERN, twoFactorMessages.backupCodeRequired),
});

/** What enabling answers: the otpauth:// address for the app's QR code and the backup codes, shown once. */
export type TwoFactorEnrolment = { totpURI: string; backupCodes: string[] };

/** What new backup codes answer: the ten codes, shown once. */
export type NewBackupCodes = { backupCodes: string[] };
