import { z } from 'zod';
import { cursorSchema } from './cursor.ts';
import { tutorCardSchema } from './directory.ts';

// Saved tutors (/tutors/saved and the heart on tutor cards and pages), shared by the API and the web.

export const SAVED_TUTORS = {
  pageSize: 20,
  /** A student keeps at most this many: the hearts' list of ids stays one small answer. */
  max: 500,
} as const;

export const savedTutorsQuerySchema = z.object({ cursor: cursorSchema.optional() });

export const savedTutorsPageSchema = z.object({
  tutors: z.array(tutorCardSchema),
  nextCursor: cursorSchema.nullable(),
});

export const savedTutorIdsSchema = z.object({ tutorIds: z.array(z.uuid()) });

export type SavedTutorsPage = z.infer<typeof savedTutorsPageSchema>;
