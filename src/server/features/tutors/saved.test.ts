import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema/auth.ts';
import { savedTutors } from '../../db/schema/tutors.ts';
import { AI_USER_ID } from '#shared/constants.ts';
import { createSubject, createTeacher } from '../../../../tests/support/factories.ts';
import { call, signedInStudent, signedInTeacher } from '../../../../tests/support/callers.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';

describe('saved tutors', () => {
  let t: TestApp;
  let subjectId: string;
  beforeAll(async () => {
    t = await createTestApp();
    subjectId = (await createSubject(t.db)).id;
  });
  afterAll(() => t.close());

  const tutors = (count: number) =>
    Promise.all(Array.from({ length: count }, () => createTeacher(t.db, { subjectIds: [subjectId] })));

  it('are kept per student: saved, listed latest first in keyset pages without gaps or repeats, and forgotten', async () => {
    const [alice, bob] = [await signedInStudent(t), await signedInStudent(t)];
    const saved = await tutors(23);
    for (const tutor of saved) {
      expect((await call(t, alice, 'PUT', `/api/tutors/${tutor.id}/saved`)).statusCode).toBe(204);
    }
    // Saving again keeps one row.
    expect((await call(t, alice, 'PUT', `/api/tutors/${saved[0]!.id}/saved`)).statusCode).toBe(204);
    await call(t, bob, 'PUT', `/api/tutors/${saved[5]!.id}/saved`);

    const first = (await call(t, alice, 'GET', '/api/tutors/saved')).json();
    expect(first.tutors).toHaveLength(20);
    // A tutor saved between two pages goes first and shifts nothing of the next page.
    const [late] = await tutors(1);
    await call(t, alice, 'PUT', `/api/tutors/${late!.id}/saved`);
    const second = (await call(t, alice, 'GET', `/api/tutors/saved?cursor=${first.nextCursor}`)).json();
    expect(second.nextCursor).toBeNull();
    const listed = [...first.tutors, ...second.tutors].map((tutor: { id: string }) => tutor.id);
    expect(listed).toEqual(saved.map((tutor) => tutor.id).reverse());
    expect(first.tutors[0]).toMatchObject({ username: saved.at(-1)!.username, subjects: expect.any(Array) });
    expect(first.tutors[0]).not.toHaveProperty('email');

    const bobs = (await call(t, bob, 'GET', '/api/tutors/saved')).json();
    expect(bobs.tutors.map((tutor: { id: string }) => tutor.id)).toEqual([saved[5]!.id]);
    const ids = (await call(t, bob, 'GET', '/api/tutors/saved/ids')).json();
    expect(ids).toEqual({ tutorIds: [saved[5]!.id] });

    // Forgetting is per student too, and twice is harmless.
    expect((await call(t, bob, 'DELETE', `/api/tutors/${saved[5]!.id}/saved`)).statusCode).toBe(204);
    expect((await call(t, bob, 'DELETE', `/api/tutors/${saved[5]!.id}/saved`)).statusCode).toBe(204);
    expect((await call(t, bob, 'GET', '/api/tutors/saved')).json()).toEqual({ tutors: [], nextCursor: null });
    expect((await call(t, alice, 'GET', '/api/tutors/saved/ids')).json().tutorIds).toContain(saved[5]!.id);
  });

  it('only tutors one can see: a student, the assistant, a suspended or leaving tutor or no one is 404, nothing written', async () => {
    const student = await signedInStudent(t);
    const other = await signedInStudent(t);
    const [suspended] = await tutors(1);
    await t.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, suspended!.id));
    const [leaving] = await tutors(1);
    await t.db.update(users).set({ deletionRequestedAt: new Date() }).where(eq(users.id, leaving!.id));
    for (const id of [other.user.id, AI_USER_ID, suspended!.id, leaving!.id, crypto.randomUUID()]) {
      expect((await call(t, student, 'PUT', `/api/tutors/${id}/saved`)).statusCode).toBe(404);
    }
    expect((await call(t, student, 'PUT', '/api/tutors/nobody/saved')).statusCode).toBe(400);
    expect(await t.db.select().from(savedTutors).where(eq(savedTutors.studentId, student.user.id))).toEqual([]);

    // A tutor suspended after being saved is left out of the list while suspended.
    const [later] = await tutors(1);
    await call(t, student, 'PUT', `/api/tutors/${later!.id}/saved`);
    await t.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, later!.id));
    expect((await call(t, student, 'GET', '/api/tutors/saved')).json().tutors).toEqual([]);
  });

  it('are for students: signed out 401, a teacher 403', async () => {
    const [tutor] = await tutors(1);
    const teacher = await signedInTeacher(t, [subjectId]);
    expect((await call(t, undefined, 'GET', '/api/tutors/saved')).statusCode).toBe(401);
    expect((await call(t, undefined, 'PUT', `/api/tutors/${tutor!.id}/saved`)).statusCode).toBe(401);
    expect((await call(t, teacher, 'PUT', `/api/tutors/${tutor!.id}/saved`)).statusCode).toBe(403);
    expect((await call(t, teacher, 'GET', '/api/tutors/saved/ids')).statusCode).toBe(403);
  });
});
