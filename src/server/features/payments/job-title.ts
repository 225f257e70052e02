import { sql } from 'drizzle-orm';
import { tutoringRequests } from '../../db/schema/requests.ts';
import { subjects } from '../../db/schema/subjects.ts';

/** A job as payment screens name it: "Mathematics: Fractions", or "Mathematics tutoring" without a topic. */
export const jobTitle = sql<string>`${subjects.name} || coalesce(': ' || ${tutoringRequests.topic}, ' ' || ${tutoringRequests.type})`;
