import { pgTable, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth.ts';
import { timestamptz } from './columns.ts';

/**
 * The question Guru AI is answering for each student, held here so that every server of a cluster refuses the
 * student's next question until the answer is stored (or fails), or the hold expires (a server stopped mid-answer).
 */
export const guruQuestionTurns = pgTable('guru_question_turns', {
  studentId: uuid('student_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** The question's clientId, so only its own answer gives the turn back. */
  clientId: uuid('client_id').notNull(),
  expiresAt: timestamptz('expires_at').notNull(),
});
