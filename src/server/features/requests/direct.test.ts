import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifications, teacherNotifications } from '../../db/schema/notifications.ts';
import { tutorBids, tutoringRequests } from '../../db/schema/requests.ts';
import { users } from '../../db/schema/auth.ts';
import { runJobOnce } from '../../platform/jobs/interval-jobs.ts';
import { createBid, createSubject, createTeacher } from '../../../../tests/support/factories.ts';
import { call, signedInStudent, signedInTeacher, type Caller } from '../../../../tests/support/callers.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { directAnswerJob, withdrawFromMarketplace } from './service.ts';

// Direct requests (docs/decisions/0061): who sees them, declining, and opening them to all after 24 hours.

describe('direct requests', () => {
  let t: TestApp;
  let subjectId: string;
  let otherSubjectId: string;
  let lastAddress = 0;

  beforeAll(async () => {
    t = await createTestApp();
    subjectId = (await createSubject(t.db)).id;
    otherSubjectId = (await createSubject(t.db)).id;
  });
  afterAll(() => t.close());

  const ask = (caller: Caller | undefined, body: object) =>
    call(t, caller, 'POST', '/api/requests', body, { remoteAddress: `10.9.0.${++lastAddress % 250}` });
  const form = (directTutorId: string, subject = subjectId) => ({
    type: 'tutoring',
    subjectId: subject,
    description: 'Please help me with limits before Friday',
    budgetMinCents: 800,
    budgetMaxCents: 1500,
    directTutorId,
  });
  const jobIds = async (caller: Caller) => {
    const answer = await call(t, caller, 'GET', '/api/jobs');
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json().jobs.map((job: { id: string }) => job.id);
  };
  const rowOf = async (id: string) =>
    (await t.db.select().from(tutoringRequests).where(eq(tutoringRequests.id, id)))[0]!;
  const studentNotices = (userId: string) => t.db.select().from(notifications).where(eq(notifications.userId, userId));

  /** A student, the tutor they ask, the other tutor of that (new) subject, and the direct request. */
  async function sentRequest() {
    const subject = await createSubject(t.db);
    const student = await signedInStudent(t);
    const tutor = await signedInTeacher(t, [subject.id]);
    const other = await signedInTeacher(t, [subject.id]);
    const created = await ask(student, form(tutor.user.id, subject.id));
    expect(created.statusCode).toBe(201);
    return { student, tutor, other, request: created.json().request, notifiedCount: created.json().notifiedCount };
  }

  it('reaches only its tutor: the card says who, the other tutor of the subject neither sees it nor can bid', async () => {
    const { student, tutor, other, request, notifiedCount } = await sentRequest();
    expect(notifiedCount).toBe(1);
    expect(request.direct).toEqual({
      tutorId: tutor.user.id,
      tutorName: tutor.user.username,
      state: 'waiting',
      declineReason: null,
    });
    const told = await t.db
      .select({ teacherId: teacherNotifications.teacherId })
      .from(teacherNotifications)
      .where(eq(teacherNotifications.requestId, request.id));
    expect(told).toEqual([{ teacherId: tutor.user.id }]);

    expect(await jobIds(tutor)).toContain(request.id);
    expect(await jobIds(other)).not.toContain(request.id);
    const otherBid = await call(t, other, 'POST', `/api/jobs/${request.id}/bids`, { amountCents: 1000 });
    expect(otherBid.statusCode).toBe(404);
    expect(await t.db.select().from(tutorBids).where(eq(tutorBids.requestId, request.id))).toEqual([]);
    const otherDecline = await call(t, other, 'POST', `/api/jobs/${request.id}/decline`, {});
    expect(otherDecline.statusCode).toBe(404);

    // The student's own card and detail say who it was sent to.
    const mine = (await call(t, student, 'GET', '/api/requests/mine')).json().requests;
    expect(mine[0].direct.tutorName).toBe(tutor.user.username);
    const detail = (await call(t, student, 'GET', `/api/requests/${request.id}`)).json();
    expect(detail.notifiedCount).toBe(1);

    // Its tutor bids; the student sees the offer.
    const bid = await call(t, tutor, 'POST', `/api/jobs/${request.id}/bids`, { amountCents: 1200 });
    expect(bid.statusCode).toBe(201);
    const offers = (await call(t, student, 'GET', `/api/requests/${request.id}/bids`)).json().offers;
    expect(offers.map((offer: { tutorId: string }) => offer.tutorId)).toEqual([tutor.user.id]);
  });

  it('goes only to a tutor of the subject who can take requests, else 400 on the field and nothing written', async () => {
    const student = await signedInStudent(t);
    const elsewhere = await createTeacher(t.db, { subjectIds: [otherSubjectId] });
    const suspended = await createTeacher(t.db, { subjectIds: [subjectId] });
    await t.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, suspended.id));
    const leaving = await createTeacher(t.db, { subjectIds: [subjectId] });
    await t.db.update(users).set({ deletionRequestedAt: new Date() }).where(eq(users.id, leaving.id));
    const fellowStudent = await signedInStudent(t);
    for (const tutorId of [elsewhere.id, suspended.id, leaving.id, fellowStudent.user.id, crypto.randomUUID()]) {
      const refused = await ask(student, form(tutorId));
      expect(refused.statusCode).toBe(400);
      expect(refused.json().fields.directTutorId).toBe('This tutor cannot take requests in this subject');
    }
    const notUuid = await ask(student, form('nobody'));
    expect(notUuid.statusCode).toBe(400);
    const written = await t.db.select().from(tutoringRequests).where(eq(tutoringRequests.studentId, student.user.id));
    expect(written).toEqual([]);
    expect((await ask(undefined, form(elsewhere.id))).statusCode).toBe(401);
  });

  it('declined with a reason: the student is told, the tutor no longer sees it, and the student opens it to all', async () => {
    const { student, tutor, other, request } = await sentRequest();
    const tooLong = await call(t, tutor, 'POST', `/api/jobs/${request.id}/decline`, { reason: 'x'.repeat(501) });
    expect(tooLong.statusCode).toBe(400);
    expect((await rowOf(request.id)).directState).toBe('waiting');
    expect((await call(t, undefined, 'POST', `/api/jobs/${request.id}/decline`, {})).statusCode).toBe(401);
    expect((await call(t, student, 'POST', `/api/jobs/${request.id}/decline`, {})).statusCode).toBe(403);

    // Not before the tutor answered: nothing to open yet.
    expect((await call(t, student, 'POST', `/api/requests/${request.id}/open-to-all`)).statusCode).toBe(409);

    const declined = await call(t, tutor, 'POST', `/api/jobs/${request.id}/decline`, { reason: 'Fully booked' });
    expect(declined.statusCode).toBe(204);
    expect((await call(t, tutor, 'POST', `/api/jobs/${request.id}/decline`, {})).statusCode).toBe(404);
    expect(await jobIds(tutor)).not.toContain(request.id);
    const notices = await studentNotices(student.user.id);
    expect(notices.map((notice) => notice.message)).toEqual([
      `${tutor.user.username} declined your ${request.subjectName} request: Fully booked You can open it to all tutors of the subject.`,
    ]);
    const card = (await call(t, student, 'GET', `/api/requests/${request.id}`)).json().request;
    expect(card.direct).toMatchObject({ state: 'declined', declineReason: 'Fully booked' });

    // Someone else's request: 404, nothing changed.
    const stranger = await signedInStudent(t);
    expect((await call(t, stranger, 'POST', `/api/requests/${request.id}/open-to-all`)).statusCode).toBe(404);
    expect((await call(t, tutor, 'POST', `/api/requests/${request.id}/open-to-all`)).statusCode).toBe(403);
    expect((await rowOf(request.id)).directState).toBe('declined');

    // Two days later the request would have expired: opening it starts the 48 hours again.
    await t.db
      .update(tutoringRequests)
      .set({ createdAt: sql`now() - interval '40 hours'`, openedToAllAt: null })
      .where(eq(tutoringRequests.id, request.id));
    const opened = await call(t, student, 'POST', `/api/requests/${request.id}/open-to-all`);
    expect(opened.statusCode).toBe(200);
    const detail = opened.json();
    expect(detail.request.direct).toMatchObject({ state: 'opened', tutorName: tutor.user.username });
    expect(detail.request.description).toBe(request.description);
    expect(Date.now() - new Date(detail.request.openSince).getTime()).toBeLessThan(60_000);
    expect(detail.notifiedCount).toBe(2);
    expect(await jobIds(other)).toContain(request.id);
    // The tutor who declined is not asked again.
    expect(await jobIds(tutor)).not.toContain(request.id);
    expect((await call(t, other, 'POST', `/api/jobs/${request.id}/bids`, { amountCents: 900 })).statusCode).toBe(201);
    // Opened once: a second click answers 409.
    expect((await call(t, student, 'POST', `/api/requests/${request.id}/open-to-all`)).statusCode).toBe(409);
  });

  it('unanswered for 24 hours (the clock moved): the job tells the student once, who opens it to all', async () => {
    const { student, tutor, other, request } = await sentRequest();
    const answered = await sentRequest();
    await createBid(t.db, { requestId: answered.request.id, tutorId: answered.tutor.user.id });
    const young = await sentRequest();
    const moveBack = (id: string, hours: number) =>
      t.db
        .update(tutoringRequests)
        .set({
          createdAt: sql`now() - make_interval(hours => ${hours})`,
        })
        .where(eq(tutoringRequests.id, id));
    await moveBack(request.id, 25);
    await moveBack(answered.request.id, 25);
    await moveBack(young.request.id, 23);

    const job = directAnswerJob({ publicUrl: 'http://localhost', realtime: t.realtime });
    expect(await runJobOnce({ db: t.db, job })).toBe(true);
    expect(await runJobOnce({ db: t.db, job })).toBe(true);
    expect((await rowOf(request.id)).directState).toBe('unanswered');
    expect((await rowOf(answered.request.id)).directState).toBe('waiting');
    expect((await rowOf(young.request.id)).directState).toBe('waiting');
    const notices = await studentNotices(student.user.id);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.message).toContain(`${tutor.user.username} has not answered your`);

    // Its tutor may still bid until the student opens it; the other tutor still cannot see it.
    expect(await jobIds(tutor)).toContain(request.id);
    expect(await jobIds(other)).not.toContain(request.id);
    const opened = await call(t, student, 'POST', `/api/requests/${request.id}/open-to-all`);
    expect(opened.statusCode).toBe(200);
    expect(await jobIds(other)).toContain(request.id);
    expect(await jobIds(tutor)).toContain(request.id);
    // Opening tells the other tutors of the subject, not the one told already.
    const told = await t.db
      .select({ teacherId: teacherNotifications.teacherId })
      .from(teacherNotifications)
      .where(eq(teacherNotifications.requestId, request.id));
    expect(told.map((row) => row.teacherId)).toEqual(expect.arrayContaining([tutor.user.id, other.user.id]));
  });

  it('sent to a tutor who then leaves: it no longer waits for them, and the student may open it to all', async () => {
    const { student, tutor, request } = await sentRequest();
    await withdrawFromMarketplace({ db: t.db, userId: tutor.user.id });
    expect((await rowOf(request.id)).directState).toBe('unanswered');
    expect((await call(t, student, 'POST', `/api/requests/${request.id}/open-to-all`)).statusCode).toBe(200);
  });

  it('refuses a decline reason carrying contact details: 400, still waiting, the student told nothing', async () => {
    const { student, tutor, request } = await sentRequest();
    const refused = await call(t, tutor, 'POST', `/api/jobs/${request.id}/decline`, {
      reason: 'Booked here, but email me: tutor.jane@gmail.com',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'MESSAGE_BLOCKED', fields: { reason: expect.any(String) } });
    expect((await rowOf(request.id)).directState).toBe('waiting');
    expect(await studentNotices(student.user.id)).toEqual([]);
  });

  it('opened to all: the other tutors read neither whom it was sent to nor the reason given the student', async () => {
    const { student, tutor, other, request } = await sentRequest();
    const jobOf = async (caller: Caller) =>
      (await call(t, caller, 'GET', '/api/jobs')).json().jobs.find((job: { id: string }) => job.id === request.id);
    expect((await jobOf(tutor)).direct).toEqual({
      tutorId: tutor.user.id,
      tutorName: tutor.user.username,
      state: 'waiting',
      declineReason: null,
    });
    expect(
      (await call(t, tutor, 'POST', `/api/jobs/${request.id}/decline`, { reason: 'Too far from my area' })).statusCode,
    ).toBe(204);
    expect((await call(t, student, 'POST', `/api/requests/${request.id}/open-to-all`)).statusCode).toBe(200);
    const seen = await jobOf(other);
    expect(seen.id).toBe(request.id);
    expect(seen.direct).toBeNull();
    expect(JSON.stringify(seen)).not.toContain('Too far from my area');
    expect(JSON.stringify(seen)).not.toContain(tutor.user.id);
  });
});
