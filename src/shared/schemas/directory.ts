import { z } from 'zod';
import { TUTORING_BUDGET_CENTS, UUID_PATTERN } from '../constants.ts';
import { INVALID_CURSOR_MESSAGE } from './cursor.ts';
import { tutorTrustSchema } from './reviews.ts';

// Find Tutors (/tutors): the directory's filters, sorts and cards, shared by the page and the API.

export const DIRECTORY = {
  pageSize: 20,
  /** The longest text search: a few words are enough to narrow 10,000 tutors. */
  queryMax: 100,
  /** How many of the SPEC.md subjects one search may ask for. */
  subjectsMax: 20,
  /** "Responds within" choices, in minutes. */
  respondsWithinMinutes: [60, 6 * 60, 24 * 60],
  /** Minimum-rating choices, in stars. */
  minRatings: [3, 3.5, 4, 4.5],
} as const;

export const DIRECTORY_SORTS = ['best', 'rating', 'price', 'newest'] as const;
export type DirectorySort = (typeof DIRECTORY_SORTS)[number];

export const directoryMessages = {
  query: `A search can be at most ${DIRECTORY.queryMax} characters`,
  subjects: 'Unknown subject',
  minRating: 'Please choose a minimum rating from the list',
  rate: `Rates are between $${TUTORING_BUDGET_CENTS.min / 100} and $${TUTORING_BUDGET_CENTS.max / 100}`,
  rateOrder: 'The lowest rate cannot be above the highest rate',
  respondsWithin: 'Please choose a response time from the list',
  sort: 'Please choose a sort from the list',
} as const;

/**
 * The position after a page's last card: its sort keys (whole numbers) then its id, `<key>.<key>_<uuid>`. Which sort
 * it belongs to is checked by the server (a cursor of another sort is a 400 too).
 */
export const directoryCursorSchema = z
  .string()
  // At most 18 digits: every such number fits the database's bigint, so no cursor can overflow the query.
  .regex(new RegExp(`^-?\\d{1,18}(\\.-?\\d{1,18}){0,2}_${UUID_PATTERN}$`), INVALID_CURSOR_MESSAGE);

const rateCents = z.coerce
  .number({ error: directoryMessages.rate })
  .int(directoryMessages.rate)
  .min(TUTORING_BUDGET_CENTS.min, directoryMessages.rate)
  .max(TUTORING_BUDGET_CENTS.max, directoryMessages.rate);

/** The directory's address: every filter is a query parameter, so a search can be shared and the back button works. */
export const directoryQuerySchema = z
  .object({
    q: z.string().trim().max(DIRECTORY.queryMax, directoryMessages.query).optional(),
    /** Subject ids, comma-separated: tutors teaching any of them. */
    subjects: z
      .string()
      .optional()
      .transform((value) => (value ? [...new Set(value.split(','))] : []))
      .pipe(z.array(z.uuid(directoryMessages.subjects)).max(DIRECTORY.subjectsMax, directoryMessages.subjects)),
    minRating: z.coerce
      .number({ error: directoryMessages.minRating })
      .refine((value) => (DIRECTORY.minRatings as readonly number[]).includes(value), directoryMessages.minRating)
      .optional(),
    minRateCents: rateCents.optional(),
    maxRateCents: rateCents.optional(),
    respondsWithin: z.coerce
      .number({ error: directoryMessages.respondsWithin })
      .refine(
        (value) => (DIRECTORY.respondsWithinMinutes as readonly number[]).includes(value),
        directoryMessages.respondsWithin,
      )
      .optional(),
    sort: z.enum(DIRECTORY_SORTS, { error: directoryMessages.sort }).default('best'),
    cursor: directoryCursorSchema.optional(),
  })
  // A range that holds no rate is a mistake to say, not an empty page.
  .refine(
    ({ minRateCents, maxRateCents }) =>
      minRateCents === undefined || maxRateCents === undefined || minRateCents <= maxRateCents,
    { path: ['maxRateCents'], message: directoryMessages.rateOrder },
  );

export const tutorCardSchema = tutorTrustSchema.extend({
  id: z.uuid(),
  username: z.string(),
  image: z.string().nullable(),
  headline: z.string().nullable(),
  /** Subject names, by name. */
  subjects: z.array(z.string()),
  hourlyRateCents: z.number().int().nullable(),
  /** Median minutes to a first answer; null before the first bid. */
  responseMinutes: z.number().int().nullable(),
});

export const directoryPageSchema = z.object({
  tutors: z.array(tutorCardSchema),
  nextCursor: z.string().nullable(),
});

export type DirectoryQuery = z.infer<typeof directoryQuerySchema>;
export type DirectoryQueryInput = z.input<typeof directoryQuerySchema>;
export type TutorCard = z.infer<typeof tutorCardSchema>;
export type DirectoryPage = z.infer<typeof directoryPageSchema>;
