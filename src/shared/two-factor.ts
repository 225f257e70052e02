// An admin's second factor: an authenticator app's six-digit code (TOTP), or one of the backup codes shown once at
// enrolment. The texts of the enrolment screen, the sign-in prompt and the API's refusals.

export const TOTP_DIGITS = 6;
export const TOTP_CODE_PATTERN = new RegExp(`^\\d{${TOTP_DIGITS}}$`);
// better-auth's backup codes are ten letters and digits written `xxxxx-xxxxx`.
export const BACKUP_CODE_PATTERN = /^[A-Za-z0-9]{5}-[A-Za-z0-9]{5}$/;

export const twoFactorMessages = {
  passwordRequired: 'Enter your password.',
  codeRequired: `Enter the ${TOTP_DIGITS}-digit code from your authenticator app.`,
  backupCodeRequired: 'Enter one of your backup codes.',
  wrongCode: 'This code is not right. Enter the code your app shows now.',
  wrongBackupCode: 'This backup code is not right or has been used.',
  wrongPassword: 'This password is not right.',
  challengeExpired: 'The sign-in took too long. Sign in with your password again.',
  tooManyAttempts: 'Too many wrong codes. Sign in with your password again.',
  locked: 'Too many wrong codes for this account. Try again in 15 minutes.',
  alreadyEnabled: 'Two-factor sign-in is already on for this account.',
  adminsOnly: 'Only admins can turn on two-factor sign-in.',
  required: 'Set up two-factor sign-in before using the admin panel.',
  enrolled: 'Two-factor sign-in is on.',
  notEnabled: 'Two-factor sign-in is not on for this account.',
  superAdminKeepsIt: 'The super-admin keeps two-factor sign-in on.',
  turnedOff: 'Two-factor sign-in is off.',
  newBackupCodes: 'New backup codes are ready. The earlier ones no longer work.',
} as const;
