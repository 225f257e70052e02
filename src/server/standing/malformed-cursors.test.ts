import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSubject } from '../../../tests/support/factories.ts';
import { call, signedInStudent, signedInTeacher, type Caller } from '../../../tests/support/callers.ts';
import { createTestApp, type TestApp } from '../../../tests/support/test-app.ts';

// Page cursors (and the old base64 form of the requests' ones) that pass a loose pattern but are no id or no time: refused as a bad request, never a server error.
const requestCursor = (time: string, id: string) => Buffer.from(JSON.stringify([time, id])).toString('base64url');
const dashes = '-'.repeat(36);

describe('malformed page cursors', () => {
  let t: TestApp;
  let student: Caller;
  let teacher: Caller;
  beforeAll(async () => {
    t = await createTestApp();
    const subject = await createSubject(t.db);
    student = await signedInStudent(t);
    teacher = await signedInTeacher(t, [subject.id]);
  });
  afterAll(async () => t.close());

  it.each([
    ['/api/chat/rooms?cursor=', `1_${dashes}`],
    ['/api/chat/rooms?cursor=', `1_${'f'.repeat(36)}`],
    [`/api/chat/rooms/${randomUUID()}/messages?before=`, `1_${dashes}`],
    ['/api/requests/mine?cursor=', `1_${dashes}`],
  ])('chat %s%s answers 400', async (path, cursor) => {
    expect((await call(t, student, 'GET', `${path}${cursor}`)).statusCode).toBe(400);
  });

  it.each([
    ['2026-01-01T00:00:00.000000Z', dashes],
    ['2026-02-30T00:00:00.000000Z', randomUUID()],
    ['2026-99-99T99:99:99.000000Z', randomUUID()],
    ['0000-01-01T00:00:00.000000Z', randomUUID()],
  ])('requests and jobs cursor [%s, %s] answers 400', async (time, id) => {
    const cursor = requestCursor(time, id);
    expect((await call(t, student, 'GET', `/api/requests/mine?cursor=${cursor}`)).statusCode).toBe(400);
    expect((await call(t, teacher, 'GET', `/api/jobs?cursor=${cursor}`)).statusCode).toBe(400);
  });

  it('still takes a well-formed cursor', async () => {
    const cursor = `1_${randomUUID()}`;
    expect((await call(t, teacher, 'GET', `/api/jobs?cursor=${cursor}`)).statusCode).toBe(200);
    expect((await call(t, student, 'GET', `/api/requests/mine?cursor=${cursor}`)).statusCode).toBe(200);
    expect((await call(t, student, 'GET', `/api/chat/rooms?cursor=1_${randomUUID()}`)).statusCode).toBe(200);
  });
});
