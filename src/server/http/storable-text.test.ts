import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../db/schema/chat.ts';
import { tutoringRequests } from '../db/schema/requests.ts';
import { createSubject, createUser } from '../../../tests/support/factories.ts';
import { call, signedInStudent, signedInTeacher } from '../../../tests/support/callers.ts';
import { createListeningTestApp, type ListeningTestApp } from '../../../tests/support/test-app.ts';

// PostgreSQL text cannot hold U+0000: such input is refused as invalid, by every way in, before a query sees it.

const NUL = '\u0000';
const refusal = (field: string) => ({
  code: 'VALIDATION_FAILED',
  message: 'This text contains a character that cannot be saved.',
  fields: { [field]: 'This text contains a character that cannot be saved.' },
});

describe('text holding a NUL character', () => {
  let t: ListeningTestApp;
  let subjectId: string;
  beforeAll(async () => {
    t = await createListeningTestApp();
    subjectId = (await createSubject(t.db)).id;
  });
  afterAll(() => t.close());

  it('is refused in a JSON body with 400 naming the field, where it used to fail at the database', async () => {
    const tutor = await signedInTeacher(t, [subjectId]);
    const response = await call(t, tutor, 'POST', `/api/reviews/${randomUUID()}/reply`, { body: NUL });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(refusal('body'));

    const student = await signedInStudent(t);
    const receiver = await createUser(t.db);
    const message = { clientId: randomUUID(), receiverId: receiver.id, content: `hello${NUL}` };
    const sent = await call(t, student, 'POST', '/api/chat/messages', message);
    expect(sent.statusCode).toBe(400);
    expect(sent.json()).toEqual(refusal('content'));
    expect(await t.db.$count(messages, eq(messages.senderId, student.user.id))).toBe(0);
  });

  it('is refused in a multipart form field, and nothing is posted', async () => {
    const student = await signedInStudent(t);
    const form = new FormData();
    const fields = {
      type: 'tutoring',
      subjectId,
      description: `Quadratic equations${NUL}`,
      budgetMinCents: 800,
      budgetMaxCents: 1500,
    };
    for (const [key, value] of Object.entries(fields)) form.append(key, String(value));
    const response = await fetch(`${t.url}/api/requests`, {
      method: 'POST',
      headers: { cookie: student.cookie },
      body: form,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(refusal('description'));
    expect(await t.db.$count(tutoringRequests, eq(tutoringRequests.studentId, student.user.id))).toBe(0);
  });

  it('is looked for in any nesting without failing, and leaves pages alone', async () => {
    const deep = `{"email":${'['.repeat(50_000)}"a\\u0000"${']'.repeat(50_000)},"password":"secret123"}`;
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { 'content-type': 'application/json' },
      payload: deep,
    });
    expect(signIn.statusCode).toBe(400);
    expect(signIn.json().code).toBe('VALIDATION_FAILED');
    const page = await call(t, undefined, 'GET', '/about?ref=%00');
    expect(page.statusCode).not.toBe(400);
  });

  it('is refused in a query string', async () => {
    const response = await call(t, undefined, 'GET', '/api/accounts/availability?email=someone%00%40example.com');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(refusal('email'));
  });

  it('is refused in a message sent over the socket, and nothing is stored', async () => {
    const student = await signedInStudent(t);
    const receiver = await createUser(t.db);
    const socket = await t.connect(student.cookie);
    const ack = await socket
      .timeout(5_000)
      .emitWithAck('message:send', { clientId: randomUUID(), receiverId: receiver.id, content: NUL });
    expect(ack).toEqual({ ok: false, ...refusal('content') });
    expect(await t.db.$count(messages, eq(messages.senderId, student.user.id))).toBe(0);
  });
});
