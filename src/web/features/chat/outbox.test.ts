import { describe, expect, it } from 'vitest';
import type { ChatMessage, SendMessageInput } from '#shared/schemas/chat.ts';
import { ApiError } from '#web/lib/api.ts';
import { Outbox, type OutboxEntry, type OutboxStore } from './outbox.ts';

const USER = 'user-1';
const noAnswer = () => new ApiError({ status: 0, code: 'NETWORK_ERROR', message: 'No connection' });

/** A store in memory, as IndexedDB would keep it: a copy of each entry by clientId. */
function memoryStore(initial: OutboxEntry[] = []): OutboxStore & { kept: Map<string, OutboxEntry> } {
  const kept = new Map(initial.map((entry) => [entry.input.clientId, entry]));
  return {
    kept,
    load: async (userId) => [...kept.values()].filter((entry) => entry.userId === userId),
    save: async (entry) => void kept.set(entry.input.clientId, structuredClone(entry)),
    remove: async (clientId) => void kept.delete(clientId),
  };
}

/** A server that stores each clientId once, and answers only while `up`. */
function fakeServer() {
  const stored = new Map<string, SendMessageInput>();
  const calls: string[] = [];
  const server = {
    up: true,
    stored,
    calls,
    refuse: new Set<string>(),
    send: async (input: SendMessageInput) => {
      calls.push(input.content);
      await Promise.resolve();
      if (!server.up) throw noAnswer();
      if (server.refuse.has(input.content)) throw new ApiError({ status: 400, code: 'BAD', message: 'Refused' });
      if (!stored.has(input.clientId)) stored.set(input.clientId, input);
      return { id: input.clientId, clientId: input.clientId, content: input.content } as unknown as ChatMessage;
    },
  };
  return server;
}

function makeOutbox(store: OutboxStore, server: ReturnType<typeof fakeServer>, online = () => true) {
  const failed: string[] = [];
  const outbox = new Outbox({
    userId: USER,
    store,
    send: server.send,
    isOnline: online,
    onStored: () => {},
    onFailed: (entry) => failed.push(entry.input.content),
  });
  return { outbox, failed };
}

const input = (content: string, receiverId = 'partner'): SendMessageInput => ({
  clientId: `id-${content}`,
  receiverId,
  content,
});
const contents = (entries: readonly OutboxEntry[]) => entries.map((entry) => entry.input.content);
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('Outbox', () => {
  it('sends one message at a time, in the order they were written', async () => {
    const server = fakeServer();
    const { outbox } = makeOutbox(memoryStore(), server);
    await Promise.all(['one', 'two', 'three'].map((text) => outbox.enqueue(input(text))));
    expect(server.calls).toEqual(['one', 'two', 'three']);
    expect([...server.stored.values()].map((message) => message.content)).toEqual(['one', 'two', 'three']);
    expect(outbox.current).toEqual([]);
  });

  it('keeps what is written offline on the device, waiting, and sends it in order once back online', async () => {
    const server = fakeServer();
    const store = memoryStore();
    let online = false;
    const { outbox } = makeOutbox(store, server, () => online);
    for (const text of ['first', 'second', 'third']) void outbox.enqueue(input(text));
    await settle();
    expect(server.calls).toEqual([]);
    expect(outbox.current.map((entry) => entry.status)).toEqual(['waiting', 'waiting', 'waiting']);
    expect(contents([...store.kept.values()].toSorted((a, b) => a.order - b.order))).toEqual([
      'first',
      'second',
      'third',
    ]);

    online = true;
    await outbox.resume();
    expect(server.calls).toEqual(['first', 'second', 'third']);
    expect(store.kept.size).toBe(0);
  });

  it('stops at a message nobody answered and keeps those behind it in line', async () => {
    const server = fakeServer();
    server.up = false;
    const { outbox } = makeOutbox(memoryStore(), server);
    void outbox.enqueue(input('a'));
    void outbox.enqueue(input('b'));
    await settle();
    expect(server.calls).toEqual(['a']);
    expect(outbox.current.map((entry) => [entry.input.content, entry.status])).toEqual([
      ['a', 'waiting'],
      ['b', 'waiting'],
    ]);
    server.up = true;
    await outbox.resume();
    expect(server.calls).toEqual(['a', 'a', 'b']);
    // Sent twice under one clientId, stored once.
    expect(server.stored.size).toBe(2);
  });

  it('after a reload, sends what was kept, oldest first, before what is written since, each stored once', async () => {
    const server = fakeServer();
    const store = memoryStore();
    const before = makeOutbox(store, server, () => false).outbox;
    void before.enqueue(input('kept 1'));
    void before.enqueue(input('kept 2'));
    await settle();
    // Another person's entries on the same device are not this outbox's.
    await store.save({ ...before.current[0]!, userId: 'someone-else', input: input('not mine') });

    const { outbox } = makeOutbox(store, server);
    const restoring = outbox.restore();
    await restoring;
    await outbox.enqueue(input('new'));
    expect(server.calls).toEqual(['kept 1', 'kept 2', 'new']);
    expect(contents([...store.kept.values()])).toEqual(['not mine']);
  });

  it('marks a refused message failed for Retry, goes on with the next, and sends it again on Retry', async () => {
    const server = fakeServer();
    server.refuse.add('bad');
    const store = memoryStore();
    const { outbox, failed } = makeOutbox(store, server);
    void outbox.enqueue(input('bad'));
    await outbox.enqueue(input('good'));
    expect(failed).toEqual(['bad']);
    expect(outbox.current.map((entry) => [entry.input.content, entry.status])).toEqual([['bad', 'failed']]);
    expect(store.kept.get('id-bad')?.status).toBe('failed');

    server.refuse.clear();
    await outbox.retry('id-bad');
    expect(outbox.current).toEqual([]);
    expect(server.calls).toEqual(['bad', 'good', 'bad']);
  });

  it('answers a moderation refusal as blocked and keeps nothing of a quiet send', async () => {
    const server = fakeServer();
    const blocked = new ApiError({ status: 422, code: 'MESSAGE_BLOCKED', message: 'No phone numbers' });
    const store = memoryStore();
    const { outbox } = makeOutbox(store, { ...server, send: () => Promise.reject(blocked) });
    expect(await outbox.enqueue(input('call me'), { quiet: true })).toEqual({ blocked });
    expect(store.kept.size).toBe(0);
    expect(outbox.current).toEqual([]);
  });
});
