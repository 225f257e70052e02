import { eq } from 'drizzle-orm';
import { users } from '../../db/schema/auth.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import { acceptOfferWithin } from '../requests/service.ts';
import type { AcceptPaidOffer } from './checkouts.ts';

/**
 * Accepts a paid checkout's offer for its student through the requests feature (the job, the chat room, the tutor's
 * notification), whoever records the payment: the student's pay, or the reconciliation of one whose record was lost.
 */
export function acceptPaidOfferFor({
  realtime,
  publicUrl,
}: {
  realtime: Realtime;
  publicUrl: string;
}): AcceptPaidOffer {
  return async ({ db: tx, checkout, deadline }) => {
    const [student] = await tx
      .select({ id: users.id, username: users.username })
      .from(users)
      .where(eq(users.id, checkout.studentId));
    const { response, publish } = await acceptOfferWithin({
      db: tx,
      realtime,
      publicUrl,
      student: student!,
      requestId: checkout.requestId,
      bidId: checkout.bidId,
      paid: true,
      deadline,
    });
    return { roomId: response.roomId, publish };
  };
}
