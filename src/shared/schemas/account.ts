import { z } from 'zod';
import { emailSchema, strongPasswordSchema } from './auth.ts';

// The account settings (/settings/account): e-mail address, password and signed-in devices.

export const accountMessages = {
  passwordRequired: 'Password is required',
  tooManyWrongPasswords: 'Too many wrong passwords. Please try again in 15 minutes or reset your password.',
  sameEmail: 'This is already your e-mail address',
  adminEmailManaged:
    'Admin accounts change their e-mail address outside the app: the super-admin’s address is set by ADMIN_EMAIL.',
  emailChangeSent: 'We sent a confirmation link to your new address. Your address changes once you open it.',
  exportInProgress: 'Your data is already being prepared. We will tell you when it is ready.',
  exportReady: 'Your data is ready to download from your account settings. The link works for 7 days.',
  exportGone: 'This download is no longer available. Please ask for your data again.',
} as const;

const currentPasswordSchema = z
  .string({ error: accountMessages.passwordRequired })
  .min(1, accountMessages.passwordRequired)
  .max(128, accountMessages.passwordRequired);

export const changeEmailSchema = z.object({ newEmail: emailSchema, password: currentPasswordSchema });

/** better-auth's change-password body, checked with these rules first (other sessions always end). */
export const changePasswordSchema = z.object({
  currentPassword: currentPasswordSchema,
  newPassword: strongPasswordSchema,
});

/** The form's fields: the new password typed twice. */
export const changePasswordFormSchema = changePasswordSchema
  .extend({ confirmPassword: z.string() })
  .refine((value) => value.newPassword === value.confirmPassword, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  });

/** The link in the confirmation mail: `<user id>.<secret>`. */
export const confirmEmailChangeQuerySchema = z.object({ token: z.string().min(1).max(200) });

/** How the confirmation link ended, as the settings page reads it from its address. */
export const EMAIL_CHANGE_OUTCOMES = ['changed', 'invalid', 'taken'] as const;
export type EmailChangeOutcome = (typeof EMAIL_CHANGE_OUTCOMES)[number];

export const emailChangeOutcomeMessages: Record<EmailChangeOutcome, string> = {
  changed: 'Your e-mail address has been changed.',
  invalid: 'This confirmation link is invalid or has expired. Ask for a new one below.',
  taken: 'An account with this email already exists',
};

/** A signed-in device: a session named by its id, never by its token. */
export const deviceSchema = z.object({
  id: z.uuid(),
  device: z.string(),
  browser: z.string(),
  createdAt: z.iso.datetime({ offset: true }),
  lastSeenAt: z.iso.datetime({ offset: true }),
  isCurrent: z.boolean(),
});

export const deviceListSchema = z.object({ devices: z.array(deviceSchema) });
export const deviceParamsSchema = z.object({ sessionId: z.uuid() });
export const signedOutDevicesSchema = z.object({ signedOut: z.number().int() });

/** A data export: being built, ready to download, past its 7 days (file deleted), or given up. */
export const DATA_EXPORT_STATUSES = ['building', 'ready', 'expired', 'failed'] as const;
/** How long an export's download link works; then its file is deleted. */
export const DATA_EXPORT_VALIDITY_DAYS = 7;

/** A "Download my data" request and where it stands. */
export const dataExportSchema = z.object({
  id: z.uuid(),
  status: z.enum(DATA_EXPORT_STATUSES),
  createdAt: z.iso.datetime({ offset: true }),
  readyAt: z.iso.datetime({ offset: true }).nullable(),
  expiresAt: z.iso.datetime({ offset: true }).nullable(),
  sizeBytes: z.number().int().nullable(),
});
export const latestDataExportSchema = z.object({ export: dataExportSchema.nullable() });
export const dataExportParamsSchema = z.object({ exportId: z.uuid() });

export type DataExportView = z.infer<typeof dataExportSchema>;
export type LatestDataExport = z.infer<typeof latestDataExportSchema>;
export type ChangeEmailInput = z.infer<typeof changeEmailSchema>;
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;
export type ChangePasswordFormInput = z.infer<typeof changePasswordFormSchema>;
export type Device = z.infer<typeof deviceSchema>;
export type DeviceList = z.infer<typeof deviceListSchema>;
