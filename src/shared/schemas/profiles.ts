import { z } from 'zod';
import { ROLES, TUTORING_BUDGET_CENTS } from '#shared/constants.ts';
import { formatCents } from '#shared/rules/money.ts';
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
  /** A teacher's hourly rate for tutoring and whether signed-out visitors see them (students: null and true). */
  hourlyRateCents: z.number().int().nullable(),
  isVisibleToVisitors: z.boolean(),
});

export const listingMessages = {
  hourlyRate: `Your hourly rate must be between ${formatCents(TUTORING_BUDGET_CENTS.min)} and ${formatCents(TUTORING_BUDGET_CENTS.max)}`,
  visibility: 'Please choose whether visitors see your profile',
} as const;

/** A teacher's hourly rate (whole cents within the tutoring budget range, or none) and visibility to visitors. */
export const updateTutorListingSchema = z.object({
  hourlyRateCents: z
    .number({ error: listingMessages.hourlyRate })
    .int(listingMessages.hourlyRate)
    .min(TUTORING_BUDGET_CENTS.min, listingMessages.hourlyRate)
    .max(TUTORING_BUDGET_CENTS.max, listingMessages.hourlyRate)
    .nullable(),
  isVisibleToVisitors: z.boolean({ error: listingMessages.visibility }),
});

/** Adds the avatar rules (#shared/rules/avatar.ts) to a file schema: `z.instanceof(File)` in the browser, the upload
 * on the server. */
export const withAvatarRules = <T extends FileLike, Input>(file: z.ZodType<T, Input>) =>
  avatarRules.reduce((schema, rule) => schema.refine(rule.isMet, rule.message), file);

export type Subject = z.infer<typeof subjectSchema>;
export type Profile = z.infer<typeof profileSchema>;
export type TutorListing = z.infer<typeof updateTutorListingSchema>;
