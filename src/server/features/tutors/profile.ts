import { and, asc, eq, sql } from 'drizzle-orm';
import type { TutorProfile } from '#shared/schemas/reviews.ts';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema/auth.ts';
import { messages } from '../../db/schema/chat.ts';
import { tutorBids, tutoringRequests } from '../../db/schema/requests.ts';
import { subjects, teacherSpecializations } from '../../db/schema/subjects.ts';
import { AppError } from '../../http/errors.ts';
import { toTutorTrust, tutorTrustColumns } from './trust-columns.ts';

// A tutor's public page: profile texts, subjects, trust and first-response time.

/** How many of a tutor's latest bids the median first-response time looks at. */
const FIRST_RESPONSE_SAMPLE = 100;

/**
 * The median time from a new job to the tutor's first answer to its student (the bid, or a chat message to that
 * student if one came first), over the tutor's latest bids.
 */
function medianFirstResponseMinutes(tutorId: string) {
  // Written with aliases: drizzle leaves columns of a single-table select unqualified, which is ambiguous here.
  return sql<number | null>`(select percentile_cont(0.5) within group (order by minutes) from (
    select extract(epoch from least(bid.created_at, coalesce((
        select min(message.created_at) from ${messages} message
        where message.sender_id = bid.tutor_id and message.receiver_id = job.student_id and message.created_at >= job.created_at
      ), bid.created_at)) - job.created_at) / 60 as minutes
    from ${tutorBids} bid inner join ${tutoringRequests} job on job.id = bid.request_id
    where bid.tutor_id = ${tutorId}
    order by bid.created_at desc limit ${FIRST_RESPONSE_SAMPLE}) as responses)`;
}

/** A teacher's public page (anyone else's id: 404). Only public columns are selected: no e-mail can leak. */
export async function getTutorProfile({ db, tutorId }: { db: Executor; tutorId: string }): Promise<TutorProfile> {
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
      medianFirstResponseMinutes: medianFirstResponseMinutes(tutorId),
    })
    .from(users)
    .where(and(eq(users.id, tutorId), eq(users.role, 'teacher'), eq(users.isSystem, false)));
  if (!tutor) throw new AppError('NOT_FOUND', { message: 'Tutor not found' });
  const specializations = await db
    .select({ id: subjects.id, name: subjects.name, category: subjects.category })
    .from(teacherSpecializations)
    .innerJoin(subjects, eq(subjects.id, teacherSpecializations.subjectId))
    .where(eq(teacherSpecializations.teacherId, tutorId))
    .orderBy(asc(subjects.category), asc(subjects.name));
  const minutes = tutor.medianFirstResponseMinutes;
  return {
    ...tutor,
    ...toTutorTrust(tutor),
    memberSince: tutor.memberSince.toISOString(),
    medianFirstResponseMinutes: minutes === null ? null : Math.round(Number(minutes)),
    specializations,
  };
}

/** A teacher's id, or 404 as for a tutor's page. */
export async function assertTutorExists(db: Executor, tutorId: string) {
  const found = await db.$count(
    users,
    and(eq(users.id, tutorId), eq(users.role, 'teacher'), eq(users.isSystem, false)),
  );
  if (found === 0) throw new AppError('NOT_FOUND', { message: 'Tutor not found' });
}
