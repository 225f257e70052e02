import { eq } from 'drizzle-orm';
import { paths } from '#shared/paths.ts';
import { formatCents } from '#shared/rules/money.ts';
import { paymentMethodText, type Operator } from '#shared/schemas/payments.ts';
import { users } from '../../db/schema/auth.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import { createNotification } from '../notifications/service.ts';
import { acceptOfferWithin } from '../requests/service.ts';
import type { AcceptPaidOffer } from './checkouts.ts';
import { getReceipt } from './student-payments.ts';

/**
 * Accepts a paid checkout's offer for its student through the requests feature (the job, the chat room, the tutor's
 * notification) and sends the student the payment's receipt (in the bell and by e-mail, through the outbox once the
 * transaction commits), whoever records the payment: the student's pay, the reconciliation of one whose record was
 * lost, or an admin's record of a bank transfer.
 */
export function acceptPaidOfferFor({
  realtime,
  publicUrl,
  operator,
}: {
  realtime: Realtime;
  publicUrl: string;
  operator: Operator;
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
    const receipt = await getReceipt({ db: tx, studentId: checkout.studentId, checkoutId: checkout.id, operator });
    await createNotification({
      db: tx,
      publicUrl,
      userId: checkout.studentId,
      message: `Payment receipt ${receipt.receiptNumber}: you paid ${formatCents(receipt.amountCents)} for ${receipt.job.title} with ${receipt.tutor.username} (VH ${receipt.tutor.vhNumber}), by ${paymentMethodText(receipt.method)}. The money is held until you mark the job completed.`,
      link: paths.receipt.getHref(checkout.id),
      email: { type: 'payment_receipt', sender: 'Virtual Help', operator },
    });
    return { roomId: response.roomId, publish };
  };
}
