import { and, asc, eq, isNull } from 'drizzle-orm';
import type { TutorProfile } from '#shared/schemas/reviews.ts';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema/auth.ts';
import { subjects, teacherSpecializations } from '../../db/schema/subjects.ts';
import { AppError } from '../../http/errors.ts';
import { toTutorTrust, tutorTrustColumns } from './trust-columns.ts';

// A tutor's public page: profile texts, subjects, trust and first-response time (kept on the users row).

/**
 * Which teachers a visitor may see: those who show their profile to visitors and are not suspended. Signed-in users
 * see every teacher.
 */
export const visibleToVisitors = () =>
  and(eq(users.isVisibleToVisitors, true), isNull(users.suspendedAt), isNull(users.deletionRequestedAt));

/**
 * A teacher's public page (anyone else's id: 404). Only public columns are selected: no e-mail can leak. A visitor who
 * is not signed in gets only a teacher visible to visitors (else 404), and never the VH number, which is for members
 * to find each other.
 */
export async function getTutorProfile({
  db,
  tutorId,
  isSignedIn,
}: {
  db: Executor;
  tutorId: string;
  isSignedIn: boolean;
}): Promise<TutorProfile> {
  const [tutor] = await db
    .select({
      id: users.id,
      username: users.username,
      image: users.image,
      vhNumber: users.vhNumber,
      headline: users.headline,
      about: users.about,
      memberSince: users.createdAt,
      ...tutorTrustColumns(users),
      medianFirstResponseMinutes: users.responseMinutes,
    })
    .from(users)
    .where(
      and(
        eq(users.id, tutorId),
        eq(users.role, 'teacher'),
        eq(users.isSystem, false),
        isSignedIn ? undefined : visibleToVisitors(),
        isNull(users.deletionRequestedAt),
      ),
    );
  if (!tutor) throw new AppError('NOT_FOUND', { message: 'Tutor not found' });
  const specializations = await db
    .select({ id: subjects.id, name: subjects.name, category: subjects.category })
    .from(teacherSpecializations)
    .innerJoin(subjects, eq(subjects.id, teacherSpecializations.subjectId))
    .where(eq(teacherSpecializations.teacherId, tutorId))
    .orderBy(asc(subjects.category), asc(subjects.name));
  return {
    ...tutor,
    ...toTutorTrust(tutor),
    vhNumber: isSignedIn ? tutor.vhNumber : null,
    memberSince: tutor.memberSince.toISOString(),
    specializations,
  };
}

/** A teacher's id, or 404 as for a tutor's page. */
export async function assertTutorExists(db: Executor, tutorId: string) {
  const found = await db.$count(
    users,
    and(eq(users.id, tutorId), eq(users.role, 'teacher'), eq(users.isSystem, false), isNull(users.deletionRequestedAt)),
  );
  if (found === 0) throw new AppError('NOT_FOUND', { message: 'Tutor not found' });
}
