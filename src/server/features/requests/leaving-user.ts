import { and, eq, inArray, sql } from 'drizzle-orm';
import { OPEN_REQUEST_STATUSES } from '#shared/constants.ts';
import type { Executor } from '../../db/client.ts';
import { tutorBids, tutoringRequests } from '../../db/schema/requests.ts';

/**
 * A user who deletes their account leaves the marketplace at once: their open requests are closed and their pending
 * offers on open requests withdrawn (deleted, as a tutor withdrawing would). Jobs already agreed are left to run
 * their course: the money rules refuse a deletion while any of them holds money.
 */
export async function withdrawFromMarketplace({ db, userId }: { db: Executor; userId: string }) {
  await db
    .update(tutoringRequests)
    .set({ status: 'closed' })
    .where(and(eq(tutoringRequests.studentId, userId), inArray(tutoringRequests.status, [...OPEN_REQUEST_STATUSES])));
  const openRequests = db
    .select({ id: tutoringRequests.id })
    .from(tutoringRequests)
    .where(inArray(tutoringRequests.status, [...OPEN_REQUEST_STATUSES]));
  await db
    .delete(tutorBids)
    .where(
      and(eq(tutorBids.tutorId, userId), eq(tutorBids.status, 'pending'), inArray(tutorBids.requestId, openRequests)),
    );
  // Requests sent to a leaving tutor directly no longer wait for them: their students may open them to all.
  await db
    .update(tutoringRequests)
    .set({ directState: 'unanswered' })
    .where(and(eq(tutoringRequests.directTutorId, userId), eq(tutoringRequests.directState, 'waiting')));
}

/** An erased student's requests keep their texts for the tutors who worked on them, not the files (erased with them). */
export async function eraseRequestAttachmentsOf({ db, userId }: { db: Executor; userId: string }) {
  await db
    .update(tutoringRequests)
    .set({ attachments: sql`'[]'::jsonb` })
    .where(and(eq(tutoringRequests.studentId, userId), sql`${tutoringRequests.attachments} <> '[]'::jsonb`));
}
