import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USER_LIMITS } from '#shared/constants.ts';
import { adminAuditLog } from '../../db/schema/admin.ts';
import { users } from '../../db/schema/auth.ts';
import { mailOutbox, notifications } from '../../db/schema/notifications.ts';
import { tutoringRequests } from '../../db/schema/requests.ts';
import { reviews } from '../../db/schema/reviews.ts';
import { checkouts } from '../../db/schema/payments.ts';
import {
  createBid,
  createRequest,
  createSessionCookie,
  createSubAdmin,
  createSubject,
  createSuperAdminCookie,
} from '../../../../tests/support/factories.ts';
import { call, signedInStudent, signedInTeacher, type Caller } from '../../../../tests/support/callers.ts';
import { acceptAndPay } from '../../../../tests/support/checkout.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { DAY_MS, fromNow, HOUR_MS, MINUTE_MS } from '../../../../tests/support/time.ts';

describe('finished jobs, ratings and reviews', () => {
  let t: TestApp;
  let subjectId: string;
  beforeAll(async () => {
    t = await createTestApp();
    subjectId = (await createSubject(t.db, { name: 'Organic chemistry' })).id;
  });
  afterAll(() => t.close());

  /** A student's request with an offer from `tutor` (a new teacher unless given), accepted unless `accepted` is false. */
  async function job({ tutor, accepted = true }: { tutor?: Caller; accepted?: boolean } = {}) {
    const student = await signedInStudent(t);
    const teacher = tutor ?? (await signedInTeacher(t, [subjectId]));
    const request = await createRequest(t.db, { studentId: student.user.id, subjectId });
    const bid = await createBid(t.db, { requestId: request.id, tutorId: teacher.user.id, amountCents: 1000 });
    if (accepted) {
      const response = await acceptAndPay(t, student, request.id, bid.id);
      expect(response.statusCode).toBe(200);
    }
    return { student, tutor: teacher, requestId: request.id, bidId: bid.id };
  }
  /** A job the tutor marked delivered and the student completed: it counts on the tutor's page, however soon. */
  async function completedJob(tutor?: Caller, { delivered = true }: { delivered?: boolean } = {}) {
    const made = await job({ tutor });
    // As the tutor's mark leaves it (the route itself is tested above, and counts toward a per-hour limit).
    if (delivered) {
      await t.db
        .update(tutoringRequests)
        .set({ deliveredAt: new Date() })
        .where(eq(tutoringRequests.id, made.requestId));
    }
    expect((await call(t, made.student, 'POST', `/api/requests/${made.requestId}/complete`)).statusCode).toBe(200);
    return made;
  }
  const review = (caller: Caller | undefined, requestId: string, payload: unknown) =>
    call(t, caller, 'POST', `/api/requests/${requestId}/review`, payload as object);
  const countersOf = async (userId: string) =>
    (
      await t.db
        .select({ jobs: users.jobsCompleted, count: users.reviewCount, sum: users.reviewRatingSum })
        .from(users)
        .where(eq(users.id, userId))
    )[0]!;
  /** The tutor's counters recomputed from the review rows that count: what the kept counters must equal. */
  const recount = async (tutorId: string) => {
    const rows = await t.db.select().from(reviews).where(eq(reviews.tutorId, tutorId));
    const visible = rows.filter((row) => row.hiddenAt === null && row.countsTowardRating);
    return { count: visible.length, sum: visible.reduce((total, row) => total + row.rating, 0) };
  };

  describe('marking a job completed', () => {
    it('completes the accepted request, counts it for the tutor and asks the student for a rating', async () => {
      const { student, tutor, requestId } = await job();
      await t.db.update(tutoringRequests).set({ deliveredAt: new Date() }).where(eq(tutoringRequests.id, requestId));
      const response = await call(t, student, 'POST', `/api/requests/${requestId}/complete`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ requestId, completedAt: expect.any(String) });
      const [request] = await t.db.select().from(tutoringRequests).where(eq(tutoringRequests.id, requestId));
      expect(request).toMatchObject({ status: 'completed', isCompleted: true });
      expect((await countersOf(tutor.user.id)).jobs).toBe(1);
      // Besides the payment's receipt, the student is asked for a rating.
      const asked = await t.db
        .select({ link: notifications.link })
        .from(notifications)
        .where(
          and(eq(notifications.userId, student.user.id), like(notifications.message, '%Rate it from 1 to 5 stars%')),
        );
      expect(asked).toEqual([{ link: `/chat?tutorId=${tutor.user.id}` }]);

      const again = await call(t, student, 'POST', `/api/requests/${requestId}/complete`);
      expect(again.json()).toEqual(response.json());
      expect((await countersOf(tutor.user.id)).jobs).toBe(1);
      const detail = await call(t, student, 'GET', `/api/requests/${requestId}`);
      expect(detail.json().request.status).toBe('completed');
    });

    it('refuses a request without an accepted offer, another student, the tutor, signed-out callers and bad ids', async () => {
      const open = await job({ accepted: false });
      const refused = await call(t, open.student, 'POST', `/api/requests/${open.requestId}/complete`);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().code).toBe('JOB_NOT_ACCEPTED');
      const { student, tutor, requestId } = await job();
      const stranger = await signedInStudent(t);
      expect((await call(t, stranger, 'POST', `/api/requests/${requestId}/complete`)).statusCode).toBe(404);
      expect((await call(t, tutor, 'POST', `/api/requests/${requestId}/complete`)).statusCode).toBe(403);
      expect((await call(t, undefined, 'POST', `/api/requests/${requestId}/complete`)).statusCode).toBe(401);
      expect((await call(t, student, 'POST', `/api/requests/not-a-uuid/complete`)).statusCode).toBe(400);
      const statuses = await t.db
        .select({ status: tutoringRequests.status })
        .from(tutoringRequests)
        .where(eq(tutoringRequests.id, requestId));
      expect(statuses).toEqual([{ status: 'accepted' }]);
      expect((await countersOf(tutor.user.id)).jobs).toBe(0);
    });

    it('lets the tutor mark it delivered, keeping the first mark, and nobody else', async () => {
      const { student, tutor, requestId } = await job();
      const other = await signedInTeacher(t, [subjectId]);
      const deliveredAt = async () =>
        (
          await t.db
            .select({ at: tutoringRequests.deliveredAt })
            .from(tutoringRequests)
            .where(eq(tutoringRequests.id, requestId))
        )[0]!.at;
      expect((await call(t, other, 'POST', `/api/requests/${requestId}/delivered`)).statusCode).toBe(404);
      expect((await call(t, student, 'POST', `/api/requests/${requestId}/delivered`)).statusCode).toBe(403);
      expect((await call(t, undefined, 'POST', `/api/requests/${requestId}/delivered`)).statusCode).toBe(401);
      expect((await call(t, tutor, 'POST', `/api/requests/not-a-uuid/delivered`)).statusCode).toBe(400);
      expect(await deliveredAt()).toBeNull();
      const before = await t.db.$count(notifications, eq(notifications.userId, student.user.id));
      const marked = await call(t, tutor, 'POST', `/api/requests/${requestId}/delivered`);
      expect(marked.statusCode).toBe(200);
      expect(marked.json()).toEqual({ requestId, deliveredAt: (await deliveredAt())!.toISOString() });
      const [notice] = await t.db
        .select()
        .from(notifications)
        .where(eq(notifications.userId, student.user.id))
        .orderBy(notifications.createdAt)
        .offset(before);
      expect(notice).toMatchObject({
        message: `${tutor.user.username} marked your Organic chemistry job as delivered. Please mark it as completed.`,
        link: `/student/offers/${requestId}`,
      });
      // A second mark reminds the student and keeps the first mark's time, which the release counts from.
      const again = await call(t, tutor, 'POST', `/api/requests/${requestId}/delivered`);
      expect(again.json()).toEqual(marked.json());
      const shared = await call(t, student, 'GET', `/api/shared-jobs/${tutor.user.id}`);
      expect(shared.json().jobs[0]).toMatchObject({ requestId, deliveredAt: marked.json().deliveredAt });
      const open = await job({ accepted: false });
      const refused = await call(t, open.tutor, 'POST', `/api/requests/${open.requestId}/delivered`);
      expect(refused.statusCode).toBe(404);
    });
  });

  describe('ratings backed by money', () => {
    it('counts a job completed within an hour of its payment, and its stars, only when the tutor marked it delivered', async () => {
      const tutor = await signedInTeacher(t, [subjectId]);
      const quick = await completedJob(tutor, { delivered: false });
      expect((await review(quick.student, quick.requestId, { rating: 5 })).statusCode).toBe(201);
      // Published, but neither the job nor its stars count.
      expect(await countersOf(tutor.user.id)).toEqual({ jobs: 0, count: 0, sum: 0 });
      expect((await call(t, quick.student, 'GET', `/api/tutors/${tutor.user.id}/reviews`)).json().reviews).toHaveLength(
        1,
      );

      const delivered = await completedJob(tutor);
      await review(delivered.student, delivered.requestId, { rating: 4 });
      expect(await countersOf(tutor.user.id)).toEqual({ jobs: 1, count: 1, sum: 4 });

      // An hour after its payment a job counts without the mark.
      const slow = await job({ tutor });
      await t.db
        .update(checkouts)
        .set({ paidAt: fromNow(-HOUR_MS - MINUTE_MS) })
        .where(eq(checkouts.requestId, slow.requestId));
      await call(t, slow.student, 'POST', `/api/requests/${slow.requestId}/complete`);
      await review(slow.student, slow.requestId, { rating: 3 });
      expect(await countersOf(tutor.user.id)).toEqual({ jobs: 2, count: 2, sum: 7 });
      expect(await recount(tutor.user.id)).toMatchObject({ count: 2, sum: 7 });
    });
  });

  describe('reviews', () => {
    it('refuses a review without a completed job, twice for one job, by the tutor and by another student', async () => {
      const open = await job();
      const early = await review(open.student, open.requestId, { rating: 5 });
      expect(early.statusCode).toBe(409);
      expect(early.json().code).toBe('JOB_NOT_COMPLETED');

      const { student, tutor, requestId } = await completedJob();
      expect((await review(tutor, requestId, { rating: 5 })).statusCode).toBe(403);
      expect((await review(await signedInStudent(t), requestId, { rating: 5 })).statusCode).toBe(404);
      expect((await review(undefined, requestId, { rating: 5 })).statusCode).toBe(401);
      expect((await review(student, requestId, { rating: 5, body: 'Clear and patient.' })).statusCode).toBe(201);
      const twice = await review(student, requestId, { rating: 1 });
      expect(twice.statusCode).toBe(409);
      expect(twice.json().code).toBe('ALREADY_REVIEWED');
      expect(await t.db.$count(reviews, eq(reviews.requestId, open.requestId))).toBe(0);
      expect(await t.db.$count(reviews, eq(reviews.requestId, requestId))).toBe(1);
      expect(await countersOf(tutor.user.id)).toMatchObject({ count: 1, sum: 5 });
    });

    it('refuses bad stars, a long text and contact details with the form’s messages, writing nothing', async () => {
      const { student, tutor, requestId } = await completedJob();
      const noStars = await review(student, requestId, { rating: 0 });
      expect(noStars.statusCode).toBe(400);
      expect(noStars.json().fields).toEqual({ rating: 'Please choose from 1 to 5 stars' });
      const long = await review(student, requestId, { rating: 4, body: 'a'.repeat(1001) });
      expect(long.json().fields).toEqual({ body: 'A review can be at most 1000 characters' });
      const contact = await review(student, requestId, { rating: 4, body: 'Call me on tutor.jane@gmail.com' });
      expect(contact.statusCode).toBe(400);
      expect(contact.json()).toMatchObject({ code: 'MESSAGE_BLOCKED', fields: { body: expect.any(String) } });
      expect(await t.db.$count(reviews, eq(reviews.requestId, requestId))).toBe(0);
      expect(await countersOf(tutor.user.id)).toMatchObject({ count: 0, sum: 0 });
    });

    it('is refused by the database itself unless it is the student’s completed job with that tutor', async () => {
      const accepted = await job();
      const insert = (values: Partial<typeof reviews.$inferInsert>) =>
        t.db.insert(reviews).values({
          requestId: accepted.requestId,
          studentId: accepted.student.user.id,
          bidId: accepted.bidId,
          tutorId: accepted.tutor.user.id,
          rating: 5,
          ...values,
        });
      // Not completed yet.
      await expect(insert({})).rejects.toThrow();
      const done = await completedJob();
      const other = await signedInTeacher(t, [subjectId]);
      const base = {
        requestId: done.requestId,
        studentId: done.student.user.id,
        bidId: done.bidId,
        tutorId: done.tutor.user.id,
      };
      await expect(insert({ ...base, tutorId: other.user.id })).rejects.toThrow();
      await expect(insert({ ...base, studentId: (await signedInStudent(t)).user.id })).rejects.toThrow();
      await expect(insert({ ...base, jobCompleted: false })).rejects.toThrow();
      await insert(base);
      await expect(insert(base)).rejects.toThrow();
      expect(await t.db.$count(reviews, eq(reviews.requestId, done.requestId))).toBe(1);
    });

    it('keeps the average equal to the rows through create, edit and hide', async () => {
      const tutor = await signedInTeacher(t, [subjectId]);
      const first = await completedJob(tutor);
      const second = await completedJob(tutor);
      const a = (await review(first.student, first.requestId, { rating: 5 })).json();
      await review(second.student, second.requestId, { rating: 2, body: 'Too fast for me.' });
      expect(await countersOf(tutor.user.id)).toEqual({ jobs: 2, ...(await recount(tutor.user.id)) });

      const edited = await call(t, first.student, 'PATCH', `/api/reviews/${a.id}`, { rating: 3, body: 'Good.' });
      expect(edited.statusCode).toBe(200);
      expect(edited.json()).toMatchObject({ rating: 3, body: 'Good.' });
      expect(await countersOf(tutor.user.id)).toEqual({ jobs: 2, ...(await recount(tutor.user.id)) });

      const admin = await createSuperAdminCookie(t.db);
      const hidden = await t.app.inject({
        method: 'POST',
        url: `/api/admin/reviews/${a.id}/hide`,
        payload: { note: 'Off topic' },
        headers: { cookie: admin.header },
      });
      expect(hidden.statusCode).toBe(200);
      expect(await countersOf(tutor.user.id)).toEqual({ jobs: 2, count: 1, sum: 2 });
      expect(await countersOf(tutor.user.id)).toEqual({ jobs: 2, ...(await recount(tutor.user.id)) });
      const profile = (await call(t, first.student, 'GET', `/api/tutors/${tutor.user.id}`)).json();
      expect(profile).toMatchObject({ ratingAverage: 2, reviewCount: 1, jobsCompleted: 2 });
      const listed = (await call(t, first.student, 'GET', `/api/tutors/${tutor.user.id}/reviews`)).json();
      expect(listed.reviews.map((row: { rating: number }) => row.rating)).toEqual([2]);
      // Editing a hidden review leaves the average alone.
      await call(t, first.student, 'PATCH', `/api/reviews/${a.id}`, { rating: 1 });
      expect(await countersOf(tutor.user.id)).toEqual({ jobs: 2, count: 1, sum: 2 });
    });

    it('can be edited for 7 days only, by its author only', async () => {
      const { student, tutor, requestId } = await completedJob();
      const written = (await review(student, requestId, { rating: 4 })).json();
      const edit = (caller: Caller | undefined) =>
        call(t, caller, 'PATCH', `/api/reviews/${written.id}`, { rating: 1 });
      expect((await edit(await signedInStudent(t))).statusCode).toBe(404);
      expect((await edit(tutor)).statusCode).toBe(403);
      expect((await edit(undefined)).statusCode).toBe(401);
      await t.db
        .update(reviews)
        .set({ createdAt: fromNow(-8 * DAY_MS) })
        .where(eq(reviews.id, written.id));
      const late = await edit(student);
      expect(late.statusCode).toBe(409);
      expect(late.json().code).toBe('REVIEW_EDIT_CLOSED');
      expect((await t.db.select().from(reviews).where(eq(reviews.id, written.id)))[0]!.rating).toBe(4);
      expect(await countersOf(tutor.user.id)).toMatchObject({ count: 1, sum: 4 });
    });

    it('takes one public reply and one report from its tutor, and none from anyone else', async () => {
      const { student, tutor, requestId } = await completedJob();
      const written = (await review(student, requestId, { rating: 2, body: 'Late twice.' })).json();
      const other = await signedInTeacher(t, [subjectId]);
      const reply = (caller: Caller | undefined, body: unknown) =>
        call(t, caller, 'POST', `/api/reviews/${written.id}/reply`, body as object);
      expect((await reply(other, { body: 'Not me' })).statusCode).toBe(404);
      expect((await reply(student, { body: 'Not me' })).statusCode).toBe(403);
      expect((await reply(tutor, { body: ' ' })).json().fields).toEqual({ body: 'Please write your reply' });
      const first = await reply(tutor, { body: 'Sorry, the bus was late.' });
      expect(first.statusCode).toBe(200);
      expect(first.json()).toMatchObject({ reply: 'Sorry, the bus was late.', repliedAt: expect.any(String) });
      const second = await reply(tutor, { body: 'Again' });
      expect(second.statusCode).toBe(409);
      expect(second.json().code).toBe('ALREADY_REPLIED');

      const report = (caller: Caller) =>
        call(t, caller, 'POST', `/api/reviews/${written.id}/report`, { reason: 'Not true' });
      expect((await report(other)).statusCode).toBe(404);
      expect((await report(tutor)).statusCode).toBe(200);
      expect((await report(tutor)).json().code).toBe('ALREADY_REPORTED');

      const moderator = await createSubAdmin(t.db, ['reports']);
      const cookie = (await createSessionCookie(t.db, moderator.id)).header;
      const listed = await t.app.inject({ method: 'GET', url: '/api/admin/reviews', headers: { cookie } });
      expect(listed.json().items).toContainEqual(
        expect.objectContaining({ id: written.id, reportReason: 'Not true', hiddenAt: null }),
      );
      const outsider = await createSubAdmin(t.db, ['content']);
      const outsiderCookie = (await createSessionCookie(t.db, outsider.id)).header;
      const hide = (cookieHeader: string, payload: object) =>
        t.app.inject({
          method: 'POST',
          url: `/api/admin/reviews/${written.id}/hide`,
          payload,
          headers: { cookie: cookieHeader },
        });
      expect((await hide(outsiderCookie, { note: 'No' })).statusCode).toBe(403);
      expect((await hide(cookie, { note: ' ' })).statusCode).toBe(400);
      expect(await t.db.$count(adminAuditLog, eq(adminAuditLog.objectId, written.id))).toBe(0);
      expect((await hide(cookie, { note: 'Unfair' })).statusCode).toBe(200);
      expect((await hide(cookie, { note: 'Unfair' })).statusCode).toBe(409);
      const audit = await t.db
        .select()
        .from(adminAuditLog)
        .where(and(eq(adminAuditLog.objectId, written.id), eq(adminAuditLog.action, 'review.hide')));
      expect(audit).toHaveLength(1);
      expect(await countersOf(tutor.user.id)).toMatchObject({ count: 0, sum: 0 });
    });
  });

  describe('the tutor’s public page', () => {
    it('shows the public profile without any private field, and its reviews newest first a page at a time', async () => {
      const tutor = await signedInTeacher(t, [subjectId]);
      await t.db
        .update(users)
        .set({ headline: 'Chemistry made simple', about: 'Ten years of teaching.' })
        .where(eq(users.id, tutor.user.id));
      const written: string[] = [];
      for (let i = 0; i < 12; i++) {
        const { student, requestId } = await completedJob(tutor);
        written.push((await review(student, requestId, { rating: 1 + (i % 5) })).json().id);
      }
      const viewer = await signedInStudent(t);
      const response = await call(t, viewer, 'GET', `/api/tutors/${tutor.user.id}`);
      expect(response.statusCode).toBe(200);
      expect(response.body).not.toContain(tutor.user.email);
      expect(response.body).not.toContain('"email"');
      expect(response.json()).toMatchObject({
        id: tutor.user.id,
        username: tutor.user.username,
        headline: 'Chemistry made simple',
        about: 'Ten years of teaching.',
        jobsCompleted: 12,
        reviewCount: 12,
        ratingAverage: 2.75,
        specializations: [{ id: subjectId, name: 'Organic chemistry', category: 'Test subjects' }],
        medianFirstResponseMinutes: expect.any(Number),
      });

      const first = (await call(t, viewer, 'GET', `/api/tutors/${tutor.user.id}/reviews`)).json();
      expect(first.reviews).toHaveLength(10);
      expect(first.reviews[0].id).toBe(written.at(-1));
      expect(JSON.stringify(first)).not.toContain('@example.com');
      const second = (
        await call(t, viewer, 'GET', `/api/tutors/${tutor.user.id}/reviews?cursor=${first.nextCursor}`)
      ).json();
      expect([...first.reviews, ...second.reviews].map((row: { id: string }) => row.id)).toEqual(written.reverse());
      expect(second.nextCursor).toBeNull();
    });

    it('answers 404 for a student’s id, 401 for reviews signed out and 400 for a bad cursor', async () => {
      const student = await signedInStudent(t);
      const tutor = await signedInTeacher(t, [subjectId]);
      expect((await call(t, student, 'GET', `/api/tutors/${student.user.id}`)).statusCode).toBe(404);
      expect((await call(t, student, 'GET', `/api/tutors/${student.user.id}/reviews`)).statusCode).toBe(404);
      expect((await call(t, undefined, 'GET', `/api/tutors/${tutor.user.id}/reviews`)).statusCode).toBe(401);
      const bad = await call(t, student, 'GET', `/api/tutors/${tutor.user.id}/reviews?cursor=x`);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe('Invalid page cursor');
    });

    it('shows the rating and completed jobs on offer cards and the jobs shared with a person', async () => {
      const tutor = await signedInTeacher(t, [subjectId]);
      const done = await completedJob(tutor);
      await review(done.student, done.requestId, { rating: 4 });
      const next = await job({ tutor, accepted: false });
      const offers = (await call(t, next.student, 'GET', `/api/requests/${next.requestId}/bids`)).json().offers;
      expect(offers[0]).toMatchObject({ tutorId: tutor.user.id, ratingAverage: 4, reviewCount: 1, jobsCompleted: 1 });

      const shared = (await call(t, done.student, 'GET', `/api/shared-jobs/${tutor.user.id}`)).json();
      expect(shared.jobs).toEqual([
        expect.objectContaining({
          requestId: done.requestId,
          isCompleted: true,
          review: expect.objectContaining({ rating: 4 }),
        }),
      ]);
      const fromTutor = (await call(t, tutor, 'GET', `/api/shared-jobs/${done.student.user.id}`)).json();
      expect(fromTutor.jobs).toHaveLength(1);
      const stranger = (await call(t, await signedInStudent(t), 'GET', `/api/shared-jobs/${tutor.user.id}`)).json();
      expect(stranger.jobs).toEqual([]);
    });
  });

  describe('headline and about', () => {
    it('are the teacher’s to set, moderated like chat, and refused to students and when too long', async () => {
      const tutor = await signedInTeacher(t, [subjectId]);
      const put = (caller: Caller | undefined, payload: object) =>
        call(t, caller, 'PUT', '/api/profile/about', payload);
      const saved = await put(tutor, { headline: '  Calm chemistry help ', about: '' });
      expect(saved.statusCode).toBe(200);
      expect(saved.json()).toEqual({ headline: 'Calm chemistry help', about: null });
      expect((await call(t, tutor, 'GET', '/api/profile')).json()).toMatchObject({ headline: 'Calm chemistry help' });

      expect((await put(await signedInStudent(t), { headline: 'Hi' })).statusCode).toBe(403);
      expect((await put(undefined, { headline: 'Hi' })).statusCode).toBe(401);
      const long = await put(tutor, { headline: 'a'.repeat(81) });
      expect(long.json().fields).toEqual({ headline: 'The headline can be at most 80 characters' });
      const contact = await put(tutor, { headline: 'Hi', about: 'WhatsApp me at +1 415 555 0134' });
      expect(contact.json()).toMatchObject({ code: 'MESSAGE_BLOCKED', fields: { about: expect.any(String) } });
      const [row] = await t.db
        .select({ headline: users.headline, about: users.about })
        .from(users)
        .where(eq(users.id, tutor.user.id));
      expect(row).toEqual({ headline: 'Calm chemistry help', about: null });
    });
  });

  describe('ceilings', () => {
    /** Refused past the user's ceiling with the limit's own text and the seconds until its window ends. */
    const expectCeiling = (response: { statusCode: number; json(): unknown }, message: string) => {
      expect(response.statusCode).toBe(429);
      expect(response.json()).toMatchObject({
        code: 'RATE_LIMITED',
        message,
        details: { retryAfterSeconds: expect.any(Number) },
      });
    };

    it(`lets a tutor mark jobs delivered ${USER_LIMITS.deliveryMarks.max} times an hour, then tells nobody`, async () => {
      const { student, tutor, requestId } = await job();
      const ask = () => call(t, tutor, 'POST', `/api/requests/${requestId}/delivered`);
      for (let n = 0; n < USER_LIMITS.deliveryMarks.max; n++) expect((await ask()).statusCode).toBe(200);
      const told = async () => ({
        notifications: await t.db.$count(notifications, eq(notifications.userId, student.user.id)),
        mails: await t.db.$count(mailOutbox, eq(mailOutbox.toAddress, student.user.email)),
      });
      const before = await told();
      expectCeiling(await ask(), USER_LIMITS.deliveryMarks.message);
      expect(await told()).toEqual(before);
    });

    it(`lets a student change reviews ${USER_LIMITS.reviewEdits.max} times an hour, then keeps the review`, async () => {
      const { student, tutor, requestId } = await completedJob();
      const written = (await review(student, requestId, { rating: 4 })).json();
      const edit = (rating: number) => call(t, student, 'PATCH', `/api/reviews/${written.id}`, { rating });
      for (let n = 0; n < USER_LIMITS.reviewEdits.max; n++) expect((await edit((n % 5) + 1)).statusCode).toBe(200);
      const [before] = await t.db.select().from(reviews).where(eq(reviews.id, written.id));
      const countersBefore = await countersOf(tutor.user.id);
      expectCeiling(await edit(before!.rating === 1 ? 2 : 1), USER_LIMITS.reviewEdits.message);
      expect((await t.db.select().from(reviews).where(eq(reviews.id, written.id)))[0]).toEqual(before);
      expect(await countersOf(tutor.user.id)).toEqual(countersBefore);
    });

    it(`lets a teacher change their profile ${USER_LIMITS.profileEdits.max} times an hour, refused texts included`, async () => {
      const tutor = await signedInTeacher(t, [subjectId]);
      const about = (text: string) => call(t, tutor, 'PUT', '/api/profile/about', { headline: 'Hi', about: text });
      // Refused texts count too: each one is read by moderation and may flag the teacher.
      for (let n = 0; n < 5; n++) expect((await about(`mail me: a${n}@b.ch`)).statusCode).toBe(400);
      for (let n = 5; n < USER_LIMITS.profileEdits.max - 1; n++)
        expect((await about(`Text ${n}`)).statusCode).toBe(200);
      const subjects = { subjectIds: [subjectId] };
      expect((await call(t, tutor, 'PUT', '/api/profile/specializations', subjects)).statusCode).toBe(200);
      const [before] = await t.db.select().from(users).where(eq(users.id, tutor.user.id));
      expectCeiling(await about('One too many'), USER_LIMITS.profileEdits.message);
      expectCeiling(
        await call(t, tutor, 'PUT', '/api/profile/specializations', subjects),
        USER_LIMITS.profileEdits.message,
      );
      expect((await t.db.select().from(users).where(eq(users.id, tutor.user.id)))[0]).toEqual(before);
    });
  });
});
