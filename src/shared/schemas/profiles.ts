import { z } from 'zod';
import { AVATAR, MATHEMATICS_CATEGORY, ROLES } from '#shared/constants.ts';

// Profiles, subjects and teacher specializations, shared by the forms and the API.

export const subjectSchema = z.object({ id: z.uuid(), name: z.string(), category: z.string() });

export const subjectIdsSchema = z.array(z.uuid('Unknown subject'), { error: 'Unknown subject' }).max(100);

export const updateSpecializationsSchema = z.object({ subjectIds: subjectIdsSchema });

export const profileSchema = z.object({
  id: z.uuid(),
  username: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  vhNumber: z.number().int(),
  image: z.string().nullable(),
  specializations: z.array(subjectSchema),
  /** A teacher's public headline and about text (null when unset, and always for students). */
  headline: z.string().nullable(),
  about: z.string().nullable(),
});

// Specializations (SPEC.md §2 Register): several subjects in Mathematics, exactly one anywhere else.
export const specializationMessages = {
  required: 'Please choose at least one subject',
  unknown: 'Unknown subject',
  oneOutsideMathematics: `Only ${MATHEMATICS_CATEGORY} allows several subjects; choose one subject in other categories`,
} as const;

/** Why a teacher's choice of subjects (given by their categories) is refused, or null when it is fine. */
export function specializationProblem(categories: readonly string[]): string | null {
  if (categories.length === 0) return specializationMessages.required;
  const [first] = categories;
  const oneCategory = categories.every((category) => category === first);
  if (!oneCategory || (first !== MATHEMATICS_CATEGORY && categories.length > 1))
    return specializationMessages.oneOutsideMathematics;
  return null;
}

// Avatars (SPEC.md §5 Register, §9).
const avatarMessages = {
  tooLarge: 'Max file size is 5MB',
  badType: 'Only .jpg, .jpeg, .png and .webp formats are supported',
} as const;

/** What a browser File and a server upload both have; on the server `type` is detected from the bytes. */
export type FileLike = { size: number; type: string };

/** Adds the avatar rules to a file schema: `z.instanceof(File)` in the browser, the upload on the server. */
export const withAvatarRules = <T extends FileLike, Input>(file: z.ZodType<T, Input>) =>
  file
    .refine((value) => value.size <= AVATAR.maxBytes, avatarMessages.tooLarge)
    .refine((value) => (AVATAR.types as readonly string[]).includes(value.type), avatarMessages.badType);

export type Subject = z.infer<typeof subjectSchema>;
export type Profile = z.infer<typeof profileSchema>;
