import { z } from 'zod';
import { ROLES } from '#shared/constants.ts';
import { subjectSchema } from './profiles.ts';
import { tutorTrustSchema } from './reviews.ts';

// Search by VH number (SPEC.md §5 "VH search"), shared by the search screens and the API.

export const VH_SEARCH_INVALID = 'Invalid search - Please enter a valid Virtual Help number (3 digits)';

/** Exactly three ASCII digits once trimmed: no letters, no inner spaces, no other scripts' digits. */
export const vhNumberInputSchema = z
  .string({ error: VH_SEARCH_INVALID })
  .trim()
  .regex(/^[0-9]{3}$/, VH_SEARCH_INVALID);

export const vhSearchQuerySchema = z.object({ vh: vhNumberInputSchema });

/** A person found by VH number. Deliberately without the e-mail address. */
const vhSearchResultSchema = z.object({
  id: z.uuid(),
  username: z.string(),
  role: z.enum(ROLES),
  vhNumber: z.number().int(),
  image: z.string().nullable(),
  /** A teacher's subjects (empty for students). */
  specializations: z.array(subjectSchema),
  /** A teacher's rating and completed jobs (zeros and null for students). */
  ...tutorTrustSchema.shape,
});

export const vhSearchAnswerSchema = z.object({ results: z.array(vhSearchResultSchema) });

export type VhSearchResult = z.infer<typeof vhSearchResultSchema>;
export type VhSearchAnswer = z.infer<typeof vhSearchAnswerSchema>;

/** What each search screen looks for and says (SPEC.md §5, §8). */
export const VH_SEARCH_KINDS = {
  students: {
    role: 'student',
    noResults: { title: 'No students found', description: 'No student found with this Virtual Help number' },
    alreadyConnected: 'You already have a chat room with this student',
  },
  experts: {
    role: 'teacher',
    noResults: { title: 'No experts found', description: 'No expert found with this Virtual Help number' },
    alreadyConnected: 'You already have a chat room with this expert',
  },
} as const;
export type VhSearchKind = keyof typeof VH_SEARCH_KINDS;
