import { randomUUID } from 'node:crypto';
import { and, eq, or } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AI_USER_ID } from '#shared/constants.ts';
import type { ChatMessage } from '#shared/schemas/chat.ts';
import { guruMessages, guruReplySchema, type GuruReply } from '#shared/schemas/guru.ts';
import { messages } from '../../db/schema/chat.ts';
import { createSessionCookie, createUser } from '../../../../tests/support/factories.ts';
import { connectSocket, nextEvent, type TestSocket } from '../../../../tests/support/socket-client.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { CANNOT_SOLVE_OFFLINE } from './assistant.ts';

type Person = Awaited<ReturnType<typeof createUser>> & { cookie: string };

describe('Guru AI in the chat', () => {
  let t: TestApp;
  let url: string;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await t.close();
  });

  const person = async (role: 'student' | 'teacher' = 'student'): Promise<Person> => {
    const user = await createUser(t.db, { role });
    return { ...user, cookie: (await createSessionCookie(t.db, user.id)).header };
  };
  const ask = (who: Person | null, content: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/chat/messages',
      payload: { clientId: randomUUID(), receiverId: AI_USER_ID, content },
      headers: who ? { cookie: who.cookie } : {},
    });
  const socketOf = async (who: Person) => {
    const socket = await connectSocket(url, { cookie: who.cookie });
    sockets.push(socket);
    return socket;
  };
  /** The next Guru AI reply on the socket (listening from the call on), its stored structured content parsed. */
  const nextReply = (socket: TestSocket) =>
    new Promise<{ message: ChatMessage; content: GuruReply }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('No Guru AI reply within 5000 ms')), 5_000);
      const onMessage = (message: ChatMessage) => {
        if (message.senderId !== AI_USER_ID) return;
        clearTimeout(timer);
        socket.off('message:new', onMessage);
        resolve({ message, content: guruReplySchema.parse(JSON.parse(message.content)) });
      };
      socket.on('message:new', onMessage);
    });
  const conversationSize = (userId: string) =>
    t.db.$count(
      messages,
      or(
        and(eq(messages.senderId, userId), eq(messages.receiverId, AI_USER_ID)),
        and(eq(messages.senderId, AI_USER_ID), eq(messages.receiverId, userId)),
      ),
    );

  it("answers another student's 2+2 while one student sends ten (10^10)! questions", async () => {
    const flooding = await person();
    const other = await person();
    const reply = nextReply(await socketOf(other));
    const flood = await Promise.all(Array.from({ length: 10 }, () => ask(flooding, '(10^10)!')));
    expect((await ask(other, '2+2')).statusCode).toBe(201);
    expect((await reply).content.reply).toContain('**Answer:** 4');
    // Each of the ten was either answered (declined at once, never solved) or refused while another was answered.
    for (const response of flood) {
      if (response.statusCode === 201) continue;
      expect(response.statusCode).toBe(429);
      expect(response.json().message).toBe(guruMessages.oneAtATime);
    }
    const stored = flood.filter((response) => response.statusCode === 201).length;
    await expect.poll(() => conversationSize(flooding.id), { timeout: 10_000 }).toBe(2 * stored);
  });

  it('stores the question, shows typing, and answers a math question offline over the socket', async () => {
    const student = await person();
    const socket = await socketOf(student);
    const typing = nextEvent(socket, 'guru:typing');
    const reply = nextReply(socket);
    const response = await ask(student, 'solve 2x + 3 = 7');
    expect(response.statusCode).toBe(201);
    expect(await typing).toEqual([{ isTyping: true }]);
    const { message, content } = await reply;
    expect(message.receiverId).toBe(student.id);
    expect(content).toMatchObject({ actionType: 'none', input: 'solve 2x + 3 = 7' });
    expect(content.reply).toContain('$$x = 2$$');
    expect(content.reply).toContain('**Answer:** x = 2');
    expect(await conversationSize(student.id)).toBe(2);
  });

  it('declines a question it cannot answer offline, with the two actions', async () => {
    const student = await person();
    const socket = await socketOf(student);
    const reply = nextReply(socket);
    await ask(student, 'Who painted the Mona Lisa?');
    const { content } = await reply;
    expect(content).toEqual({
      reply: CANNOT_SOLVE_OFFLINE,
      actionType: 'expert_help',
      input: 'Who painted the Mona Lisa?',
    });
  });

  it('skips moderation in this conversation', async () => {
    const student = await person();
    expect((await ask(student, 'my number is 0612345678, solve x + 1 = 2')).statusCode).toBe(201);
  });

  it('refuses teachers and signed-out callers, storing nothing', async () => {
    const teacher = await person('teacher');
    const refused = await ask(teacher, 'solve 2x + 3 = 7');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(guruMessages.studentsOnly);
    expect((await ask(null, 'solve 2x + 3 = 7')).statusCode).toBe(401);
    expect(await conversationSize(teacher.id)).toBe(0);
  });

  it('limits questions per student with a friendly message', async () => {
    const student = await person();
    const socket = await socketOf(student);
    // Each question after the last one's answer: one is answered at a time.
    for (let i = 0; i < 20; i += 1) {
      const reply = nextReply(socket);
      expect((await ask(student, `what is ${i} + 1`)).statusCode).toBe(201);
      await reply;
    }
    const limited = await ask(student, 'what is 1 + 1');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toBe(guruMessages.tooManyQuestions);
    const other = await person();
    expect((await ask(other, 'what is 1 + 1')).statusCode).toBe(201);
  });

  it('clears the conversation in both directions, for its own student only', async () => {
    const student = await person();
    const other = await person();
    const socket = await socketOf(student);
    const reply = nextReply(socket);
    await ask(student, 'integrate 3x^2');
    await reply;
    await ask(other, 'what is 2 + 2');
    const clear = (who: Person | null) =>
      t.app.inject({ method: 'DELETE', url: '/api/guru/messages', headers: who ? { cookie: who.cookie } : {} });
    expect((await clear(null)).statusCode).toBe(401);
    expect((await clear(await person('teacher'))).statusCode).toBe(403);
    expect((await clear(student)).statusCode).toBe(204);
    expect(await conversationSize(student.id)).toBe(0);
    expect(await conversationSize(other.id)).toBeGreaterThan(0);
  });

  it('lists the conversation newest page first, for its own student only', async () => {
    const student = await person();
    const other = await person();
    const socket = await socketOf(student);
    const reply = nextReply(socket);
    await ask(student, 'solve 2x + 3 = 7');
    await reply;
    await ask(other, 'what is 2 + 2');
    const list = (who: Person | null, query = '') =>
      t.app.inject({ url: `/api/guru/messages${query}`, headers: who ? { cookie: who.cookie } : {} });

    const page = await list(student);
    expect(page.statusCode).toBe(200);
    const body = page.json<{ messages: ChatMessage[]; nextCursor: string | null }>();
    expect(body.messages.map((m) => [m.senderId, m.receiverId])).toEqual([
      [student.id, AI_USER_ID],
      [AI_USER_ID, student.id],
    ]);
    expect(body.messages[0]?.content).toBe('solve 2x + 3 = 7');

    const first = await list(student, '?limit=1');
    const { messages: newest, nextCursor } = first.json<{ messages: ChatMessage[]; nextCursor: string }>();
    expect(newest.map((m) => m.senderId)).toEqual([AI_USER_ID]);
    const older = await list(student, `?limit=1&before=${encodeURIComponent(nextCursor)}`);
    expect(older.json().messages.map((m: ChatMessage) => m.senderId)).toEqual([student.id]);

    expect((await list(null)).statusCode).toBe(401);
    const teacher = await list(await person('teacher'));
    expect(teacher.statusCode).toBe(403);
    expect(teacher.json().message).toBe(guruMessages.studentsOnly);
    const bad = await list(student, '?before=yesterday');
    expect(bad.statusCode).toBe(400);
    expect((await list(student, '?limit=0')).statusCode).toBe(400);
  });
});
