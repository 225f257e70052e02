import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AI_USER_ID } from '#shared/constants.ts';
import type { ChatMessage } from '#shared/schemas/chat.ts';
import { guruMessages, guruReplySchema, type GuruReply } from '#shared/schemas/guru.ts';
import { messages } from '../../db/schema/chat.ts';
import { TINY_PNG, formData } from '../../../../tests/support/files.ts';
import { createSessionCookie, createUser } from '../../../../tests/support/factories.ts';
import type { TestSocket } from '../../../../tests/support/socket-client.ts';
import { createListeningTestApp, createTestAppBeside } from '../../../../tests/support/test-app.ts';
import { CANNOT_SOLVE_OFFLINE } from './assistant.ts';
import { EXPERT_HELP_MARKER, TUTOR_SYSTEM_PROMPT } from './model-server.ts';
import { LINK_REMOVED } from '#shared/rules/moderation.ts';

// Guru AI with a model server: a small chat-completions server speaking the OpenAI streaming protocol, started here.

/**
 * hold: the answer starts only when the test releases it (the stream is kept alive meanwhile); trickle: a piece every
 * 50 ms, never ending, until the client goes away.
 */
type Behaviour = 'stream' | 'fail' | 'stall' | 'hold' | 'trickle';
type Received = { headers: IncomingMessage['headers']; body: Record<string, unknown> };

const STREAMED_PIECES = ['Subtract 3 from both sides: ', '$2x = 4$', ', so $x = 2$.', `\n${EXPERT_HELP_MARKER}`];

function startModelServer() {
  const state = {
    behaviour: 'stream' as Behaviour,
    pieces: STREAMED_PIECES,
    received: [] as Received[],
    held: [] as (() => void)[],
    /** Trickling answers whose client went away. */
    tricklesEnded: 0,
  };
  /** One event per piece, written apart so that they reach the student as separate pieces. */
  const stream = (response: ServerResponse) => {
    const pieces = [...state.pieces];
    const next = () => {
      const piece = pieces.shift();
      if (piece === undefined) {
        response.end('data: [DONE]\n\n');
        return;
      }
      const event = { id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: piece } }] };
      response.write(`data: ${JSON.stringify(event)}\n\n`);
      setTimeout(next, 20);
    };
    next();
  };
  const trickle = (response: ServerResponse) => {
    const event = { id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: 'and so ' } }] };
    const pieces = setInterval(() => response.write(`data: ${JSON.stringify(event)}\n\n`), 50);
    response.on('close', () => {
      clearInterval(pieces);
      state.tricklesEnded += 1;
    });
  };
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    request.on('end', () => {
      state.received.push({ headers: request.headers, body: JSON.parse(raw) as Record<string, unknown> });
      if (request.url !== '/v1/chat/completions') return response.writeHead(404).end();
      if (state.behaviour === 'fail') {
        return response.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"overloaded"}');
      }
      if (state.behaviour === 'stall') return; // never answers: the client's timeout must end it
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      if (state.behaviour === 'trickle') return trickle(response);
      if (state.behaviour !== 'hold') return stream(response);
      const keepAlive = setInterval(() => response.write(': thinking\n\n'), 100);
      state.held.push(() => {
        clearInterval(keepAlive);
        stream(response);
      });
    });
  });
  return new Promise<{ state: typeof state; url: string; close: () => Promise<void> }>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        state,
        url: `http://127.0.0.1:${port}/v1`,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

/** A server asking the model server, listening for the students' sockets. */
const startGuruApp = (modelUrl: string, timeoutSeconds: string) =>
  createListeningTestApp({
    AI_BASE_URL: modelUrl,
    AI_API_KEY: 'sk-test-key',
    AI_MODEL: 'tutor-model',
    AI_TIMEOUT_SECONDS: timeoutSeconds,
  });
type GuruApp = Awaited<ReturnType<typeof startGuruApp>>;

describe('Guru AI with an OpenAI-compatible model server', () => {
  let model: Awaited<ReturnType<typeof startModelServer>>;
  /** Its timeout outlasts any answer a test holds back. */
  let t: GuruApp;
  /** Its timeout, 0.5 s, ends the answers of a model that stays silent or writes on. */
  let quick: GuruApp;

  beforeAll(async () => {
    model = await startModelServer();
    t = await startGuruApp(model.url, '60');
    quick = await startGuruApp(model.url, '0.5');
  });
  afterAll(async () => {
    await Promise.all([t.close(), quick.close()]);
    await model.close();
  });
  beforeEach(() => {
    model.state.behaviour = 'stream';
    model.state.pieces = STREAMED_PIECES;
    model.state.received.length = 0;
    model.state.tricklesEnded = 0;
  });
  afterEach(() => {
    for (const release of model.state.held.splice(0)) release();
  });

  const student = async (on = t) => {
    const user = await createUser(on.db, { role: 'student' });
    const cookie = (await createSessionCookie(on.db, user.id)).header;
    return { user, cookie, socket: await on.connect(cookie) };
  };
  const ask = (
    cookie: string,
    content: string,
    attachment?: { fileKey: string },
    clientId = randomUUID(),
    on: GuruApp = t,
  ) =>
    on.app.inject({
      method: 'POST',
      url: '/api/chat/messages',
      payload: { clientId, receiverId: AI_USER_ID, content, ...(attachment ? { attachment } : {}) },
      headers: { cookie },
    });
  const messagesBetween = (senderId: string, receiverId: string) =>
    t.db.$count(messages, and(eq(messages.senderId, senderId), eq(messages.receiverId, receiverId)));
  /** The pieces streamed and the stored reply of the next answer on this socket. */
  const nextAnswer = (socket: TestSocket) =>
    new Promise<{ deltas: string[]; content: GuruReply; deltasBeforeReply: number }>((resolve, reject) => {
      const deltas: string[] = [];
      // An answer after a failed model call comes from the offline engine, which a busy machine may take a while to
      // start: the bound only ends a test whose reply never comes.
      const timer = setTimeout(() => reject(new Error('No Guru AI reply within 20 s')), 20_000);
      const onDelta = ({ text }: { text: string }) => deltas.push(text);
      const onMessage = (message: ChatMessage) => {
        if (message.senderId !== AI_USER_ID) return;
        clearTimeout(timer);
        socket.off('guru:delta', onDelta);
        socket.off('message:new', onMessage);
        const content = guruReplySchema.parse(JSON.parse(message.content));
        resolve({ deltas, content, deltasBeforeReply: deltas.length });
      };
      socket.on('guru:delta', onDelta);
      socket.on('message:new', onMessage);
    });

  it('streams the reply over the socket, then stores it with the actions the model asked for', async () => {
    const { cookie, socket } = await student();
    const answer = nextAnswer(socket);
    expect((await ask(cookie, 'solve 2x + 3 = 7')).statusCode).toBe(201);
    const { deltas, content } = await answer;
    expect(deltas.length).toBeGreaterThanOrEqual(3);
    // The marker is never shown: it becomes the actions.
    expect(deltas.join('')).toBe('Subtract 3 from both sides: $2x = 4$, so $x = 2$.\n');
    expect(content).toEqual({
      reply: 'Subtract 3 from both sides: $2x = 4$, so $x = 2$.',
      actionType: 'expert_help',
      input: 'solve 2x + 3 = 7',
    });

    const [request] = model.state.received;
    expect(request?.headers.authorization).toBe('Bearer sk-test-key');
    expect(request?.body).toMatchObject({ model: 'tutor-model', stream: true, max_tokens: 1_500 });
    const [system, user] = request?.body.messages as { role: string; content: unknown }[];
    expect(system).toEqual({
      role: 'system',
      content: `${TUTOR_SYSTEM_PROMPT} The student's message looks like a mathematics question.`,
    });
    expect(user).toEqual({ role: 'user', content: 'solve 2x + 3 = 7' });
  });

  it('sends a photo as a data URL beside the text', async () => {
    const { cookie, socket } = await student();
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/api/chat/uploads',
      payload: formData({}, { field: 'file', bytes: TINY_PNG, filename: 'homework.png', type: 'image/png' }),
      headers: { cookie },
    });
    expect(uploaded.statusCode).toBe(201);
    const answer = nextAnswer(socket);
    await ask(cookie, 'what does this say?', { fileKey: uploaded.json().fileKey });
    await answer;
    const [, user] = model.state.received[0]?.body.messages as { role: string; content: unknown }[];
    expect(user).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'what does this say?' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${Buffer.from(TINY_PNG).toString('base64')}` } },
      ],
    });
  });

  it('answers offline when the model server fails with a 500', async () => {
    model.state.behaviour = 'fail';
    const { cookie, socket } = await student();
    const answer = nextAnswer(socket);
    await ask(cookie, 'solve 2x + 3 = 7');
    const { content } = await answer;
    expect(model.state.received).toHaveLength(1);
    expect(content.actionType).toBe('none');
    expect(content.reply).toContain('**Answer:** x = 2');
  });

  /** Asks a question the offline engine cannot solve of a model that goes on past the quick server's timeout. */
  async function askPastTheTimeout(behaviour: Behaviour) {
    model.state.behaviour = behaviour;
    const { cookie, socket } = await student(quick);
    const answer = nextAnswer(socket);
    const started = Date.now();
    await ask(cookie, 'Who painted the Mona Lisa?', undefined, undefined, quick);
    const { deltas, content } = await answer;
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
    expect(content).toEqual({
      reply: CANNOT_SOLVE_OFFLINE,
      actionType: 'expert_help',
      input: 'Who painted the Mona Lisa?',
    });
    return { cookie, socket, deltas };
  }

  it('answers offline when the model server does not answer in time', async () => {
    await askPastTheTimeout('stall');
  });

  it('ends an answer still streaming at the timeout and answers offline, within the student’s turn', async () => {
    const { cookie, socket, deltas } = await askPastTheTimeout('trickle');
    // Pieces kept coming faster than the timeout: only the deadline of the whole answer ended it.
    expect(deltas.length).toBeGreaterThan(1);
    await expect.poll(() => model.state.tricklesEnded).toBe(1);
    model.state.behaviour = 'stream';
    const next = nextAnswer(socket);
    expect((await ask(cookie, 'solve 2x + 3 = 7', undefined, undefined, quick)).statusCode).toBe(201);
    expect((await next).content.reply).toBe('Subtract 3 from both sides: $2x = 4$, so $x = 2$.');
  });

  it('gives the model the earlier turns of the conversation, oldest first', async () => {
    const { cookie, socket } = await student();
    let answer = nextAnswer(socket);
    await ask(cookie, 'I am in grade 10. solve 2x + 3 = 7');
    await answer;
    answer = nextAnswer(socket);
    await ask(cookie, 'and 2x + 3 = 9?');
    await answer;
    const second = model.state.received[1]?.body.messages as { role: string; content: unknown }[];
    expect(second.slice(1)).toEqual([
      { role: 'user', content: 'I am in grade 10. solve 2x + 3 = 7' },
      { role: 'assistant', content: 'Subtract 3 from both sides: $2x = 4$, so $x = 2$.' },
      { role: 'user', content: 'and 2x + 3 = 9?' },
    ]);
  });

  it('answers one question of each student at a time, and says so when Guru AI is busy', async () => {
    model.state.behaviour = 'hold';
    const first = await student();
    const answer = nextAnswer(first.socket);
    const clientId = randomUUID();
    expect((await ask(first.cookie, 'solve 2x + 3 = 7', undefined, clientId)).statusCode).toBe(201);
    await expect.poll(() => model.state.held.length).toBe(1);

    const again = await ask(first.cookie, 'and 2x + 3 = 9?');
    expect(again.statusCode).toBe(429);
    expect(again.json().message).toBe(guruMessages.oneAtATime);
    // A retry of the question being answered is the stored question, not a refusal.
    const retried = await ask(first.cookie, 'solve 2x + 3 = 7', undefined, clientId);
    expect(retried.statusCode).toBe(200);

    // The others are taken meanwhile, up to the bound; beyond it a student is told Guru AI is busy.
    const others = await Promise.all(Array.from({ length: 9 }, () => student()));
    const answersToOthers = others.map((other) => nextAnswer(other.socket));
    for (const other of others) expect((await ask(other.cookie, 'solve x + 1 = 2')).statusCode).toBe(201);
    const late = await student();
    const busy = await ask(late.cookie, 'solve x + 1 = 2');
    expect(busy.statusCode).toBe(503);
    expect(busy.json().message).toBe(guruMessages.busy);
    expect(await messagesBetween(first.user.id, AI_USER_ID)).toBe(1);
    expect(await messagesBetween(late.user.id, AI_USER_ID)).toBe(0);

    for (const release of model.state.held.splice(0)) release();
    await answer;
    model.state.behaviour = 'stream';
    const nextOfFirst = nextAnswer(first.socket);
    expect((await ask(first.cookie, 'and 2x + 3 = 9?')).statusCode).toBe(201);
    // Every model request this test made ends within it, so that none reaches the model server during a later test.
    await Promise.all([nextOfFirst, ...answersToOthers]);
  });

  it('refuses a student’s second question on another server while the first is answered, and takes a retry as one', async () => {
    model.state.behaviour = 'hold';
    const other = await createTestAppBeside(t);
    try {
      const first = await student();
      const answer = nextAnswer(first.socket);
      const clientId = randomUUID();
      expect((await ask(first.cookie, 'solve 2x + 3 = 7', undefined, clientId)).statusCode).toBe(201);
      await expect.poll(() => model.state.held.length).toBe(1);

      const askOther = (content: string, questionId = randomUUID()) =>
        other.app.inject({
          method: 'POST',
          url: '/api/chat/messages',
          payload: { clientId: questionId, receiverId: AI_USER_ID, content },
          headers: { cookie: first.cookie },
        });
      const refused = await askOther('and 2x + 3 = 9?');
      expect(refused.statusCode).toBe(429);
      expect(refused.json().message).toBe(guruMessages.oneAtATime);
      const retried = await askOther('solve 2x + 3 = 7', clientId);
      expect(retried.statusCode).toBe(200);
      expect(retried.json<ChatMessage>().clientId).toBe(clientId);

      for (const release of model.state.held.splice(0)) release();
      await answer;
      model.state.behaviour = 'stream';
      expect((await askOther('and 2x + 3 = 9?')).statusCode).toBe(201);
      // The other server answers it, to a socket this test has not opened: its stored reply tells that it ended.
      await expect.poll(() => messagesBetween(AI_USER_ID, first.user.id), { timeout: 20_000 }).toBe(2);
    } finally {
      await other.close();
    }
  });

  it("keeps everyone's link rule in what the model writes, streamed and stored", async () => {
    model.state.pieces = ['For more, see https://cheat.example/answers', ' or www.essays.example', ' today.\n'];
    const { cookie, socket } = await student();
    const answer = nextAnswer(socket);
    await ask(cookie, 'where can I find the answers?');
    const { deltas, content } = await answer;
    for (const text of [deltas.join(''), content.reply]) {
      expect(text).not.toMatch(/cheat|essays/);
      expect(text).toContain(`see ${LINK_REMOVED} or ${LINK_REMOVED} today.`);
    }
  });

  it('keeps at most 8,000 characters of a model that writes on past max_tokens', async () => {
    model.state.pieces = Array.from({ length: 40 }, () => `${'word '.repeat(100)}\n`);
    const { cookie, socket } = await student();
    const answer = nextAnswer(socket);
    await ask(cookie, 'tell me everything');
    const { deltas, content } = await answer;
    expect(content.reply.length).toBeLessThanOrEqual(8_000);
    expect(content.reply.length).toBeGreaterThan(7_000);
    expect(deltas.join('').length).toBeLessThanOrEqual(8_000);
  });
});
