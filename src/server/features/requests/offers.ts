import { and, desc, eq } from 'drizzle-orm';
import { formatCents } from '#shared/rules/money.ts';
import { type AcceptBidResponse, type Offer } from '#shared/schemas/requests.ts';
import type { Database, Executor } from '../../db/client.ts';
import { users } from '../../db/schema/auth.ts';
import { tutorBids } from '../../db/schema/requests.ts';
import { subjects } from '../../db/schema/subjects.ts';
import { AppError } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import { findOrCreateRoom } from '../chat/service.ts';
import { createNotification } from '../notifications/service.ts';
import { toTutorTrust, tutorTrustColumns } from '../tutors/service.ts';
import { paths } from '#shared/paths.ts';
import { closedProblem, notFound, openSince, r } from './request-columns.ts';

// Offers on a student's request and accepting one (the chat room with the tutor comes with it).

/** How many offers one request lists at most; the tutors of one subject bound it in practice. */
const OFFERS_LIMIT = 200;

/** The offers on a request of this student with each tutor's public profile, newest first (anyone else's request: 404). */
export async function listOffers({
  db,
  studentId,
  requestId,
}: {
  db: Executor;
  studentId: string;
  requestId: string;
}): Promise<Offer[]> {
  // One query: the request row (owned or nothing) left-joined to its bids and their tutors.
  const rows = await db
    .select({
      id: tutorBids.id,
      tutorId: tutorBids.tutorId,
      username: users.username,
      image: users.image,
      vhNumber: users.vhNumber,
      amountCents: tutorBids.amountCents,
      message: tutorBids.message,
      status: tutorBids.status,
      createdAt: tutorBids.createdAt,
      ...tutorTrustColumns(users),
    })
    .from(r)
    .leftJoin(tutorBids, eq(tutorBids.requestId, r.id))
    .leftJoin(users, eq(users.id, tutorBids.tutorId))
    .where(and(eq(r.id, requestId), eq(r.studentId, studentId)))
    .orderBy(desc(tutorBids.createdAt), desc(tutorBids.id))
    .limit(OFFERS_LIMIT);
  if (rows.length === 0) throw notFound();
  return rows.flatMap((row) =>
    row.id === null
      ? []
      : [
          {
            ...row,
            id: row.id,
            tutorId: row.tutorId!,
            username: row.username!,
            vhNumber: row.vhNumber!,
            amountCents: row.amountCents!,
            status: row.status!,
            createdAt: row.createdAt!.toISOString(),
            ...toTutorTrust(row),
          },
        ],
  );
}

type AcceptedOffer = Extract<AcceptBidResponse, { outcome: 'accepted' }>;

/**
 * Accepts one offer in the caller's transaction: the request row is locked (select … for update), so of two
 * acceptances of different offers (two tabs) the second waits, then finds the request accepted and gets a 409; the
 * partial unique index on accepted bids backs this up. Accepting the offer that is already accepted answers the same
 * again (a retry). Opens the chat room with the tutor and notifies the tutor (in-app and mail); answers what to
 * publish live once the transaction commits. A paid checkout held the request, so its 48-hour expiry waited for it.
 */
export async function acceptOfferWithin({
  db: tx,
  realtime,
  publicUrl,
  student,
  requestId,
  bidId,
  paid = false,
  deadline = null,
}: {
  db: Executor;
  realtime: Realtime;
  publicUrl: string;
  student: Pick<SessionUser, 'id' | 'username'>;
  requestId: string;
  bidId: string;
  /** Accepted by its paid checkout, which held the request past its expiry. */
  paid?: boolean;
  /** The assignment's deadline set at checkout. */
  deadline?: Date | null;
}): Promise<{ response: AcceptedOffer; publish: () => void }> {
  const [request] = await tx
    .select({
      studentId: r.studentId,
      status: r.status,
      openSince,
      acceptedBidId: r.acceptedBidId,
      subjectName: subjects.name,
    })
    .from(r)
    .innerJoin(subjects, eq(subjects.id, r.subjectId))
    .where(eq(r.id, requestId))
    .for('update', { of: r });
  if (!request || request.studentId !== student.id) throw notFound();
  const [bid] = await tx
    .select({ tutorId: tutorBids.tutorId, amountCents: tutorBids.amountCents })
    .from(tutorBids)
    .where(and(eq(tutorBids.id, bidId), eq(tutorBids.requestId, requestId)));
  if (!bid) throw new AppError('NOT_FOUND', { message: 'Offer not found' });

  const retry = request.acceptedBidId === bidId;
  if (!retry) {
    const problem = closedProblem(request, { heldByCheckout: paid });
    if (problem) throw problem;
    await tx.update(tutorBids).set({ status: 'accepted' }).where(eq(tutorBids.id, bidId));
    await tx
      .update(r)
      .set({ status: 'accepted', acceptedBidId: bidId, ...(deadline ? { deadline } : {}) })
      .where(eq(r.id, requestId));
  }
  const { room, created: roomCreated } = await findOrCreateRoom({ db: tx, userAId: student.id, userBId: bid.tutorId });
  if (!retry) {
    await createNotification({
      db: tx,
      publicUrl,
      userId: bid.tutorId,
      message: `${student.username} accepted your offer of ${formatCents(bid.amountCents)} on their ${request.subjectName} request. You can now chat with them.`,
      link: paths.chat.getHref(),
      email: { type: 'offer_accepted', sender: student.username },
    });
  }
  const response = { outcome: 'accepted' as const, requestId, bidId, tutorId: bid.tutorId, roomId: room.id };
  return {
    response,
    publish() {
      if (!retry) realtime.toUsers([bid.tutorId], 'notification:new', { kind: 'general', requestId: null });
      if (roomCreated) realtime.toUsers([student.id, bid.tutorId], 'room:updated', { roomId: room.id });
    },
  };
}

/** Accepts one offer at once, with no payment (`PAYMENTS_PROVIDER=none`): see acceptOfferWithin. */
export async function acceptBid(options: Omit<Parameters<typeof acceptOfferWithin>[0], 'db'> & { db: Database }) {
  const { response, publish } = await options.db.transaction((tx) => acceptOfferWithin({ ...options, db: tx }));
  publish();
  return response;
}
