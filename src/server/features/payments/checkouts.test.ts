import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signedInStudent, signedInTeacher, type Caller } from '../../../../tests/support/callers.ts';
import {
  acceptAndPay,
  DECLINED_CARD,
  payCheckout,
  startCheckout,
  TEST_CARD,
} from '../../../../tests/support/checkout.ts';
import { createBid, createRequest, createSubject } from '../../../../tests/support/factories.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { DAY_MS, fromNow, HOUR_MS, MINUTE_MS } from '../../../../tests/support/time.ts';
import { chatRooms } from '../../db/schema/chat.ts';
import { notifications } from '../../db/schema/notifications.ts';
import { checkouts, ledgerTransactions } from '../../db/schema/payments.ts';
import { tutorBids, tutoringRequests, type TutoringRequest } from '../../db/schema/requests.ts';
import { closeExpiredRequests } from '../requests/service.ts';
import { jobPaymentState, lapseCheckouts, ledgerAccountBalance } from './service.ts';

describe('paying for an offer at accept (test provider)', () => {
  let t: TestApp;
  let subjectId: string;
  beforeAll(async () => {
    t = await createTestApp();
    subjectId = (await createSubject(t.db, { name: 'Statistics' })).id;
  });
  afterAll(() => t.close());

  /** A student's request with an offer of $12, $13, … from each of `tutorCount` teachers. */
  async function requestWithOffers(tutorCount = 1, overrides: Partial<TutoringRequest> = {}) {
    const student = await signedInStudent(t);
    const request = await createRequest(t.db, { studentId: student.user.id, subjectId, ...overrides });
    const tutors: Caller[] = [];
    const bids: string[] = [];
    for (let i = 0; i < tutorCount; i++) {
      const tutor = await signedInTeacher(t, [subjectId]);
      tutors.push(tutor);
      bids.push(
        (await createBid(t.db, { requestId: request.id, tutorId: tutor.user.id, amountCents: 1200 + i * 100 })).id,
      );
    }
    return { student, request, tutors, bids };
  }

  /** Everything a payment could change: the request, its offers, its checkouts, the ledger, the tutors' bells. */
  async function stateOf(requestId: string) {
    const [request] = await t.db
      .select({
        status: tutoringRequests.status,
        acceptedBidId: tutoringRequests.acceptedBidId,
        deadline: tutoringRequests.deadline,
      })
      .from(tutoringRequests)
      .where(eq(tutoringRequests.id, requestId));
    return {
      request,
      acceptedBids: await t.db.$count(
        tutorBids,
        and(eq(tutorBids.requestId, requestId), eq(tutorBids.status, 'accepted')),
      ),
      checkouts: await t.db
        .select({ status: checkouts.status, claimToken: checkouts.claimToken })
        .from(checkouts)
        .where(eq(checkouts.requestId, requestId))
        .orderBy(checkouts.createdAt),
      ledger: await t.db.$count(ledgerTransactions, eq(ledgerTransactions.requestId, requestId)),
    };
  }

  it('starts a checkout at accept; only paying with the test card makes the offer a job, with the payment held', async () => {
    const { student, request, tutors, bids } = await requestWithOffers(2);
    const { response, checkoutId } = await startCheckout(t, student, request.id, bids[0]!);
    expect(response.json()).toEqual({
      outcome: 'checkout',
      requestId: request.id,
      bidId: bids[0],
      tutorId: tutors[0]!.user.id,
      checkoutId: expect.any(String),
    });
    expect(await stateOf(request.id)).toMatchObject({
      request: { status: 'open', acceptedBidId: null },
      acceptedBids: 0,
      checkouts: [{ status: 'awaiting_payment' }],
      ledger: 0,
    });
    expect(await t.db.$count(notifications, eq(notifications.userId, tutors[0]!.user.id))).toBe(0);

    const shown = await call(t, student, 'GET', `/api/checkouts/${checkoutId}`);
    expect(shown.json()).toMatchObject({
      id: checkoutId,
      amountCents: 1200,
      provider: 'test',
      status: 'awaiting_payment',
      tutor: { id: tutors[0]!.user.id, username: tutors[0]!.user.username },
      request: { type: 'tutoring', subjectName: 'Statistics' },
    });
    const holdMs = new Date(shown.json().expiresAt).getTime() - new Date(shown.json().createdAt).getTime();
    expect(holdMs).toBe(30 * MINUTE_MS);

    const paid = await payCheckout(t, student, checkoutId!);
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toMatchObject({ id: checkoutId, status: 'paid', paidAt: expect.any(String) });
    expect(await stateOf(request.id)).toMatchObject({
      request: { status: 'accepted', acceptedBidId: bids[0] },
      acceptedBids: 1,
      checkouts: [{ status: 'paid', claimToken: null }],
      ledger: 1,
    });
    const rooms = await t.db
      .select()
      .from(chatRooms)
      .where(sql`${student.user.id} in (${chatRooms.participant1Id}, ${chatRooms.participant2Id})`);
    expect(rooms).toHaveLength(1);
    expect(await t.db.$count(notifications, eq(notifications.userId, tutors[0]!.user.id))).toBe(1);
    // $12 is held for the job; the test provider's fee (2.9 % + 30 cents: 65 cents) comes out of the commission.
    const balance = (account: Parameters<typeof ledgerAccountBalance>[0]['account']) =>
      ledgerAccountBalance({ db: t.db, account });
    expect(await balance({ kind: 'held_funds', requestId: request.id })).toBe(1200);
    expect(await balance({ kind: 'student_payments', userId: student.user.id })).toBe(-1200);
    expect(await jobPaymentState({ db: t.db, requestId: request.id })).toBe('held');
  });

  it('keeps the offer open after a declined or mistyped card, with the card’s message, and takes a good card next', async () => {
    const { student, request, bids } = await requestWithOffers();
    const { checkoutId } = await startCheckout(t, student, request.id, bids[0]!);
    const before = await stateOf(request.id);

    const declined = await payCheckout(t, student, checkoutId!, { card: DECLINED_CARD });
    expect(declined.statusCode).toBe(402);
    expect(declined.json()).toEqual({
      code: 'CARD_DECLINED',
      message: 'Your card was declined.',
      fields: { 'card.number': 'Your card was declined.' },
    });
    const mistyped = await payCheckout(t, student, checkoutId!, {
      card: { ...TEST_CARD, number: '4242 4242 4242 4241' },
    });
    expect(mistyped.statusCode).toBe(400);
    expect(mistyped.json().fields).toEqual({ 'card.number': 'Your card number is incorrect.' });
    const badCvc = await payCheckout(t, student, checkoutId!, { card: { ...TEST_CARD, cvc: '12' } });
    expect(badCvc.statusCode).toBe(400);
    expect(badCvc.json().fields).toEqual({ 'card.cvc': "Your card's security code is incomplete." });
    expect(await stateOf(request.id)).toEqual(before);

    expect((await payCheckout(t, student, checkoutId!)).statusCode).toBe(200);
    expect((await stateOf(request.id)).request).toMatchObject({ status: 'accepted', acceptedBidId: bids[0] });
  });

  it('charges once: a repeated pay answers the paid checkout, a repeated accept the same checkout', async () => {
    const { student, request, bids } = await requestWithOffers(2);
    const first = await startCheckout(t, student, request.id, bids[0]!);
    const again = await startCheckout(t, student, request.id, bids[0]!);
    expect(again.checkoutId).toBe(first.checkoutId);

    const paid = await payCheckout(t, student, first.checkoutId!);
    const repeated = await payCheckout(t, student, first.checkoutId!, { card: DECLINED_CARD });
    expect(repeated.statusCode).toBe(200);
    expect(repeated.json()).toEqual(paid.json());
    expect((await stateOf(request.id)).ledger).toBe(1);
    expect((await startCheckout(t, student, request.id, bids[0]!)).checkoutId).toBe(first.checkoutId);
    const other = await startCheckout(t, student, request.id, bids[1]!);
    expect(other.response.json().code).toBe('OFFER_ALREADY_ACCEPTED');
  });

  it('holds the request for one offer; cancelling opens it to every offer again', async () => {
    const { student, request, bids } = await requestWithOffers(2);
    const { checkoutId } = await startCheckout(t, student, request.id, bids[0]!);
    const other = await startCheckout(t, student, request.id, bids[1]!);
    expect(other.response.statusCode).toBe(409);
    expect(other.response.json()).toEqual({
      code: 'CHECKOUT_IN_PROGRESS',
      message: 'You are paying for another offer on this request. Cancel that checkout to accept this one.',
    });

    const cancelled = await call(t, student, 'POST', `/api/checkouts/${checkoutId}/cancel`);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled' });
    expect((await call(t, student, 'POST', `/api/checkouts/${checkoutId}/cancel`)).statusCode).toBe(200);
    const closed = await payCheckout(t, student, checkoutId!);
    expect(closed.statusCode).toBe(409);
    expect(closed.json().code).toBe('CHECKOUT_CLOSED');
    expect((await acceptAndPay(t, student, request.id, bids[1]!)).statusCode).toBe(200);
    expect((await stateOf(request.id)).request).toMatchObject({ acceptedBidId: bids[1] });
  });

  it('lapses a checkout past its hold: it cannot be paid, and the offers are open again', async () => {
    const { student, request, bids } = await requestWithOffers(2);
    const { checkoutId } = await startCheckout(t, student, request.id, bids[0]!);
    await t.db
      .update(checkouts)
      .set({ expiresAt: fromNow(-MINUTE_MS) })
      .where(eq(checkouts.id, checkoutId!));
    expect((await call(t, student, 'GET', `/api/checkouts/${checkoutId}`)).json().status).toBe('lapsed');
    expect((await payCheckout(t, student, checkoutId!)).json().code).toBe('CHECKOUT_CLOSED');

    await lapseCheckouts({ db: t.db });
    expect((await stateOf(request.id)).checkouts).toEqual([{ status: 'lapsed', claimToken: null }]);
    expect((await acceptAndPay(t, student, request.id, bids[1]!)).statusCode).toBe(200);
  });

  it('makes the 48-hour expiry wait for a checkout, and apply once it lapses', async () => {
    const held = await requestWithOffers(1, { createdAt: fromNow(-47 * HOUR_MS) });
    const lapsed = await requestWithOffers(1, { createdAt: fromNow(-47 * HOUR_MS) });
    const heldCheckout = await startCheckout(t, held.student, held.request.id, held.bids[0]!);
    const lapsedCheckout = await startCheckout(t, lapsed.student, lapsed.request.id, lapsed.bids[0]!);
    // The clock moves on: both requests are now older than 48 hours, and one checkout is past its hold.
    await t.db
      .update(tutoringRequests)
      .set({ createdAt: fromNow(-49 * HOUR_MS) })
      .where(sql`${tutoringRequests.id} in (${held.request.id}, ${lapsed.request.id})`);
    await t.db
      .update(checkouts)
      .set({ expiresAt: fromNow(-MINUTE_MS) })
      .where(eq(checkouts.id, lapsedCheckout.checkoutId!));
    await lapseCheckouts({ db: t.db });
    await closeExpiredRequests({ db: t.db });

    expect((await stateOf(lapsed.request.id)).request).toMatchObject({ status: 'closed' });
    expect((await stateOf(held.request.id)).request).toMatchObject({ status: 'open' });
    expect((await payCheckout(t, held.student, heldCheckout.checkoutId!)).statusCode).toBe(200);
    expect((await stateOf(held.request.id)).request).toMatchObject({ status: 'accepted' });
  });

  it('asks for an assignment’s deadline before the payment, and stores the one given with it', async () => {
    const { student, request, bids } = await requestWithOffers(1, { type: 'assignment', deadline: null });
    const { checkoutId } = await startCheckout(t, student, request.id, bids[0]!);
    const before = await stateOf(request.id);
    const missing = await payCheckout(t, student, checkoutId!);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields).toEqual({
      deadline: 'Set the assignment’s deadline before you pay: the refund rule depends on it.',
    });
    const past = await payCheckout(t, student, checkoutId!, {
      card: TEST_CARD,
      deadline: fromNow(-DAY_MS).toISOString(),
    });
    expect(past.json().fields).toEqual({ deadline: 'Deadline must be in the future' });
    expect(await stateOf(request.id)).toEqual(before);

    const deadline = new Date(Math.floor(fromNow(3 * DAY_MS).getTime() / 1000) * 1000);
    const paid = await payCheckout(t, student, checkoutId!, { card: TEST_CARD, deadline: deadline.toISOString() });
    expect(paid.json().request).toMatchObject({ type: 'assignment', deadline: deadline.toISOString() });
    expect((await stateOf(request.id)).request).toMatchObject({ status: 'accepted', deadline });
  });

  it('answers 404 for another student’s checkout and 400 for a malformed one, changing nothing', async () => {
    const { student, request, bids } = await requestWithOffers();
    const { checkoutId } = await startCheckout(t, student, request.id, bids[0]!);
    const before = await stateOf(request.id);
    const stranger = await signedInStudent(t);
    expect((await payCheckout(t, stranger, checkoutId!)).json()).toEqual({
      code: 'NOT_FOUND',
      message: 'Checkout not found',
    });
    expect((await call(t, stranger, 'POST', `/api/checkouts/${checkoutId}/cancel`)).statusCode).toBe(404);
    expect((await payCheckout(t, student, 'not-an-id')).statusCode).toBe(400);
    const noCard = await payCheckout(t, student, checkoutId!, {});
    expect(noCard.statusCode).toBe(400);
    const noName = await payCheckout(t, student, checkoutId!, { card: { ...TEST_CARD, name: ' ' } });
    expect(noName.json().fields).toEqual({ 'card.name': 'Enter the name on the card.' });
    expect(await stateOf(request.id)).toEqual(before);
  });
});

describe('paying for an offer by bank transfer (manual provider)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PAYMENTS_PROVIDER: 'manual' });
  });
  afterAll(() => t.close());

  it('holds the request for 5 days and takes no card: an admin records the transfer', async () => {
    const subject = await createSubject(t.db);
    const student = await signedInStudent(t);
    const tutor = await signedInTeacher(t, [subject.id]);
    const request = await createRequest(t.db, { studentId: student.user.id, subjectId: subject.id });
    const bid = await createBid(t.db, { requestId: request.id, tutorId: tutor.user.id });
    const { checkoutId } = await startCheckout(t, student, request.id, bid.id);
    const shown = (await call(t, student, 'GET', `/api/checkouts/${checkoutId}`)).json();
    expect(shown).toMatchObject({ provider: 'manual', status: 'awaiting_payment' });
    expect(new Date(shown.expiresAt).getTime() - new Date(shown.createdAt).getTime()).toBe(5 * DAY_MS);
    const refused = await payCheckout(t, student, checkoutId!);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('PAID_BY_TRANSFER');
    expect(await jobPaymentState({ db: t.db, requestId: request.id })).toBe('awaiting_payment');
  });
});
