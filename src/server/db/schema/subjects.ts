import { sql } from 'drizzle-orm';
import { index, pgTable, primaryKey, text, unique, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth.ts';
import { createdAt, id } from './columns.ts';

export const subjects = pgTable(
  'subjects',
  {
    id: id(),
    name: text('name').notNull(),
    // One category is "Mathematics", where teachers may pick several subjects.
    category: text('category').notNull(),
  },
  (t) => [unique('subjects_category_name_key').on(t.category, t.name)],
);

export const teacherSpecializations = pgTable(
  'teacher_specializations',
  {
    teacherId: uuid('teacher_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    subjectId: uuid('subject_id')
      .notNull()
      .references(() => subjects.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'teacher_specializations_pkey', columns: [t.teacherId, t.subjectId] }),
    // "Teachers of this subject", for job notifications on a new request.
    index('teacher_specializations_subject_id_idx').on(t.subjectId),
  ],
);

/** Subjects chosen at sign-up, applied at the teacher's first sign-in (SPEC §4). */
export const pendingSpecializations = pgTable('pending_specializations', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  subjectIds: uuid('subject_ids')
    .array()
    .notNull()
    .default(sql`'{}'::uuid[]`),
  createdAt: createdAt(),
});

export type Subject = typeof subjects.$inferSelect;
