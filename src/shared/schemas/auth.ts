import { z } from 'zod';
import { MINIMUM_AGE, NAME_MIN, PASSWORD_MIN, RESET_PASSWORD_MIN, ROLES } from '#shared/constants.ts';
import { subjectIdsSchema } from '#shared/schemas/profiles.ts';

// Accounts (SPEC.md §5 Login / Register / Forgot password / New password), shared by the forms and the API.

const USERNAME_MAX = 30;
// better-auth refuses longer passwords; saying so beats a generic error.
const PASSWORD_MAX = 128;

export const availabilityMessages = {
  usernameRequired: 'Username is required',
  usernameAvailable: 'Username is available',
  emailRequired: 'Valid email is required',
  emailAvailable: 'Email is available',
} as const;

// The string method (not z.email()) so the address is trimmed and lower-cased before it is checked.
export const emailSchema = z
  .string({ error: 'Invalid email address' })
  .trim()
  .toLowerCase()
  .max(254, 'Invalid email address')
  .pipe(z.email('Invalid email address'));

export const usernameSchema = z
  .string({ error: 'Name must be at least 2 characters' })
  .min(NAME_MIN, 'Name must be at least 2 characters')
  .max(USERNAME_MAX, `Username must be at most ${USERNAME_MAX} characters`)
  .regex(/^[a-z0-9]+$/, 'Username can only contain lowercase letters and numbers, no spaces or special characters');

const passwordSchema = z
  .string({ error: 'Password must be at least 6 characters' })
  .min(PASSWORD_MIN, 'Password must be at least 6 characters')
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`);

/** The reset screen's stricter rule (8 characters, upper, lower, digit), also enforced by the server on reset. */
export const strongPasswordSchema = z
  .string({ error: 'Password must be at least 8 characters' })
  .min(RESET_PASSWORD_MIN, 'Password must be at least 8 characters')
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`)
  .regex(/[A-Z]/, 'Password must contain at least one uppercase letter')
  .regex(/[a-z]/, 'Password must contain at least one lowercase letter')
  .regex(/[0-9]/, 'Password must contain at least one number');

export const loginSchema = z.object({ email: emailSchema, password: passwordSchema });

export const registerSchema = z.object({
  name: usernameSchema,
  email: emailSchema,
  password: passwordSchema,
  role: z.enum(ROLES, { error: 'Role must be student or teacher' }).default('student'),
  // Subject ids; only teachers keep them (see specializationProblem).
  specializations: subjectIdsSchema.default([]),
  acceptTerms: z.literal(true, { error: 'You must accept the Terms and Conditions' }),
  acceptPrivacy: z.literal(true, { error: 'You must accept the Privacy Policy' }),
  // Kept with the time of consent (users.age_confirmed_at).
  confirmAge: z.literal(true, { error: `You must be at least ${MINIMUM_AGE} years old to use Virtual Help` }),
});

export const forgotPasswordSchema = z.object({ email: emailSchema });

export const newPasswordSchema = z
  .object({ password: strongPasswordSchema, confirmPassword: z.string() })
  .refine((value) => value.password === value.confirmPassword, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  });

export const availabilityQuerySchema = z
  .object({ username: z.string().max(254).optional(), email: z.string().max(254).optional() })
  .refine(
    (query) => (query.username === undefined) !== (query.email === undefined),
    'Ask about either a username or an email',
  );

export const availabilitySchema = z.object({ available: z.boolean(), message: z.string() });

export const registerResponseSchema = z.object({
  user: z.object({
    id: z.uuid(),
    username: z.string(),
    email: z.string(),
    role: z.enum(ROLES),
    vhNumber: z.number().int(),
  }),
  requiresEmailConfirmation: z.boolean(),
});

export type LoginInput = z.infer<typeof loginSchema>;
export type RegisterInput = z.infer<typeof registerSchema>;
export type ForgotPasswordInput = z.infer<typeof forgotPasswordSchema>;
export type NewPasswordInput = z.infer<typeof newPasswordSchema>;
export type Availability = z.infer<typeof availabilitySchema>;
export type RegisterResponse = z.infer<typeof registerResponseSchema>;
