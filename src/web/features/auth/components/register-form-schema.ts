import { z } from 'zod';
import { registerSchema } from '#shared/schemas/auth.ts';
import { withAvatarRules } from '#shared/schemas/profiles.ts';

// The rules the registration form checks before the server does: loaded as the form is filled in
// (register-form-checks.ts), so that zod is not part of the page's first download.

// The form always holds a role and a subject list, so they need no default; the checkboxes start unticked, which
// the shared schema's `true` literal does not describe: the form takes a boolean and hands on only `true`.
export const registerFormSchema = registerSchema.extend({
  role: registerSchema.shape.role.unwrap(),
  specializations: registerSchema.shape.specializations.unwrap(),
  acceptTerms: z.boolean().pipe(registerSchema.shape.acceptTerms),
  acceptPrivacy: z.boolean().pipe(registerSchema.shape.acceptPrivacy),
  confirmAge: z.boolean().pipe(registerSchema.shape.confirmAge),
  avatar: withAvatarRules(z.instanceof(File)).optional(),
});

export type RegisterFormValues = z.input<typeof registerFormSchema>;
export type RegisterFormOutput = z.output<typeof registerFormSchema>;
