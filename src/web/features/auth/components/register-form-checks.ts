import type { Resolver } from 'react-hook-form';
import { DEFAULT_ROLE, type Role } from '#shared/constants.ts';
import { specializationMessages, specializationProblem } from '#shared/rules/specializations.ts';
import type { Subject } from '#shared/schemas/profiles.ts';
import { lazyZodResolver } from '#web/lib/lazy-zod-resolver.ts';
import type { RegisterFormOutput, RegisterFormValues } from './register-form-schema.ts';

// The registration form's fields and the checks it runs before the server does.

export const fieldNames = [
  'name',
  'email',
  'password',
  'role',
  'specializations',
  'acceptTerms',
  'acceptPrivacy',
  'confirmAge',
  'avatar',
] as const satisfies readonly (keyof RegisterFormValues)[];

export type ResolverContext = { subjects: Subject[] };

const schemaResolver = lazyZodResolver(async () => (await import('./register-form-schema.ts')).registerFormSchema);

/** A teacher's subjects must follow the category rule; checked here too so every problem shows at once. */
function teacherSubjectsProblem(values: RegisterFormValues, subjects: Subject[]) {
  if (values.role !== 'teacher') return null;
  const categories = values.specializations.map((id) => subjects.find((subject) => subject.id === id)?.category);
  if (categories.some((category) => category === undefined)) return specializationMessages.unknown;
  return specializationProblem(categories as string[]);
}

const checkRegisterForm: Resolver<RegisterFormValues, ResolverContext, RegisterFormOutput> = async (
  values,
  context,
  options,
) => {
  const result = await schemaResolver(values, context, options);
  // The rules could not be fetched: the form says so, and nothing is sent.
  if (result.errors.root) return result;
  const problem = teacherSubjectsProblem(values, context?.subjects ?? []);
  if (!problem) return result;
  return { values: {}, errors: { ...result.errors, specializations: { type: 'custom', message: problem } } };
};

/** The form's resolver; `preload` fetches its rules as someone starts filling the form in. */
export const resolver = Object.assign(checkRegisterForm, { preload: schemaResolver.preload });

export function roleFromSearch(value: string | null): Role {
  return value === 'teacher' || value === 'student' ? value : DEFAULT_ROLE;
}
