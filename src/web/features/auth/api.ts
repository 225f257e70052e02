import { queryOptions, useMutation } from '@tanstack/react-query';
import type { Role } from '#shared/constants.ts';
import type { Availability, ForgotPasswordInput, LoginInput, RegisterResponse } from '#shared/schemas/auth.ts';
import type { RestoreAccountInput } from '#shared/schemas/account-deletion.ts';
import type { DisableTwoFactorInput, NewBackupCodes, TwoFactorEnrolment } from '#shared/schemas/two-factor.ts';
import { paths } from '#shared/paths.ts';
import { apiFetch } from '#web/lib/api.ts';
import { replacingSession } from '#web/lib/auth-client.ts';

// Where the links in better-auth's mails return to (pages of this app).
const CONFIRMED_CALLBACK = `${paths.auth.login.getHref()}?confirmed=1`;
const RESET_PAGE = paths.auth.resetPassword.getHref();

// --- Sign in -------------------------------------------------------------------------------------

/** A right password of an account with a second factor opens no session yet: the code comes next. */
export type SignInAnswer = { twoFactorRedirect?: boolean } | null;

export function signIn(input: LoginInput) {
  return apiFetch<SignInAnswer>('/api/auth/sign-in/email', { method: 'POST', body: input });
}

// --- Second factor (admins) ----------------------------------------------------------------------

/** Step one of enrolment: the app's otpauth:// address and the backup codes; off until a code confirms it. */
export function enableTwoFactor(password: string) {
  return apiFetch<TwoFactorEnrolment>('/api/auth/two-factor/enable', { method: 'POST', body: { password } });
}

/** An authenticator code: confirms an enrolment (a new session replaces this one), or finishes a sign-in. */
export function verifyTotp(code: string) {
  return replacingSession(apiFetch<unknown>('/api/auth/two-factor/verify-totp', { method: 'POST', body: { code } }));
}

/** A backup code instead of the app's, at sign-in; each works once. */
export function verifyBackupCode(code: string) {
  return apiFetch<unknown>('/api/auth/two-factor/verify-backup-code', { method: 'POST', body: { code } });
}

/** Ten new backup codes for the password; the earlier ones stop working. */
export function generateBackupCodes(password: string) {
  return apiFetch<NewBackupCodes>('/api/auth/two-factor/generate-backup-codes', {
    method: 'POST',
    body: { password },
  });
}

/** Turns the second factor off (not the super-admin's): the password and a code the app shows now. */
export function disableTwoFactor(input: DisableTwoFactorInput) {
  return replacingSession(apiFetch<unknown>('/api/auth/two-factor/disable', { method: 'POST', body: input }));
}

export function useSignIn() {
  return useMutation({ mutationFn: signIn });
}

/** Sends a fresh confirmation link (sign-in also sends one when it refuses an unconfirmed address). */
function sendConfirmationEmail(email: string) {
  return apiFetch<unknown>('/api/auth/send-verification-email', {
    method: 'POST',
    body: { email, callbackURL: CONFIRMED_CALLBACK },
  });
}

export function useSendConfirmationEmail() {
  return useMutation({ mutationFn: sendConfirmationEmail });
}

/** Gives back an account being deleted (it has no session: the address and password name it). */
export function useRestoreAccount() {
  return useMutation({
    mutationFn: (input: RestoreAccountInput) =>
      apiFetch<{ message: string }>('/api/account/deletion/restore', { method: 'POST', body: input }),
  });
}

// --- Password reset ------------------------------------------------------------------------------

/** Always succeeds for a well-formed address, whether or not an account has it. */
function requestPasswordReset(input: ForgotPasswordInput) {
  return apiFetch<unknown>('/api/auth/request-password-reset', {
    method: 'POST',
    body: { email: input.email, redirectTo: RESET_PAGE },
  });
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}

export function resetPassword(input: { newPassword: string; token: string }) {
  return apiFetch<unknown>('/api/auth/reset-password', { method: 'POST', body: input });
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}

// --- Registration --------------------------------------------------------------------------------

type RegisterRequest = {
  name: string;
  email: string;
  password: string;
  role: Role;
  specializations: string[];
  avatar?: File | undefined;
};

/** multipart/form-data, as the avatar needs: checkboxes as "true", one field per subject id. */
export function register(input: RegisterRequest) {
  const body = new FormData();
  body.append('name', input.name);
  body.append('email', input.email);
  body.append('password', input.password);
  body.append('role', input.role);
  body.append('acceptTerms', 'true');
  body.append('acceptPrivacy', 'true');
  body.append('confirmAge', 'true');
  if (input.role === 'teacher') {
    for (const subjectId of input.specializations) body.append('specializations', subjectId);
  }
  if (input.avatar) body.append('avatar', input.avatar);
  return apiFetch<RegisterResponse>('/api/accounts/register', { method: 'POST', body });
}

export function useRegister() {
  return useMutation({ mutationFn: register });
}

// --- Availability of a username or an e-mail address ---------------------------------------------

export type AvailabilityField = 'username' | 'email';

function fetchAvailability(field: AvailabilityField, value: string, signal?: AbortSignal) {
  const query = new URLSearchParams({ [field]: value });
  return apiFetch<Availability>(`/api/accounts/availability?${query.toString()}`, { signal });
}

export const availabilityQueryKey = (field: AvailabilityField, value: string) =>
  ['accounts', 'availability', field, value] as const;

export const availabilityQueryOptions = (field: AvailabilityField, value: string) =>
  queryOptions({
    queryKey: availabilityQueryKey(field, value),
    queryFn: ({ signal }) => fetchAvailability(field, value, signal),
    // Someone else may take the name meanwhile: the check is repeated on submit anyway.
    staleTime: 30 * 1000,
    retry: false,
  });
