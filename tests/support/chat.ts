import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { ServerToClientEvents } from '#shared/realtime-events.ts';
import { messages } from '../../src/server/db/schema/chat.ts';
import { createSessionCookie, createUser } from './factories.ts';
import { formData } from './files.ts';
import type { TestSocket } from './socket-client.ts';
import type { ListeningTestApp } from './test-app.ts';
import { fromNow, HOUR_MS } from './time.ts';

// The calls the chat's tests make, on the app of their suite.

export type Method = 'GET' | 'POST';
export type Person = Awaited<ReturnType<typeof createUser>> & { cookie: string };

/** Every event of one kind a socket receives, and a way to wait for the first one that matches. */
export function recorder<E extends keyof ServerToClientEvents>(socket: TestSocket, event: E) {
  const seen: Array<Parameters<ServerToClientEvents[E]>[0]> = [];
  socket.on(event, ((payload: Parameters<ServerToClientEvents[E]>[0]) => seen.push(payload)) as never);
  return {
    seen,
    async waitFor(match: (payload: Parameters<ServerToClientEvents[E]>[0]) => boolean, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const found = seen.find(match);
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error(`No matching ${event} within ${timeoutMs} ms`);
    },
  };
}

/** People, calls and uploads on the suite's app, which `app` gives once its `beforeAll` has made it. */
export function chatCalls(app: () => ListeningTestApp) {
  const person = async (role: 'student' | 'teacher' = 'student'): Promise<Person> => {
    const user = await createUser(app().db, { role });
    return { ...user, cookie: (await createSessionCookie(app().db, user.id)).header };
  };
  const call = (who: Person | null, method: Method, path: string, payload?: object) =>
    app().app.inject({ method, url: path, payload: payload as object, headers: who ? { cookie: who.cookie } : {} });
  const send = (from: Person, to: { id: string }, content: string, extra: object = {}) =>
    call(from, 'POST', '/api/chat/messages', { clientId: randomUUID(), receiverId: to.id, content, ...extra });
  const socketOf = (who: Person) => app().connect(who.cookie);
  const upload = (who: Person | null, file: { bytes: Uint8Array; filename: string; type: string }) =>
    app().app.inject({
      method: 'POST',
      url: '/api/chat/uploads',
      payload: formData({}, { field: 'file', ...file }),
      headers: who ? { cookie: who.cookie } : {},
    });
  const countMessages = (roomId: string) => app().db.$count(messages, eq(messages.roomId, roomId));
  const inAnHour = () => fromNow(HOUR_MS).toISOString();
  return { person, call, send, socketOf, upload, countMessages, inAnHour };
}
