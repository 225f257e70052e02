import { and, asc, eq, inArray, isNull, ne, not } from 'drizzle-orm';
import { VH_SEARCH_LIMIT, type Role } from '#shared/constants.ts';
import type { VhSearchResult } from '#shared/schemas/search.ts';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema/auth.ts';
import { subjects, teacherSpecializations } from '../../db/schema/subjects.ts';
import { isAdminUser } from '../admin/service.ts';
import { toTutorTrust, tutorTrustColumns } from '../tutors/service.ts';

/**
 * Up to VH_SEARCH_LIMIT people of `role` with this VH number, by username. The searcher, admins and system
 * accounts (Guru AI) are never found. Only public columns are selected: no e-mail address can leak.
 */
export async function searchByVhNumber({
  db,
  searcherId,
  vhNumber,
  role,
}: {
  db: Executor;
  searcherId: string;
  vhNumber: number;
  role: Role;
}): Promise<VhSearchResult[]> {
  const people = await db
    .select({
      id: users.id,
      username: users.username,
      role: users.role,
      vhNumber: users.vhNumber,
      image: users.image,
      ...tutorTrustColumns(users),
    })
    .from(users)
    .where(
      and(
        eq(users.vhNumber, vhNumber),
        eq(users.role, role),
        eq(users.isSystem, false),
        isNull(users.deletionRequestedAt),
        ne(users.id, searcherId),
        not(isAdminUser(users.id)),
      ),
    )
    .orderBy(asc(users.username))
    .limit(VH_SEARCH_LIMIT);

  const teacherIds = people.filter((person) => person.role === 'teacher').map((person) => person.id);
  const taught =
    teacherIds.length === 0
      ? []
      : await db
          .select({
            teacherId: teacherSpecializations.teacherId,
            id: subjects.id,
            name: subjects.name,
            category: subjects.category,
          })
          .from(teacherSpecializations)
          .innerJoin(subjects, eq(subjects.id, teacherSpecializations.subjectId))
          .where(inArray(teacherSpecializations.teacherId, teacherIds))
          .orderBy(asc(subjects.category), asc(subjects.name));

  return people.map((person) => ({
    ...person,
    ...toTutorTrust(person),
    specializations: taught
      .filter((subject) => subject.teacherId === person.id)
      .map(({ id, name, category }) => ({ id, name, category })),
  }));
}
