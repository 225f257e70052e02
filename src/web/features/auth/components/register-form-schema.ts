import { zodResolver } from '@hookform/resolvers/zod';
import type { Resolver } from 'react-hook-form';
import { z } from 'zod';
import { DEFAULT_ROLE, type Role } from '#shared/constants.ts';
import { registerSchema } from '#shared/schemas/auth.ts';
import { specializationMessages, specializationProblem, type Subject } from '#shared/schemas/profiles.ts';
import { avatarFileSchema } from '#web/lib/avatar.ts';

// The registration form's values and the rules it checks before the server does.

// The form always holds a role and a subject list, so they need no default; the checkboxes start unticked, which
// the shared schema's `true` literal does not describe: the form takes a boolean and hands on only `true`.
const registerFormSchema = registerSchema.extend({
  role: registerSchema.shape.role.unwrap(),
  specializations: registerSchema.shape.specializations.unwrap(),
  acceptTerms: z.boolean().pipe(registerSchema.shape.acceptTerms),
  acceptPrivacy: z.boolean().pipe(registerSchema.shape.acceptPrivacy),
  avatar: avatarFileSchema.optional(),
});

export type RegisterFormValues = z.input<typeof registerFormSchema>;
export type RegisterFormOutput = z.output<typeof registerFormSchema>;

export const fieldNames = [
  'name',
  'email',
  'password',
  'role',
  'specializations',
  'acceptTerms',
  'acceptPrivacy',
  'avatar',
] as const satisfies readonly (keyof RegisterFormValues)[];

export type ResolverContext = { subjects: Subject[] };
const schemaResolver = zodResolver(registerFormSchema);

/** A teacher's subjects must follow the category rule; checked here too so every problem shows at once. */
function teacherSubjectsProblem(values: RegisterFormValues, subjects: Subject[]) {
  if (values.role !== 'teacher') return null;
  const categories = values.specializations.map((id) => subjects.find((subject) => subject.id === id)?.category);
  if (categories.some((category) => category === undefined)) return specializationMessages.unknown;
  return specializationProblem(categories as string[]);
}

export const resolver: Resolver<RegisterFormValues, ResolverContext, RegisterFormOutput> = async (
  values,
  context,
  options,
) => {
  const result = await schemaResolver(values, context, options);
  const problem = teacherSubjectsProblem(values, context?.subjects ?? []);
  if (!problem) return result;
  return { values: {}, errors: { ...result.errors, specializations: { type: 'custom', message: problem } } };
};

export function roleFromSearch(value: string | null): Role {
  return value === 'teacher' || value === 'student' ? value : DEFAULT_ROLE;
}
