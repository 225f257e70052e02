import { z } from 'zod';
import { ROLES } from '#shared/constants.ts';
import { avatarRules, type FileLike } from '#shared/rules/avatar.ts';

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

/** Adds the avatar rules (#shared/rules/avatar.ts) to a file schema: `z.instanceof(File)` in the browser, the upload
 * on the server. */
export const withAvatarRules = <T extends FileLike, Input>(file: z.ZodType<T, Input>) =>
  avatarRules.reduce((schema, rule) => schema.refine(rule.isMet, rule.message), file);

export type Subject = z.infer<typeof subjectSchema>;
export type Profile = z.infer<typeof profileSchema>;
