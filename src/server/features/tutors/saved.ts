import { and, desc, eq, isNull, or } from 'drizzle-orm';
import { SAVED_TUTORS, type SavedTutorsPage } from '#shared/schemas/saved-tutors.ts';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema/auth.ts';
import { savedTutors } from '../../db/schema/tutors.ts';
import { cursorMicros, olderThan, toPage } from '../../db/keyset.ts';
import { AppError } from '../../http/errors.ts';
import { toTutorTrust } from './trust-columns.ts';
import { tutorCardColumns } from './directory.ts';

// A student's saved tutors: the heart on a tutor's card and page, and the /tutors/saved list.

const tutorNotFound = () => new AppError('NOT_FOUND', { message: 'Tutor not found' });

/** Tutors a student can save and see saved: teacher accounts, not the assistant, not suspended or leaving. */
const savableTutor = and(
  eq(users.role, 'teacher'),
  eq(users.isSystem, false),
  isNull(users.suspendedAt),
  isNull(users.deletionRequestedAt),
  isNull(users.erasedAt),
);

/** Saves a tutor for the student (again: nothing changes); not a tutor one can save: 404; past the most: 409. */
export async function saveTutor({ db, studentId, tutorId }: { db: Executor; studentId: string; tutorId: string }) {
  const found = await db.$count(users, and(eq(users.id, tutorId), savableTutor));
  if (found === 0) throw tutorNotFound();
  if ((await db.$count(savedTutors, eq(savedTutors.studentId, studentId))) >= SAVED_TUTORS.max) {
    throw new AppError('CONFLICT', { message: `You can save up to ${SAVED_TUTORS.max} tutors` });
  }
  await db.insert(savedTutors).values({ studentId, tutorId }).onConflictDoNothing();
}

/** Forgets a saved tutor (not saved: nothing changes). */
export async function unsaveTutor({ db, studentId, tutorId }: { db: Executor; studentId: string; tutorId: string }) {
  await db.delete(savedTutors).where(and(eq(savedTutors.studentId, studentId), eq(savedTutors.tutorId, tutorId)));
}

/** The ids of the student's saved tutors, for the hearts on cards and pages. */
export async function listSavedTutorIds({ db, studentId }: { db: Executor; studentId: string }) {
  const rows = await db
    .select({ tutorId: savedTutors.tutorId })
    .from(savedTutors)
    .where(eq(savedTutors.studentId, studentId))
    .limit(SAVED_TUTORS.max);
  return rows.map((row) => row.tutorId);
}

/** The student's saved tutors as directory cards, the latest saved first, a keyset page at a time. */
export async function listSavedTutors({
  db,
  studentId,
  cursor,
}: {
  db: Executor;
  studentId: string;
  cursor?: string;
}): Promise<SavedTutorsPage> {
  const rows = await db
    .select({ ...tutorCardColumns(), cursorMicros: cursorMicros(savedTutors.createdAt) })
    .from(savedTutors)
    .innerJoin(users, and(eq(users.id, savedTutors.tutorId), savableTutor))
    .where(and(eq(savedTutors.studentId, studentId), olderThan(savedTutors.createdAt, savedTutors.tutorId, cursor)))
    .orderBy(desc(savedTutors.createdAt), desc(savedTutors.tutorId))
    .limit(SAVED_TUTORS.pageSize + 1);
  const { page, nextCursor } = toPage(rows, SAVED_TUTORS.pageSize);
  return { tutors: page.map(({ cursorMicros: _, ...row }) => ({ ...row, ...toTutorTrust(row) })), nextCursor };
}

/** A leaving account's saved tutors, and its place in others' lists. */
export async function forgetSavedTutorsOf({ db, userId }: { db: Executor; userId: string }) {
  await db.delete(savedTutors).where(or(eq(savedTutors.studentId, userId), eq(savedTutors.tutorId, userId)));
}
