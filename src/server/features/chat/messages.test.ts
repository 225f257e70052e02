import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage, MessagePage, RoomPage } from '#shared/schemas/chat.ts';
import { chatRooms, messages } from '../../db/schema/chat.ts';
import { chatCalls, recorder, type Person } from '../../../../tests/support/chat.ts';
import { nextEvent, type TestSocket } from '../../../../tests/support/socket-client.ts';
import { createListeningTestApp, type ListeningTestApp } from '../../../../tests/support/test-app.ts';
import { createMessageWriter } from './message-writer.ts';
import { findOrCreateRoom } from './service.ts';

describe('chat', () => {
  let t: ListeningTestApp;

  beforeAll(async () => {
    t = await createListeningTestApp();
  });
  afterAll(() => t.close());

  const { person, call, send, socketOf, countMessages } = chatCalls(() => t);

  describe('live messages and receipts', () => {
    it('lets two users exchange messages live, over HTTP and over the socket', async () => {
      const [alice, bob] = [await person(), await person('teacher')];
      const [aliceSocket, bobSocket] = [await socketOf(alice), await socketOf(bob)];
      const aliceNew = recorder(aliceSocket, 'message:new');
      const bobNew = recorder(bobSocket, 'message:new');
      const bobRooms = recorder(bobSocket, 'room:updated');

      const sent = await send(alice, bob, '  Hello Bob, can you help with calculus?  ');
      expect(sent.statusCode).toBe(201);
      const message: ChatMessage = sent.json();
      expect(message).toMatchObject({
        senderId: alice.id,
        receiverId: bob.id,
        content: 'Hello Bob, can you help with calculus?',
        isDelivered: false,
        isRead: false,
        attachment: null,
        meeting: null,
      });
      expect(await bobNew.waitFor((m) => m.id === message.id)).toEqual(message);
      expect(await aliceNew.waitFor((m) => m.id === message.id)).toEqual(message);
      await bobRooms.waitFor((update) => update.roomId === message.roomId);

      const ack = await bobSocket
        .timeout(5_000)
        .emitWithAck('message:send', { clientId: randomUUID(), receiverId: alice.id, content: 'Sure, at 10:30?' });
      expect(ack).toMatchObject({
        ok: true,
        message: { senderId: bob.id, roomId: message.roomId, content: 'Sure, at 10:30?' },
      });
      const reply = (ack as { message: ChatMessage }).message;
      expect(await aliceNew.waitFor((m) => m.id === reply.id)).toEqual(reply);

      const history: MessagePage = (await call(alice, 'GET', `/api/chat/rooms/${message.roomId}/messages`)).json();
      expect(history.messages.map((m) => m.content)).toEqual([
        'Hello Bob, can you help with calculus?',
        'Sure, at 10:30?',
      ]);
      expect(history.nextCursor).toBeNull();
    });

    it('stores sends that arrive together in their order, each clientId once, and tells both partners that order', async () => {
      const [alice, bob] = [await person(), await person('teacher')];
      const first = (await send(alice, bob, 'Hello')).json<ChatMessage>();
      const [aliceSocket, bobSocket] = [await socketOf(alice), await socketOf(bob)];
      const aliceNew = recorder(aliceSocket, 'message:new');
      const bobNew = recorder(bobSocket, 'message:new');
      const emit = (socket: TestSocket, to: Person, clientId: string, content: string) =>
        socket.timeout(5_000).emitWithAck('message:send', { clientId, receiverId: to.id, content });

      // Both send without waiting for acknowledgements, so their messages share batches; some are sent twice.
      const sends: Array<{ clientId: string; answer: ReturnType<typeof emit> }> = [];
      for (let n = 0; n < 12; n++) {
        const [aliceId, bobId] = [randomUUID(), randomUUID()];
        sends.push({ clientId: aliceId, answer: emit(aliceSocket, bob, aliceId, `Alice ${n}`) });
        sends.push({ clientId: bobId, answer: emit(bobSocket, alice, bobId, `Bob ${n}`) });
        if (n % 4 === 0) sends.push({ clientId: aliceId, answer: emit(aliceSocket, bob, aliceId, `Alice ${n}`) });
      }
      const answers = await Promise.all(sends.map((sent) => sent.answer));
      const idsByClientId = new Map<string, Set<string>>();
      answers.forEach((answer, index) => {
        if (!answer.ok) throw new Error(`send ${index} refused: ${answer.message}`);
        const ids = idsByClientId.get(sends[index]!.clientId) ?? new Set();
        idsByClientId.set(sends[index]!.clientId, ids.add(answer.message.id));
      });
      expect([...idsByClientId.values()].every((ids) => ids.size === 1)).toBe(true);

      const history: MessagePage = (await call(alice, 'GET', `/api/chat/rooms/${first.roomId}/messages`)).json();
      const stored = history.messages.slice(1);
      expect(stored).toHaveLength(24);
      const contentsOf = (sender: Person) => stored.filter((m) => m.senderId === sender.id).map((m) => m.content);
      expect(contentsOf(alice)).toEqual(Array.from({ length: 12 }, (_, n) => `Alice ${n}`));
      expect(contentsOf(bob)).toEqual(Array.from({ length: 12 }, (_, n) => `Bob ${n}`));
      // Each partner is told of each message once, in the stored order (events on one socket keep their order).
      const lastId = stored.at(-1)!.id;
      for (const seen of [aliceNew, bobNew]) {
        await seen.waitFor((m) => m.id === lastId);
        expect(seen.seen.map((m) => m.id)).toEqual(stored.map((m) => m.id));
      }
    });

    it('writes a batch in one statement: new messages, a repeated clientId, and a pair without a room yet', async () => {
      const [alice, bob, carol] = [await person(), await person('teacher'), await person('teacher')];
      await send(alice, bob, 'Hello');
      const writer = createMessageWriter({ pool: t.pool, log: t.app.log });
      const clientId = randomUUID();
      const outcomes = await Promise.all([
        writer.write({ clientId, senderId: alice.id, receiverId: bob.id, content: 'One' }),
        writer.write({ clientId: randomUUID(), senderId: bob.id, receiverId: alice.id, content: 'Two' }),
        writer.write({ clientId, senderId: alice.id, receiverId: bob.id, content: 'One' }),
        writer.write({ clientId: randomUUID(), senderId: alice.id, receiverId: carol.id, content: 'No room' }),
      ]);
      expect(outcomes.map((outcome) => outcome.kind)).toEqual(['stored', 'stored', 'stored-before', 'write-alone']);
    });

    it('lets a client that lost its connection catch up: live again after reconnecting, and the refetch has what it missed', async () => {
      const [alice, bob] = [await person(), await person('teacher')];
      const first = (await send(alice, bob, 'Before the tunnel')).json<ChatMessage>();
      const bobSocket = await socketOf(bob);
      bobSocket.disconnect();
      const missed = [
        (await send(alice, bob, 'While you were away')).json<ChatMessage>(),
        (await send(alice, bob, 'Still there?')).json<ChatMessage>(),
      ];

      const back = await socketOf(bob);
      const live = recorder(back, 'message:new');
      const rooms: RoomPage = (await call(bob, 'GET', '/api/chat/rooms')).json();
      expect(rooms.rooms.find((room) => room.id === first.roomId)).toMatchObject({
        unreadCount: 3,
        lastMessage: { id: missed[1]!.id },
      });
      const history: MessagePage = (await call(bob, 'GET', `/api/chat/rooms/${first.roomId}/messages`)).json();
      expect(history.messages.map((m) => m.id)).toEqual([first.id, ...missed.map((m) => m.id)]);

      const after = (await send(alice, bob, 'Welcome back')).json<ChatMessage>();
      expect(await live.waitFor((m) => m.id === after.id)).toEqual(after);
    });

    it('moves receipts from one check (delivered) to two (read), telling the sender', async () => {
      const [alice, bob] = [await person(), await person()];
      const aliceStatus = recorder(await socketOf(alice), 'message:status');
      const first: ChatMessage = (await send(alice, bob, 'one')).json();
      await send(alice, bob, 'two');
      await send(bob, alice, 'from bob');
      const roomPath = `/api/chat/rooms/${first.roomId}`;

      const bobRooms = (): Promise<RoomPage> => call(bob, 'GET', '/api/chat/rooms').then((r) => r.json());
      expect((await bobRooms()).rooms[0]).toMatchObject({ id: first.roomId, unreadCount: 2 });

      const delivered = await call(bob, 'POST', `${roomPath}/delivered`);
      expect(delivered.statusCode).toBe(200);
      expect(delivered.json()).toMatchObject({ updated: 2 });
      const deliveredUpdate = await aliceStatus.waitFor((s) => s.status === 'delivered');
      expect(deliveredUpdate).toEqual({ roomId: first.roomId, status: 'delivered', upTo: delivered.json().upTo });
      let page: MessagePage = (await call(alice, 'GET', `${roomPath}/messages`)).json();
      expect(page.messages.filter((m) => m.senderId === alice.id).map((m) => [m.isDelivered, m.isRead])).toEqual([
        [true, false],
        [true, false],
      ]);
      expect(page.messages.find((m) => m.senderId === bob.id)).toMatchObject({ isDelivered: false });
      expect((await call(bob, 'POST', `${roomPath}/delivered`)).json()).toEqual({ updated: 0, upTo: null });

      const read = await call(bob, 'POST', `${roomPath}/read`);
      expect(read.json()).toMatchObject({ updated: 2 });
      expect(await aliceStatus.waitFor((s) => s.status === 'read')).toEqual({
        roomId: first.roomId,
        status: 'read',
        upTo: read.json().upTo,
      });
      page = (await call(alice, 'GET', `${roomPath}/messages`)).json();
      expect(page.messages.filter((m) => m.senderId === alice.id).every((m) => m.isDelivered && m.isRead)).toBe(true);
      expect((await bobRooms()).rooms[0]).toMatchObject({ unreadCount: 0 });
      // Alice's own unread message from Bob is untouched by Bob's receipts.
      expect((await call(alice, 'GET', '/api/chat/rooms').then((r) => r.json<RoomPage>())).rooms[0]).toMatchObject({
        unreadCount: 1,
      });
    });
  });

  describe('idempotent sends', () => {
    it('stores a retried send once and answers it with the stored message', async () => {
      const [alice, bob] = [await person(), await person()];
      const bobNew = recorder(await socketOf(bob), 'message:new');
      const body = { clientId: randomUUID(), receiverId: bob.id, content: 'only once' };
      const first = await call(alice, 'POST', '/api/chat/messages', body);
      const retry = await call(alice, 'POST', '/api/chat/messages', body);
      expect([first.statusCode, retry.statusCode]).toEqual([201, 200]);
      expect(retry.json()).toEqual(first.json());
      expect(await countMessages(first.json().roomId)).toBe(1);
      await bobNew.waitFor((m) => m.id === first.json().id);
      // A socket's events arrive in order: once a later message is here, a second copy would have been too.
      const later = (await send(alice, bob, 'after the retry')).json<ChatMessage>();
      await bobNew.waitFor((m) => m.id === later.id);
      expect(bobNew.seen.filter((m) => m.clientId === body.clientId)).toHaveLength(1);
    });

    it('stores one row for concurrent sends with the same clientId over HTTP and the socket', async () => {
      const [alice, bob] = [await person(), await person()];
      const socket = await socketOf(alice);
      const body = { clientId: randomUUID(), receiverId: bob.id, content: 'sent twice at once' };
      const answers = await Promise.all([
        ...Array.from({ length: 3 }, () =>
          call(alice, 'POST', '/api/chat/messages', body).then((r) => r.json<ChatMessage>()),
        ),
        ...Array.from({ length: 3 }, () =>
          socket
            .timeout(5_000)
            .emitWithAck('message:send', body)
            .then((ack) => (ack as { message: ChatMessage }).message),
        ),
      ]);
      expect(new Set(answers.map((m) => m.id)).size).toBe(1);
      expect(await t.db.$count(messages, eq(messages.clientId, body.clientId))).toBe(1);
      expect(await t.db.$count(chatRooms, eq(chatRooms.id, answers[0]!.roomId!))).toBe(1);
    });

    it('refuses another sender’s clientId', async () => {
      const [alice, bob] = [await person(), await person()];
      const body = { clientId: randomUUID(), receiverId: bob.id, content: 'mine' };
      await call(alice, 'POST', '/api/chat/messages', body);
      const stolen = await call(bob, 'POST', '/api/chat/messages', { ...body, receiverId: alice.id });
      expect(stolen.statusCode).toBe(409);
      expect(await t.db.$count(messages, eq(messages.clientId, body.clientId))).toBe(1);
    });
  });

  describe('message history', () => {
    it('pages backwards through 120 messages without gaps or repeats, including messages with the same timestamp', async () => {
      const [alice, bob] = [await person(), await person()];
      const { room } = await findOrCreateRoom({ db: t.db, userAId: alice.id, userBId: bob.id });
      // Groups of three share one created_at, so only the id breaks the tie.
      await t.db.execute(sql`
        insert into messages (client_id, room_id, sender_id, receiver_id, content, created_at)
        select gen_random_uuid(), ${room.id}, ${alice.id}, ${bob.id}, 'message ' || n, timestamptz '2024-03-18T10:00:00Z' + (n / 3) * interval '1 second'
        from generate_series(1, 120) as n`);

      const pages: MessagePage[] = [];
      let before: string | null | undefined;
      do {
        const response = await call(
          bob,
          'GET',
          `/api/chat/rooms/${room.id}/messages?limit=50${before ? `&before=${before}` : ''}`,
        );
        expect(response.statusCode).toBe(200);
        pages.push(response.json());
        before = pages.at(-1)!.nextCursor;
      } while (before);

      expect(pages.map((page) => page.messages.length)).toEqual([50, 50, 20]);
      const ids = pages.toReversed().flatMap((page) => page.messages.map((m) => m.id));
      expect(new Set(ids).size).toBe(120);
      const all = await t.db
        .select({ id: messages.id })
        .from(messages)
        .where(eq(messages.roomId, room.id))
        .orderBy(messages.createdAt, messages.id);
      expect(ids).toEqual(all.map((row) => row.id));
      const times = pages[0]!.messages.map((m) => m.createdAt);
      expect(times).toEqual(times.toSorted());
    });

    it('refuses a malformed cursor or limit', async () => {
      const [alice, bob] = [await person(), await person()];
      const roomId = (await send(alice, bob, 'hi')).json().roomId;
      expect((await call(alice, 'GET', `/api/chat/rooms/${roomId}/messages?before=abc`)).statusCode).toBe(400);
      expect((await call(alice, 'GET', `/api/chat/rooms/${roomId}/messages?limit=1000`)).statusCode).toBe(400);
      expect((await call(alice, 'GET', '/api/chat/rooms?limit=0')).statusCode).toBe(400);
    });
  });

  it('keeps socket events to the two participants', async () => {
    const [alice, bob, eve] = [await person(), await person(), await person()];
    const eveSocket = await socketOf(eve);
    const eveNew = recorder(eveSocket, 'message:new');
    const bobSocket = await socketOf(bob);
    const sent = send(alice, bob, 'just for Bob');
    const [message] = await nextEvent(bobSocket, 'message:new');
    expect(message.content).toBe('just for Bob');
    await sent;
    // Then one for Eve: her socket's events arrive in order, so Bob's would have come first.
    const forEve = (await send(alice, eve, 'and one for Eve')).json<ChatMessage>();
    await eveNew.waitFor((m) => m.id === forEve.id);
    expect(eveNew.seen.map((m) => m.content)).toEqual(['and one for Eve']);
  });
});
