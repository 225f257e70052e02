import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVIEWS_TO_LOOK_AT } from '#shared/constants.ts';
import { adminAuditLog } from '../../db/schema/admin.ts';
import { users } from '../../db/schema/auth.ts';
import { tutoringRequests } from '../../db/schema/requests.ts';
import { reviews } from '../../db/schema/reviews.ts';
import { call, signedInStudent, signedInTeacher, signIn, type Caller } from '../../../../tests/support/callers.ts';
import { acceptAndPay } from '../../../../tests/support/checkout.ts';
import { createBid, createRequest, createSubAdmin, createSubject } from '../../../../tests/support/factories.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { DAY_MS, fromNow } from '../../../../tests/support/time.ts';

// Reviews to look at: a young account's review of a tutor it had several paid jobs with lately is published, and
// listed for the admins with the reports permission until one of them has looked at it.

describe('reviews to look at', () => {
  let t: TestApp;
  let subjectId: string;
  let moderator: Caller;
  beforeAll(async () => {
    t = await createTestApp();
    subjectId = (await createSubject(t.db)).id;
    moderator = await signIn(t, await createSubAdmin(t.db, ['reports']));
  });
  afterAll(() => t.close());

  /** A job of the pair, paid `cents` with the test card and completed by the student, who then rates it. */
  async function paidReviewedJob(student: Caller, tutor: Caller, cents: number, { postedDaysAgo = 0 } = {}) {
    const request = await createRequest(t.db, { studentId: student.user.id, subjectId });
    const bid = await createBid(t.db, { requestId: request.id, tutorId: tutor.user.id, amountCents: cents });
    expect((await acceptAndPay(t, student, request.id, bid.id)).statusCode).toBe(200);
    if (postedDaysAgo > 0)
      await t.db
        .update(tutoringRequests)
        .set({ createdAt: fromNow(-postedDaysAgo * DAY_MS) })
        .where(eq(tutoringRequests.id, request.id));
    expect((await call(t, student, 'POST', `/api/requests/${request.id}/complete`)).statusCode).toBe(200);
    const reviewed = await call(t, student, 'POST', `/api/requests/${request.id}/review`, { rating: 5 });
    expect(reviewed.statusCode).toBe(201);
    return reviewed.json<{ id: string }>().id;
  }

  const ageAccounts = (callers: Caller[], days: number) =>
    t.db
      .update(users)
      .set({ createdAt: fromNow(-days * DAY_MS) })
      .where(
        inArray(
          users.id,
          callers.map((caller) => caller.user.id),
        ),
      );

  const list = async (caller: Caller | undefined, query = '') =>
    call(t, caller, 'GET', `/api/admin/reviews/to-look-at${query}`);
  const listedIds = async () =>
    (await list(moderator)).json<{ items: { id: string }[] }>().items.map((item) => item.id);
  const lookAt = (caller: Caller | undefined, id: string) =>
    call(t, caller, 'POST', `/api/admin/reviews/${id}/looked-at`);

  it(`lists a young account's review once the pair has ${REVIEWS_TO_LOOK_AT.pairJobs} paid jobs within 30 days, with both histories`, async () => {
    const student = await signedInStudent(t);
    const tutor = await signedInTeacher(t, [subjectId]);
    await ageAccounts([tutor], 400);
    const first = await paidReviewedJob(student, tutor, 2_000);
    expect(await listedIds()).not.toContain(first);
    const second = await paidReviewedJob(student, tutor, 3_500);

    const page = await list(moderator);
    expect(page.statusCode).toBe(200);
    const listed = page.json().items.find((item: { id: string }) => item.id === second);
    expect(listed).toMatchObject({
      rating: 5,
      pairJobs: 2,
      lookedAt: null,
      student: { id: student.user.id, username: student.user.username, jobs: 2, paidCents: 5_500, reviews: 2 },
      tutor: { id: tutor.user.id, jobs: 2, paidCents: 5_500, reviews: 2 },
    });
    expect(Date.now() - new Date(listed.tutor.createdAt).getTime()).toBeGreaterThan(399 * DAY_MS);
    // Published all the same: on the tutor's page.
    const published = await call(t, student, 'GET', `/api/tutors/${tutor.user.id}/reviews`);
    expect(published.json().reviews.map((review: { id: string }) => review.id)).toContain(second);
  });

  it('leaves out pairs of older accounts, and jobs posted more than 30 days before the review', async () => {
    const student = await signedInStudent(t);
    const tutor = await signedInTeacher(t, [subjectId]);
    await ageAccounts([student, tutor], 31);
    await paidReviewedJob(student, tutor, 2_000);
    const old = await paidReviewedJob(student, tutor, 2_000);

    const youngStudent = await signedInStudent(t);
    await paidReviewedJob(youngStudent, tutor, 2_000, { postedDaysAgo: 31 });
    const longAgo = await paidReviewedJob(youngStudent, tutor, 2_000);
    const ids = await listedIds();
    expect(ids).not.toContain(old);
    expect(ids).not.toContain(longAgo);
  });

  it('takes a review off the list once an admin has looked at it, audited; refuses anyone else and changes nothing', async () => {
    const student = await signedInStudent(t);
    const tutor = await signedInTeacher(t, [subjectId]);
    await paidReviewedJob(student, tutor, 1_000);
    const reviewId = await paidReviewedJob(student, tutor, 1_000);
    expect(await listedIds()).toContain(reviewId);

    const payments = await signIn(t, await createSubAdmin(t.db, ['payments']));
    expect((await lookAt(undefined, reviewId)).statusCode).toBe(401);
    expect((await lookAt(student, reviewId)).statusCode).toBe(403);
    expect((await lookAt(payments, reviewId)).statusCode).toBe(403);
    expect((await list(undefined)).statusCode).toBe(401);
    expect((await list(payments)).statusCode).toBe(403);
    expect((await lookAt(moderator, 'not-an-id')).statusCode).toBe(400);
    const badCursor = await list(moderator, '?cursor=yesterday');
    expect(badCursor.statusCode).toBe(400);
    expect((await lookAt(moderator, randomUUID())).statusCode).toBe(404);
    const [written] = await t.db.select({ lookedAt: reviews.lookedAt }).from(reviews).where(eq(reviews.id, reviewId));
    expect(written!.lookedAt).toBeNull();
    expect(await t.db.$count(adminAuditLog, eq(adminAuditLog.objectId, reviewId))).toBe(0);

    const looked = await lookAt(moderator, reviewId);
    expect(looked.statusCode).toBe(200);
    expect(looked.json()).toMatchObject({ id: reviewId, lookedAt: expect.any(String) });
    expect(await listedIds()).not.toContain(reviewId);
    const [audit] = await t.db
      .select()
      .from(adminAuditLog)
      .where(and(eq(adminAuditLog.objectId, reviewId), eq(adminAuditLog.action, 'review.looked_at')));
    expect(audit).toMatchObject({ actorId: moderator.user.id, objectType: 'review' });
    expect((await lookAt(moderator, reviewId)).statusCode).toBe(409);
  });

  it('refuses a review that is not to look at with 404', async () => {
    const student = await signedInStudent(t);
    const tutor = await signedInTeacher(t, [subjectId]);
    const only = await paidReviewedJob(student, tutor, 1_000);
    expect((await lookAt(moderator, only)).statusCode).toBe(404);
  });

  it('pages newest first with the cursor', async () => {
    const student = await signedInStudent(t);
    const tutor = await signedInTeacher(t, [subjectId]);
    const made: string[] = [];
    for (let i = 0; i < REVIEWS_TO_LOOK_AT.pageSize + 1; i++) made.push(await paidReviewedJob(student, tutor, 1_000));
    const first = (await list(moderator)).json();
    expect(first.items).toHaveLength(REVIEWS_TO_LOOK_AT.pageSize);
    expect(first.items[0].id).toBe(made.at(-1));
    const second = (await list(moderator, `?cursor=${first.nextCursor}`)).json();
    const all = [...first.items, ...second.items].map((item: { id: string }) => item.id);
    // Every listed review of the pair (all but the first, written with one job), once, newest first.
    expect(all.filter((id) => made.includes(id))).toEqual(made.slice(1).reverse());
  });
});
