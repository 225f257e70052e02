import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { teacherNotifications } from '../../db/schema/notifications.ts';
import { tutorBids } from '../../db/schema/requests.ts';
import { createRequest, createSubject, createTeacher } from '../../../../tests/support/factories.ts';
import { call, signedInStudent, signedInTeacher } from '../../../../tests/support/callers.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { INVALID_CURSOR_MESSAGE } from '#shared/schemas/cursor.ts';
import { HOUR_MS } from '../../../../tests/support/time.ts';

const hoursAgo = (hours: number) => new Date(Date.now() - hours * HOUR_MS);

describe('a student’s requests and offers', () => {
  let t: TestApp;
  let subjectId: string;
  beforeAll(async () => {
    t = await createTestApp();
    subjectId = (await createSubject(t.db, { name: 'Microeconomics' })).id;
  });
  afterAll(() => t.close());

  it('answers 401 without a session and 403 to a teacher on every student route', async () => {
    const student = await signedInStudent(t);
    const request = await createRequest(t.db, { studentId: student.user.id, subjectId });
    const teacher = await signedInTeacher(t, [subjectId]);
    for (const route of ['/api/requests/mine', `/api/requests/${request.id}`, `/api/requests/${request.id}/bids`]) {
      expect((await call(t, undefined, 'GET', route)).statusCode).toBe(401);
      expect((await call(t, teacher, 'GET', route)).statusCode).toBe(403);
    }
  });

  it('lists only the student’s own requests, newest first, split into Live and Expired, with subject name and bid count', async () => {
    const student = await signedInStudent(t);
    const other = await signedInStudent(t);
    await createRequest(t.db, { studentId: other.user.id, subjectId });
    const live = await createRequest(t.db, { studentId: student.user.id, subjectId, createdAt: hoursAgo(2) });
    const newest = await createRequest(t.db, {
      studentId: student.user.id,
      subjectId,
      status: 'accepted',
      createdAt: hoursAgo(1),
    });
    const old = await createRequest(t.db, { studentId: student.user.id, subjectId, createdAt: hoursAgo(49) });
    const closed = await createRequest(t.db, {
      studentId: student.user.id,
      subjectId,
      status: 'closed',
      createdAt: hoursAgo(3),
    });
    const bidder = await createTeacher(t.db, { subjectIds: [subjectId] });
    await t.db.insert(tutorBids).values({ requestId: live.id, tutorId: bidder.id, amountCents: 900 });

    const liveTab = await call(t, student, 'GET', '/api/requests/mine');
    expect(liveTab.statusCode).toBe(200);
    expect(liveTab.json().requests.map((r: { id: string }) => r.id)).toEqual([newest.id, live.id]);
    expect(liveTab.json().requests[1]).toMatchObject({ subjectName: 'Microeconomics', bidCount: 1, status: 'open' });
    expect(liveTab.json().nextCursor).toBeNull();

    const expiredTab = await call(t, student, 'GET', '/api/requests/mine?status=expired');
    expect(expiredTab.json().requests.map((r: { id: string }) => r.id)).toEqual([closed.id, old.id]);
  });

  it('pages through many requests created at the same instant without skipping or repeating one', async () => {
    const student = await signedInStudent(t);
    const createdAt = new Date();
    for (let i = 0; i < 45; i++) await createRequest(t.db, { studentId: student.user.id, subjectId, createdAt });
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response = await call(t, student, 'GET', `/api/requests/mine${cursor ? `?cursor=${cursor}` : ''}`);
      seen.push(...response.json().requests.map((r: { id: string }) => r.id));
      cursor = response.json().nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(45);
    expect(seen).toHaveLength(45);
  });

  it('refuses a forged cursor with a 400', async () => {
    const student = await signedInStudent(t);
    for (const cursor of ['nonsense', Buffer.from('["x","y"]').toString('base64url')]) {
      const response = await call(t, student, 'GET', `/api/requests/mine?cursor=${cursor}`);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ fields: { cursor: INVALID_CURSOR_MESSAGE } });
    }
  });

  it('shows the owner a request with its offers summary and reach, and anyone else a 404', async () => {
    const student = await signedInStudent(t);
    const request = await createRequest(t.db, {
      studentId: student.user.id,
      subjectId,
      type: 'assignment',
      budgetMinCents: 500,
      budgetMaxCents: 999_900,
    });
    const [a, b] = await Promise.all([
      createTeacher(t.db, { subjectIds: [subjectId] }),
      createTeacher(t.db, { subjectIds: [subjectId] }),
    ]);
    await t.db.insert(tutorBids).values([
      { requestId: request.id, tutorId: a.id, amountCents: 4000 },
      { requestId: request.id, tutorId: b.id, amountCents: 2550 },
    ]);
    await t.db.insert(teacherNotifications).values(
      [a, b].map((teacher) => ({
        teacherId: teacher.id,
        requestId: request.id,
        subjectTitle: 'x',
        budget: '$5+',
        description: 'x',
        jobUrl: '/x',
      })),
    );

    const response = await call(t, student, 'GET', `/api/requests/${request.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      request: { id: request.id, subjectName: 'Microeconomics', budgetMaxCents: 999_900, status: 'open' },
      offers: { count: 2, lowestCents: 2550, highestCents: 4000 },
      notifiedCount: 2,
    });

    const stranger = await signedInStudent(t);
    for (const path of [`/api/requests/${request.id}`, `/api/requests/${request.id}/bids`]) {
      const notYours = await call(t, stranger, 'GET', path);
      expect(notYours.statusCode).toBe(404);
      expect(notYours.json()).toEqual({ code: 'NOT_FOUND', message: 'Request not found' });
    }
    expect((await call(t, student, 'GET', '/api/requests/2b0b3b1e-6a4f-4f7e-9a55-000000000000')).statusCode).toBe(404);
    expect((await call(t, student, 'GET', '/api/requests/not-a-uuid')).statusCode).toBe(400);
  });

  it('lists the offers with each tutor’s public profile, newest first, and an empty list without offers', async () => {
    const student = await signedInStudent(t);
    const request = await createRequest(t.db, { studentId: student.user.id, subjectId });
    expect((await call(t, student, 'GET', `/api/requests/${request.id}/bids`)).json()).toEqual({ offers: [] });
    const tutor = await createTeacher(t.db, { subjectIds: [subjectId], image: '/api/files/avatars/x.png' });
    const later = await createTeacher(t.db, { subjectIds: [subjectId] });
    await t.db.insert(tutorBids).values({
      requestId: request.id,
      tutorId: tutor.id,
      amountCents: 900,
      message: 'I teach this daily',
      createdAt: hoursAgo(1),
    });
    await t.db.insert(tutorBids).values({ requestId: request.id, tutorId: later.id, amountCents: 1200 });

    const { offers } = (await call(t, student, 'GET', `/api/requests/${request.id}/bids`)).json();
    expect(offers.map((offer: { tutorId: string }) => offer.tutorId)).toEqual([later.id, tutor.id]);
    expect(offers[1]).toEqual({
      id: expect.any(String),
      tutorId: tutor.id,
      username: tutor.username,
      image: '/api/files/avatars/x.png',
      vhNumber: tutor.vhNumber,
      amountCents: 900,
      message: 'I teach this daily',
      status: 'pending',
      createdAt: expect.any(String),
      ratingAverage: null,
      reviewCount: 0,
      jobsCompleted: 0,
    });
    expect(offers[1]).not.toHaveProperty('email');
  });
});
