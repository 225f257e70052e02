import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tutoringRequests } from '../../db/schema/requests.ts';
import { runJobOnce } from '../../platform/jobs/interval-jobs.ts';
import { createRequest, createSubject } from '../../../../tests/support/factories.ts';
import { call, signedInStudent, signedInTeacher } from '../../../../tests/support/callers.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { requestExpiryJob } from './service.ts';

describe('request expiry', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const statusOf = async (id: string) =>
    (
      await t.db.select({ status: tutoringRequests.status }).from(tutoringRequests).where(eq(tutoringRequests.id, id))
    )[0]!.status;
  const moveBack = (id: string, hours: number) =>
    t.db
      .update(tutoringRequests)
      .set({ createdAt: sql`now() - make_interval(hours => ${hours})` })
      .where(eq(tutoringRequests.id, id));

  it('closes, in the database, open requests whose creation is moved back 49 hours; younger and accepted ones stay', async () => {
    const subject = await createSubject(t.db);
    const student = await signedInStudent(t);
    const [old, oldPending, young, oldAccepted] = await Promise.all([
      createRequest(t.db, { studentId: student.user.id, subjectId: subject.id }),
      createRequest(t.db, { studentId: student.user.id, subjectId: subject.id, status: 'pending' }),
      createRequest(t.db, { studentId: student.user.id, subjectId: subject.id }),
      createRequest(t.db, { studentId: student.user.id, subjectId: subject.id, status: 'accepted' }),
    ]);
    for (const request of [old, oldPending, oldAccepted]) await moveBack(request.id, 49);
    await moveBack(young.id, 47);

    expect(await runJobOnce({ db: t.db, job: requestExpiryJob })).toBe(true);
    expect(await statusOf(old.id)).toBe('closed');
    expect(await statusOf(oldPending.id)).toBe('closed');
    expect(await statusOf(young.id)).toBe('open');
    expect(await statusOf(oldAccepted.id)).toBe('accepted');

    // The student finds it in the Expired tab; teachers no longer see it.
    const expired = await call(t, student, 'GET', '/api/requests/mine?status=expired');
    expect(expired.json().requests.map((r: { id: string }) => r.id)).toEqual(
      expect.arrayContaining([old.id, oldPending.id, oldAccepted.id]),
    );
    const jobs = await call(t, await signedInTeacher(t, [subject.id]), 'GET', '/api/jobs');
    expect(jobs.json().jobs.map((j: { id: string }) => j.id)).toEqual([young.id]);
  });

  it('runs at start with the app, every minute after', () => {
    expect(requestExpiryJob.intervalMs).toBe(60_000);
  });
});
