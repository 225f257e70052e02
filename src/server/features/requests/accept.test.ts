import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRooms } from '../../db/schema/chat.ts';
import { emailLogs, mailOutbox, notifications } from '../../db/schema/notifications.ts';
import { tutorBids, tutoringRequests, type TutoringRequest } from '../../db/schema/requests.ts';
import { createRequest, createSubAdmin, createSubject } from '../../../../tests/support/factories.ts';
import { call, signedInStudent, signedInTeacher, signIn, type Caller } from '../../../../tests/support/callers.ts';
import { connectSocket, nextEvent } from '../../../../tests/support/socket-client.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { fromNow, HOUR_MS } from '../../../../tests/support/time.ts';

const hoursAgo = (hours: number) => fromNow(-hours * HOUR_MS);

// With no payment provider (`none`, a marketplace free of charge) accepting opens the job at once; the paying flow
// is tested in payments/checkouts.test.ts.
describe('accepting an offer with PAYMENTS_PROVIDER=none', () => {
  let t: TestApp;
  let url: string;
  let subjectId: string;
  beforeAll(async () => {
    t = await createTestApp({ PAYMENTS_PROVIDER: 'none' });
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    subjectId = (await createSubject(t.db, { name: 'Thermodynamics' })).id;
  });
  afterAll(() => t.close());

  /** A student's request with an offer from each of `tutorCount` teachers. */
  async function requestWithOffers(tutorCount: number, overrides: Partial<TutoringRequest> = {}) {
    const student = await signedInStudent(t);
    const request = await createRequest(t.db, { studentId: student.user.id, subjectId, ...overrides });
    const tutors: Caller[] = [];
    const bids: string[] = [];
    for (let i = 0; i < tutorCount; i++) {
      const tutor = await signedInTeacher(t, [subjectId]);
      const [bid] = await t.db
        .insert(tutorBids)
        .values({ requestId: request.id, tutorId: tutor.user.id, amountCents: 900 + i * 100 })
        .returning();
      tutors.push(tutor);
      bids.push(bid!.id);
    }
    return { student, request, tutors, bids };
  }

  const accept = (caller: Caller | undefined, requestId: string, bidId: string) =>
    call(t, caller, 'POST', `/api/requests/${requestId}/bids/${bidId}/accept`);
  const stateOf = async (requestId: string) => ({
    request: (
      await t.db
        .select({ status: tutoringRequests.status, acceptedBidId: tutoringRequests.acceptedBidId })
        .from(tutoringRequests)
        .where(eq(tutoringRequests.id, requestId))
    )[0],
    bids: (
      await t.db
        .select({ id: tutorBids.id, status: tutorBids.status })
        .from(tutorBids)
        .where(eq(tutorBids.requestId, requestId))
    ).sort((a, b) => a.id.localeCompare(b.id)),
  });

  it('accepts one offer, opens the chat with its tutor and tells the tutor in-app, by e-mail and live', async () => {
    const { student, request, tutors, bids } = await requestWithOffers(2);
    const [tutor] = tutors;
    const socket = await connectSocket(url, { cookie: tutor!.cookie });
    const notified = nextEvent(socket, 'notification:new');
    const room = nextEvent(socket, 'room:updated');

    const response = await accept(student, request.id, bids[0]!);
    expect(response.statusCode).toBe(200);
    const { roomId } = response.json();
    expect(response.json()).toEqual({
      outcome: 'accepted',
      requestId: request.id,
      bidId: bids[0],
      tutorId: tutor!.user.id,
      roomId: expect.any(String),
    });
    expect(await notified).toEqual([{ kind: 'general', requestId: null }]);
    expect(await room).toEqual([{ roomId }]);
    socket.close();

    expect(await stateOf(request.id)).toEqual({
      request: { status: 'accepted', acceptedBidId: bids[0] },
      bids: [
        { id: bids[0]!, status: 'accepted' },
        { id: bids[1]!, status: 'pending' },
      ].sort((a, b) => a.id.localeCompare(b.id)),
    });
    const [chat] = await t.db.select().from(chatRooms).where(eq(chatRooms.id, roomId));
    expect([chat!.participant1Id, chat!.participant2Id].sort()).toEqual([student.user.id, tutor!.user.id].sort());

    const [notice] = await t.db.select().from(notifications).where(eq(notifications.userId, tutor!.user.id));
    expect(notice).toMatchObject({
      message: `${student.user.username} accepted your offer of $9 on their Thermodynamics request. You can now chat with them.`,
      link: '/chat',
      read: false,
    });
    const [mail] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, tutor!.user.email));
    expect(mail!.subject).toBe('Your offer was accepted - Virtual Help');
    expect(
      await t.db.$count(
        emailLogs,
        and(eq(emailLogs.notificationId, notice!.id), eq(emailLogs.notificationType, 'offer_accepted')),
      ),
    ).toBe(1);
  });

  it('answers a repeated acceptance of the same offer the same way, without a second notification', async () => {
    const { student, request, tutors, bids } = await requestWithOffers(1);
    const first = await accept(student, request.id, bids[0]!);
    const again = await accept(student, request.id, bids[0]!);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(await t.db.$count(notifications, eq(notifications.userId, tutors[0]!.user.id))).toBe(1);
  });

  it('refuses a second offer once one is accepted with a clear 409', async () => {
    const { student, request, bids } = await requestWithOffers(2);
    await accept(student, request.id, bids[0]!);
    const second = await accept(student, request.id, bids[1]!);
    expect(second.statusCode).toBe(409);
    expect(second.json()).toEqual({
      code: 'OFFER_ALREADY_ACCEPTED',
      message: 'An offer on this request has already been accepted.',
    });
    expect((await stateOf(request.id)).request).toEqual({ status: 'accepted', acceptedBidId: bids[0] });
  });

  it('lets the database decide two tabs accepting different offers at once: exactly one wins', async () => {
    const { student, request, bids, tutors } = await requestWithOffers(2);
    const responses = await Promise.all([accept(student, request.id, bids[0]!), accept(student, request.id, bids[1]!)]);
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409]);
    const winner = responses.find((response) => response.statusCode === 200)!.json().bidId;
    const state = await stateOf(request.id);
    expect(state.request).toEqual({ status: 'accepted', acceptedBidId: winner });
    expect(state.bids.filter((bid) => bid.status === 'accepted')).toEqual([{ id: winner, status: 'accepted' }]);
    const notifiedTutors = await t.db.$count(
      notifications,
      sql`${notifications.userId} in ${tutors.map((tutor) => tutor.user.id)}`,
    );
    expect(notifiedTutors).toBe(1);
  });

  it('accepts while the request is pending, and refuses expired and closed requests with a 409', async () => {
    const pending = await requestWithOffers(1, { status: 'pending' });
    expect((await accept(pending.student, pending.request.id, pending.bids[0]!)).statusCode).toBe(200);

    for (const overrides of [
      { createdAt: hoursAgo(49) },
      { status: 'closed' as const },
      { status: 'completed' as const },
    ]) {
      const { student, request, bids } = await requestWithOffers(1, overrides);
      const before = await stateOf(request.id);
      const response = await accept(student, request.id, bids[0]!);
      expect(response.statusCode).toBe(409);
      expect(response.json().code).toBe('REQUEST_CLOSED');
      expect(await stateOf(request.id)).toEqual(before);
    }
  });

  it('answers 404 to another student and for an offer of another request, 403 to a teacher, 401 signed out, changing nothing', async () => {
    const { request, bids, tutors } = await requestWithOffers(1);
    const other = await requestWithOffers(1);
    const before = await stateOf(request.id);
    const stranger = await accept(await signedInStudent(t), request.id, bids[0]!);
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json()).toEqual({ code: 'NOT_FOUND', message: 'Request not found' });
    expect((await accept(other.student, other.request.id, bids[0]!)).statusCode).toBe(404);
    expect((await accept(tutors[0], request.id, bids[0]!)).statusCode).toBe(403);
    expect((await accept(undefined, request.id, bids[0]!)).statusCode).toBe(401);
    expect((await accept(other.student, 'x', 'y')).statusCode).toBe(400);
    expect(await stateOf(request.id)).toEqual(before);
    expect((await stateOf(other.request.id)).request).toEqual({ status: 'open', acceptedBidId: null });
  });

  it('says nothing of payments: the public settings and the dashboard of an admin who may see payments', async () => {
    const settings = await t.app.inject({ method: 'GET', url: '/api/settings/public' });
    expect(settings.json()).toMatchObject({ payments: false });
    const admin = await signIn(t, await createSubAdmin(t.db, ['dashboard', 'payments']));
    const stats = await call(t, admin, 'GET', '/api/admin/stats');
    expect([stats.statusCode, stats.json().payments]).toEqual([200, null]);
  });
});
