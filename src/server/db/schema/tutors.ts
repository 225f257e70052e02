import { index, pgTable, primaryKey, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth.ts';
import { createdAt } from './columns.ts';

/** A student's saved tutors (the heart on a tutor's card and page), listed on /tutors/saved. */
export const savedTutors = pgTable(
  'saved_tutors',
  {
    studentId: uuid('student_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tutorId: uuid('tutor_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    // Saving twice keeps one row.
    primaryKey({ columns: [t.studentId, t.tutorId] }),
    // The student's list, newest first, a keyset page at a time.
    index('saved_tutors_student_created_idx').on(
      t.studentId,
      t.createdAt.desc().nullsFirst(),
      t.tutorId.desc().nullsFirst(),
    ),
  ],
);
