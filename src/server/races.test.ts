import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from './db/schema/auth.ts';
import { tutorBids } from './db/schema/requests.ts';
import { createRequest, createSubject, freshClientAddress } from '../../tests/support/factories.ts';
import { call, signedInStudent, signedInTeacher } from '../../tests/support/marketplace.ts';
import { createTestApp, type TestApp } from '../../tests/support/test-app.ts';

// Fifty requests at once where only one may win: the database decides, never the order of arrival.
const RACERS = 50;

describe('racing requests', () => {
  let t: TestApp;
  let subjectId: string;
  beforeAll(async () => {
    t = await createTestApp();
    subjectId = (await createSubject(t.db)).id;
  });
  afterAll(() => t.close());

  it(`accepts exactly one of ${RACERS} different bids accepted at once on one request`, async () => {
    const student = await signedInStudent(t);
    const request = await createRequest(t.db, { studentId: student.user.id, subjectId });
    const bids = await Promise.all(
      Array.from({ length: RACERS }, async () => {
        const teacher = await signedInTeacher(t, [subjectId]);
        const bid = await call(t, teacher, 'POST', `/api/jobs/${request.id}/bids`, { amount: 10 });
        expect(bid.statusCode).toBe(201);
        return bid.json().id as string;
      }),
    );
    const answers = await Promise.all(
      bids.map((bidId) => call(t, student, 'POST', `/api/requests/${request.id}/bids/${bidId}/accept`)),
    );
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.statusCode === 409)).toHaveLength(RACERS - 1);
    const onThisRequest = await t.db
      .select({ status: tutorBids.status })
      .from(tutorBids)
      .where(eq(tutorBids.requestId, request.id));
    expect(onThisRequest.filter((bid) => bid.status === 'accepted')).toHaveLength(1);
  });

  it(`keeps one bid of a teacher who bids ${RACERS} times at once`, async () => {
    const student = await signedInStudent(t);
    const request = await createRequest(t.db, { studentId: student.user.id, subjectId });
    const teacher = await signedInTeacher(t, [subjectId]);
    const answers = await Promise.all(
      Array.from({ length: RACERS }, (_, n) =>
        call(t, teacher, 'POST', `/api/jobs/${request.id}/bids`, { amount: 8 + (n % 7) }),
      ),
    );
    expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(1);
    expect(answers.filter((answer) => answer.statusCode === 409)).toHaveLength(RACERS - 1);
    expect(await t.db.$count(tutorBids, eq(tutorBids.requestId, request.id))).toBe(1);
  });

  it(`creates one account of ${RACERS} registrations with one username at once`, async () => {
    const name = `racer${Date.now().toString(36)}`;
    const answers = await Promise.all(
      Array.from({ length: RACERS }, (_, n) =>
        t.app.inject({
          method: 'POST',
          url: '/api/accounts/register',
          payload: {
            name,
            email: `${name}.${n}@example.com`,
            password: 'secret1',
            role: 'student',
            acceptTerms: true,
            acceptPrivacy: true,
          },
          remoteAddress: freshClientAddress(),
        }),
      ),
    );
    expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(1);
    expect(answers.filter((answer) => answer.statusCode === 409).map((answer) => answer.json().code)).toEqual(
      Array.from({ length: RACERS - 1 }, () => 'USERNAME_TAKEN'),
    );
    expect(await t.db.$count(users, eq(users.username, name))).toBe(1);
  });
});
