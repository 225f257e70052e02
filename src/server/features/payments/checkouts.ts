import { randomUUID } from 'node:crypto';
import { and, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import {
  CHECKOUT_HOLD_MS,
  CHECKOUT_LAPSE_JOB_INTERVAL_MS,
  OPEN_REQUEST_STATUSES,
  type CheckoutProvider,
} from '#shared/constants.ts';
import { checkoutMessages, type CardInput, type CheckoutView } from '#shared/schemas/checkouts.ts';
import { isRequestExpired } from '#shared/rules/expiry.ts';
import type { Database, Executor } from '../../db/client.ts';
import { users } from '../../db/schema/auth.ts';
import { checkouts, nextReceiptNumber, type Checkout } from '../../db/schema/payments.ts';
import { requestOpenSince, tutorBids, tutoringRequests } from '../../db/schema/requests.ts';
import { subjects } from '../../db/schema/subjects.ts';
import { AppError, fieldError } from '../../http/errors.ts';
import type { IntervalJob } from '../../platform/jobs/interval-jobs.ts';
import { postLedgerTransaction } from './ledger.ts';
import { paymentProvider, type ChargeOutcome } from './provider.ts';

// Accepting an offer under a paying provider (docs/decisions/0041): a checkout holds the request, the student pays
// the bid's cents, and only the recorded payment accepts the offer. The provider is called with no transaction
// open: the checkout is claimed in one short transaction, and the outcome recorded in another.

/** How long a pay claims its checkout: longer than a provider call takes; a lapsed claim may be paid again. */
const PAY_CLAIM_MS = 60_000;

const checkoutNotFound = () => new AppError('NOT_FOUND', { message: 'Checkout not found' });

/**
 * Accepts the paid offer in the transaction that records the payment (the requests feature's accept: the job, the
 * chat room, the tutor's notification) and answers what to publish once it commits.
 */
export type AcceptPaidOffer = (options: {
  db: Executor;
  checkout: Checkout;
  /** The assignment's deadline, when the student set it at checkout. */
  deadline: Date | null;
}) => Promise<{ roomId: string; publish: () => void }>;

const isAwaiting = and(eq(checkouts.status, 'awaiting_payment'), sql`${checkouts.expiresAt} > now()`);
const isUnclaimed = or(isNull(checkouts.claimedUntil), lte(checkouts.claimedUntil, sql`now()`));
const isPastHold = and(eq(checkouts.status, 'awaiting_payment'), lte(checkouts.expiresAt, sql`now()`), isUnclaimed);

/**
 * The checkout that holds the request for this offer: a new one, or the one already awaiting (or paid) for it, so a
 * repeated accept answers the same checkout. The request row is locked, so of two accepts one makes the checkout and
 * the other finds it; the partial unique index on live checkouts backs this up.
 */
export async function startCheckout({
  db,
  provider,
  studentId,
  requestId,
  bidId,
}: {
  db: Database;
  provider: CheckoutProvider;
  studentId: string;
  requestId: string;
  bidId: string;
}): Promise<Checkout> {
  return db.transaction(async (tx) => {
    const [request] = await tx
      .select({
        studentId: tutoringRequests.studentId,
        status: tutoringRequests.status,
        openSince: requestOpenSince,
      })
      .from(tutoringRequests)
      .where(eq(tutoringRequests.id, requestId))
      .for('update');
    if (!request || request.studentId !== studentId) throw new AppError('NOT_FOUND', { message: 'Request not found' });
    const [bid] = await tx
      .select({ tutorId: tutorBids.tutorId, amountCents: tutorBids.amountCents })
      .from(tutorBids)
      .where(and(eq(tutorBids.id, bidId), eq(tutorBids.requestId, requestId)));
    if (!bid) throw new AppError('NOT_FOUND', { message: 'Offer not found' });

    // A checkout past its hold no longer holds the request, whether or not the periodic job has marked it yet.
    await tx
      .update(checkouts)
      .set({ status: 'lapsed' })
      .where(and(eq(checkouts.requestId, requestId), isPastHold));
    const [live] = await tx
      .select()
      .from(checkouts)
      .where(and(eq(checkouts.requestId, requestId), inArray(checkouts.status, ['awaiting_payment', 'paid'])));
    if (live?.bidId === bidId) return live;
    if (live) throw new AppError(live.status === 'paid' ? 'OFFER_ALREADY_ACCEPTED' : 'CHECKOUT_IN_PROGRESS');
    if (request.status === 'accepted') throw new AppError('OFFER_ALREADY_ACCEPTED');
    const open = (OPEN_REQUEST_STATUSES as readonly string[]).includes(request.status);
    if (!open || isRequestExpired(request.openSince)) throw new AppError('REQUEST_CLOSED');

    const [checkout] = await tx
      .insert(checkouts)
      .values({
        requestId,
        bidId,
        studentId,
        tutorId: bid.tutorId,
        amountCents: bid.amountCents,
        provider,
        expiresAt: sql`now() + make_interval(secs => ${CHECKOUT_HOLD_MS[provider] / 1000})`,
      })
      .returning();
    return checkout!;
  });
}

/** A student's checkout as the checkout screen shows it (anyone else's: 404). */
export async function getCheckout({
  db,
  studentId,
  checkoutId,
}: {
  db: Executor;
  studentId: string;
  checkoutId: string;
}): Promise<CheckoutView> {
  const [row] = await db
    .select({
      checkout: checkouts,
      pastHold: sql<boolean>`${checkouts.expiresAt} <= now()`,
      tutor: { id: users.id, username: users.username, image: users.image },
      request: { type: tutoringRequests.type, subjectName: subjects.name, deadline: tutoringRequests.deadline },
    })
    .from(checkouts)
    .innerJoin(users, eq(users.id, checkouts.tutorId))
    .innerJoin(tutoringRequests, eq(tutoringRequests.id, checkouts.requestId))
    .innerJoin(subjects, eq(subjects.id, tutoringRequests.subjectId))
    .where(and(eq(checkouts.id, checkoutId), eq(checkouts.studentId, studentId)));
  if (!row) throw checkoutNotFound();
  const { checkout, pastHold, tutor, request } = row;
  const status =
    checkout.status === 'awaiting_payment' && pastHold && !isClaimed(checkout) ? 'lapsed' : checkout.status;
  return {
    id: checkout.id,
    requestId: checkout.requestId,
    bidId: checkout.bidId,
    amountCents: checkout.amountCents,
    provider: checkout.provider,
    status,
    expiresAt: checkout.expiresAt.toISOString(),
    paidAt: checkout.paidAt?.toISOString() ?? null,
    createdAt: checkout.createdAt.toISOString(),
    tutor,
    // An assignment's deadline the student set at this checkout, before its payment is recorded (Stripe).
    request: { ...request, deadline: (request.deadline ?? checkout.deadline)?.toISOString() ?? null },
  };
}

const isClaimed = (checkout: Checkout) => checkout.claimedUntil !== null && checkout.claimedUntil > new Date();

/** Why this checkout cannot be paid now: paid already (null: answer it again), paying, lapsed or cancelled. */
function unpayable(checkout: Checkout) {
  if (checkout.status === 'paid') return null;
  if (checkout.status === 'awaiting_payment' && isClaimed(checkout)) return new AppError('PAYMENT_IN_PROGRESS');
  return new AppError('CHECKOUT_CLOSED');
}

function refusal(outcome: Exclude<ChargeOutcome, { outcome: 'succeeded' }>) {
  const fields = { [`card.${outcome.field}`]: outcome.message };
  if (outcome.outcome === 'invalid') return new AppError('VALIDATION_FAILED', { message: outcome.message, fields });
  return new AppError('CARD_DECLINED', { message: outcome.message, fields });
}

/**
 * Pays a checkout with a card and, once the provider confirms, records the payment, marks the checkout paid and
 * accepts the offer in one transaction. A declined or mistyped card changes nothing: the checkout stays open for
 * another try. Of two racing pays one claims the checkout and the other is told a payment is in progress; a pay of
 * a paid checkout answers it again and charges nothing.
 */
export async function payCheckout({
  db,
  studentId,
  checkoutId,
  card,
  deadline,
  acceptPaidOffer,
  beforeRecord,
}: {
  db: Database;
  studentId: string;
  checkoutId: string;
  card: CardInput;
  deadline: Date | null;
  acceptPaidOffer: AcceptPaidOffer;
  /** Runs between the provider's confirmation and the record (the crash test holds the server there). */
  beforeRecord?: (() => Promise<void>) | undefined;
}) {
  const [found] = await db
    .select({ checkout: checkouts, type: tutoringRequests.type, deadline: tutoringRequests.deadline })
    .from(checkouts)
    .innerJoin(tutoringRequests, eq(tutoringRequests.id, checkouts.requestId))
    .where(and(eq(checkouts.id, checkoutId), eq(checkouts.studentId, studentId)));
  if (!found) throw checkoutNotFound();
  const chargeCard = paymentProvider(found.checkout.provider, db).chargeCard;
  if (found.checkout.status === 'awaiting_payment' && !chargeCard) throw new AppError('PAID_BY_TRANSFER');
  if (found.type === 'assignment' && !found.deadline && !deadline && found.checkout.status === 'awaiting_payment') {
    throw fieldError('deadline', checkoutMessages.deadlineRequired);
  }

  const claimed = await claimCheckout(db, checkoutId);
  if (!claimed || !chargeCard) {
    const [now] = await db.select().from(checkouts).where(eq(checkouts.id, checkoutId));
    const problem = unpayable(now!);
    if (problem) throw problem;
    return;
  }

  const { token } = claimed;
  const outcome = await chargeCard({
    amountCents: claimed.checkout.amountCents,
    card,
    idempotencyKey: `payment:${checkoutId}`,
  }).catch(() => null);
  if (outcome?.outcome === 'succeeded') await beforeRecord?.();

  const published = await db.transaction(async (tx) => {
    // A claim lapsed during the call is another pay's now: that pay records its own outcome.
    if (outcome?.outcome !== 'succeeded') {
      if (!(await endCheckoutClaim({ db: tx, checkoutId, token }))) throw new AppError('PAYMENT_IN_PROGRESS');
      return null;
    }
    const { providerPaymentId, feeCents, cardLast4 } = outcome;
    const recorded = await recordCheckoutPayment({
      db: tx,
      checkoutId,
      token,
      providerPaymentId,
      cardLast4,
      feeCents,
      deadline,
      acceptPaidOffer,
    });
    if (!recorded) throw new AppError('PAYMENT_IN_PROGRESS');
    return recorded;
  });
  if (!outcome) throw new AppError('PAYMENT_PROVIDER_FAILED');
  if (outcome.outcome !== 'succeeded') throw refusal(outcome);
  published?.publish();
}

/**
 * Claims an awaiting checkout within its hold for the provider's call, or for the record of a payment the provider
 * confirmed, under a new token; null when it is not awaiting or another holds it.
 */
export async function claimCheckout(db: Executor, checkoutId: string) {
  const token = randomUUID();
  const [claimed] = await db
    .update(checkouts)
    .set({
      claimToken: token,
      claimedUntil: sql`now() + make_interval(secs => ${PAY_CLAIM_MS / 1000})`,
      claims: sql`${checkouts.claims} + 1`,
    })
    .where(and(eq(checkouts.id, checkoutId), isAwaiting, isUnclaimed))
    .returning();
  return claimed ? { checkout: claimed, token } : null;
}

/** Ends the token's claim, changing nothing else (a refused card); false when the claim is not the token's. */
export async function endCheckoutClaim({ db, checkoutId, token }: { db: Executor; checkoutId: string; token: string }) {
  const ended = await db
    .update(checkouts)
    .set({ claimToken: null, claimedUntil: null })
    .where(and(eq(checkouts.id, checkoutId), eq(checkouts.claimToken, token)))
    .returning({ id: checkouts.id });
  return ended.length > 0;
}

/**
 * Records a payment the provider confirmed, in the caller's transaction, if the claim is still the token's: ends the
 * claim, marks the checkout paid, posts `payment:<checkoutId>` and accepts the offer; answers what to publish once
 * that commits. Null (nothing written) when the claim lapsed and another holds it. A card's success and the
 * reconciliation of a payment whose record was lost (docs/decisions/0043) both record through here.
 */
export async function recordCheckoutPayment({
  db: tx,
  checkoutId,
  token,
  providerPaymentId,
  cardLast4 = null,
  feeCents,
  deadline,
  acceptPaidOffer,
}: {
  db: Executor;
  checkoutId: string;
  token: string;
  providerPaymentId: string;
  /** The card's last four digits, for a card payment whose provider told them. */
  cardLast4?: string | null;
  feeCents: number;
  deadline: Date | null;
  acceptPaidOffer: AcceptPaidOffer;
}) {
  const [ended] = await tx
    .update(checkouts)
    .set({
      claimToken: null,
      claimedUntil: null,
      status: 'paid',
      paidAt: sql`now()`,
      receiptNumber: nextReceiptNumber(),
      providerPaymentId,
      // A provider's odd answer must not lose the record of a charge it made (the column takes four digits only).
      cardLast4: cardLast4 && /^\d{4}$/.test(cardLast4) ? cardLast4 : null,
    })
    .where(and(eq(checkouts.id, checkoutId), eq(checkouts.claimToken, token)))
    .returning();
  if (!ended) return null;
  await postLedgerTransaction({
    db: tx,
    idempotencyKey: `payment:${checkoutId}`,
    kind: 'payment',
    requestId: ended.requestId,
    entries: paymentEntries({ checkout: ended, feeCents }),
  });
  return acceptPaidOffer({ db: tx, checkout: ended, deadline });
}

/**
 * A payment's postings: the student's payment is held for the job, and the provider's fee comes out of the
 * platform's commission (the tutor's share is never touched by it).
 */
function paymentEntries({ checkout, feeCents }: { checkout: Checkout; feeCents: number }) {
  return [
    { account: { kind: 'student_payments' as const, userId: checkout.studentId }, amountCents: -checkout.amountCents },
    { account: { kind: 'held_funds' as const, requestId: checkout.requestId }, amountCents: checkout.amountCents },
    ...(feeCents > 0
      ? [
          { account: { kind: 'provider_fees' as const }, amountCents: feeCents },
          { account: { kind: 'platform_commission' as const }, amountCents: -feeCents },
        ]
      : []),
  ];
}

/** The student cancels an unpaid checkout: the request is open for offers again. A cancelled one answers the same. */
export async function cancelCheckout({
  db,
  studentId,
  checkoutId,
}: {
  db: Database;
  studentId: string;
  checkoutId: string;
}) {
  const [cancelled] = await db
    .update(checkouts)
    .set({ status: 'cancelled' })
    .where(
      and(
        eq(checkouts.id, checkoutId),
        eq(checkouts.studentId, studentId),
        eq(checkouts.status, 'awaiting_payment'),
        isUnclaimed,
      ),
    )
    .returning({ id: checkouts.id });
  if (cancelled) return;
  const [checkout] = await db
    .select()
    .from(checkouts)
    .where(and(eq(checkouts.id, checkoutId), eq(checkouts.studentId, studentId)));
  if (!checkout) throw checkoutNotFound();
  if (checkout.status === 'cancelled') return;
  throw unpayable(checkout) ?? new AppError('CHECKOUT_CLOSED');
}

/** Marks every awaiting checkout past its hold (and not being paid) lapsed: its offer is open again. */
export async function lapseCheckouts({ db }: { db: Executor }) {
  const result = await db.update(checkouts).set({ status: 'lapsed' }).where(isPastHold);
  return result.rowCount ?? 0;
}

export const checkoutLapseJob: IntervalJob = {
  name: 'lapse-checkouts',
  intervalMs: CHECKOUT_LAPSE_JOB_INTERVAL_MS,
  run: lapseCheckouts,
};
