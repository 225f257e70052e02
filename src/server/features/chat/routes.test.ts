import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AI_USER_ID, CHAT_ATTACHMENT } from '#shared/constants.ts';
import type { ServerToClientEvents } from '#shared/realtime-events.ts';
import { moderationMessages } from '#shared/rules/moderation.ts';
import type { ChatMessage, MessagePage, RoomPage } from '#shared/schemas/chat.ts';
import { chatRooms, messages } from '../../db/schema/chat.ts';
import { meetings } from '../../db/schema/meetings.ts';
import { illegalContentFlags } from '../../db/schema/moderation.ts';
import { TINY_PNG, formData, pngOfSize } from '../../../../tests/support/files.ts';
import { createSessionCookie, createUser } from '../../../../tests/support/factories.ts';
import { nextEvent, type TestSocket } from '../../../../tests/support/socket-client.ts';
import { createListeningTestApp, type ListeningTestApp } from '../../../../tests/support/test-app.ts';
import { createMessageWriter } from './message-writer.ts';
import { findOrCreateRoom, listRooms } from './service.ts';
import { fromNow, HOUR_MS } from '../../../../tests/support/time.ts';

type Method = 'GET' | 'POST';
type Person = Awaited<ReturnType<typeof createUser>> & { cookie: string };

/** Every event of one kind a socket receives, and a way to wait for the first one that matches. */
function recorder<E extends keyof ServerToClientEvents>(socket: TestSocket, event: E) {
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

describe('chat', () => {
  let t: ListeningTestApp;

  beforeAll(async () => {
    t = await createListeningTestApp();
  });
  afterAll(() => t.close());

  const person = async (role: 'student' | 'teacher' = 'student'): Promise<Person> => {
    const user = await createUser(t.db, { role });
    return { ...user, cookie: (await createSessionCookie(t.db, user.id)).header };
  };
  const call = (who: Person | null, method: Method, path: string, payload?: object) =>
    t.app.inject({ method, url: path, payload: payload as object, headers: who ? { cookie: who.cookie } : {} });
  const send = (from: Person, to: { id: string }, content: string, extra: object = {}) =>
    call(from, 'POST', '/api/chat/messages', { clientId: randomUUID(), receiverId: to.id, content, ...extra });
  const socketOf = (who: Person) => t.connect(who.cookie);
  const upload = (who: Person | null, file: { bytes: Uint8Array; filename: string; type: string }) =>
    t.app.inject({
      method: 'POST',
      url: '/api/chat/uploads',
      payload: formData({}, { field: 'file', ...file }),
      headers: who ? { cookie: who.cookie } : {},
    });
  const countMessages = (roomId: string) => t.db.$count(messages, eq(messages.roomId, roomId));
  const inAnHour = () => fromNow(HOUR_MS).toISOString();

  describe('findOrCreateRoom', () => {
    it('keeps one room per pair, in either order, also when created concurrently', async () => {
      const [a, b] = [await createUser(t.db), await createUser(t.db)];
      const results = await Promise.all([
        ...Array.from({ length: 4 }, () => findOrCreateRoom({ db: t.db, userAId: a.id, userBId: b.id })),
        ...Array.from({ length: 4 }, () => findOrCreateRoom({ db: t.db, userAId: b.id, userBId: a.id })),
      ]);
      expect(new Set(results.map((result) => result.room.id)).size).toBe(1);
      expect(results.filter((result) => result.created)).toHaveLength(1);
      const rooms = await t.db
        .select()
        .from(chatRooms)
        .where(sql`${a.id}::uuid in (${chatRooms.participant1Id}, ${chatRooms.participant2Id})`);
      expect(rooms).toHaveLength(1);
    });

    it('refuses a room with oneself, with Guru AI or with an unknown user', async () => {
      const a = await createUser(t.db);
      await expect(findOrCreateRoom({ db: t.db, userAId: a.id, userBId: a.id })).rejects.toMatchObject({
        statusCode: 400,
      });
      await expect(findOrCreateRoom({ db: t.db, userAId: a.id, userBId: AI_USER_ID })).rejects.toMatchObject({
        statusCode: 404,
      });
      await expect(findOrCreateRoom({ db: t.db, userAId: a.id, userBId: randomUUID() })).rejects.toMatchObject({
        statusCode: 404,
      });
    });
  });

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

  describe('room list', () => {
    it('lists rooms newest activity first with partner, last message and unread count, in pages, in one query', async () => {
      const me = await person();
      const partners = await Promise.all(Array.from({ length: 5 }, () => person('teacher')));
      for (const [index, partner] of partners.entries()) {
        for (let n = 0; n <= index; n++) await send(partner, me, `hello ${index}.${n}`);
      }
      await send(me, partners[0]!, 'I answer the first one last');

      const spy = vi.spyOn(t.pool, 'query');
      const all = await listRooms({ db: t.db, userId: me.id, limit: 10 });
      expect(spy).toHaveBeenCalledTimes(1);
      spy.mockRestore();

      expect(all.rooms.map((room) => room.partner.id)).toEqual(
        [partners[0], partners[4], partners[3], partners[2], partners[1]].map((p) => p!.id),
      );
      expect(all.rooms.map((room) => room.unreadCount)).toEqual([1, 5, 4, 3, 2]);
      expect(all.rooms[0]).toMatchObject({
        partner: {
          id: partners[0]!.id,
          username: partners[0]!.username,
          vhNumber: partners[0]!.vhNumber,
          role: 'teacher',
          image: null,
          ratingAverage: null,
          reviewCount: 0,
          jobsCompleted: 0,
        },
        lastMessage: {
          senderId: me.id,
          content: 'I answer the first one last',
          isDelivered: false,
          isRead: false,
          fileType: null,
        },
      });
      expect(Object.keys(all.rooms[0]!.partner).sort()).toEqual([
        'id',
        'image',
        'jobsCompleted',
        'ratingAverage',
        'reviewCount',
        'role',
        'username',
        'vhNumber',
      ]);

      const seen: string[] = [];
      let cursor: string | null | undefined;
      do {
        const response = await call(me, 'GET', `/api/chat/rooms?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
        expect(response.statusCode).toBe(200);
        const page: RoomPage = response.json();
        expect(page.rooms.length).toBeLessThanOrEqual(2);
        seen.push(...page.rooms.map((room) => room.id));
        cursor = page.nextCursor;
      } while (cursor);
      expect(seen).toEqual(all.rooms.map((room) => room.id));

      // The session was resolved by the calls above: a further list call runs the list's query only.
      const apiSpy = vi.spyOn(t.pool, 'query');
      expect((await call(me, 'GET', '/api/chat/rooms')).statusCode).toBe(200);
      expect(apiSpy).toHaveBeenCalledTimes(1);
      apiSpy.mockRestore();
    });

    it('pages through rooms from both sides of the pair in the order of all of them, ties on time broken by id', async () => {
      const me = await person();
      const partners = await Promise.all(Array.from({ length: 9 }, () => person('teacher')));
      // Rooms where I am the first participant and rooms where I am the second, three of them at the same time.
      const tied = new Date(Date.now() - HOUR_MS);
      await t.db.insert(chatRooms).values(
        partners.map((partner, index) => ({
          participant1Id: index % 2 === 0 ? me.id : partner.id,
          participant2Id: index % 2 === 0 ? partner.id : me.id,
          lastMessageAt: index < 3 ? tied : new Date(Date.now() - index * 60_000),
        })),
      );
      const everyRoom = await t.db
        .select({ id: chatRooms.id })
        .from(chatRooms)
        .where(sql`${me.id} in (${chatRooms.participant1Id}, ${chatRooms.participant2Id})`)
        .orderBy(sql`${chatRooms.lastMessageAt} desc, ${chatRooms.id} desc`);

      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await listRooms({ db: t.db, userId: me.id, limit: 2, cursor });
        seen.push(...page.rooms.map((room) => room.id));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      expect(seen).toEqual(everyRoom.map((room) => room.id));
    });

    it('opens a room with a partner (Connect): created once, then found', async () => {
      const [me, tutor] = [await person(), await person('teacher')];
      const tutorRooms = recorder(await socketOf(tutor), 'room:updated');
      const created = await call(me, 'POST', '/api/chat/rooms', { partnerId: tutor.id });
      expect(created.statusCode).toBe(201);
      expect(created.json()).toMatchObject({
        created: true,
        room: { partner: { id: tutor.id }, lastMessage: null, unreadCount: 0 },
      });
      await tutorRooms.waitFor((update) => update.roomId === created.json().room.id);
      const again = await call(tutor, 'POST', '/api/chat/rooms', { partnerId: me.id });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toMatchObject({
        created: false,
        room: { id: created.json().room.id, partner: { id: me.id } },
      });
      expect((await call(me, 'GET', `/api/chat/rooms/${created.json().room.id}`)).json()).toMatchObject({
        id: created.json().room.id,
      });
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

  describe('moderation', () => {
    it('blocks a phone number: nothing stored, a flag recorded, the offending part marked', async () => {
      const [alice, bob] = [await person(), await person()];
      const roomId = (await send(alice, bob, 'hi')).json().roomId;
      const content = 'call me at 079 123 45 67';
      const blocked = await send(alice, bob, content);
      expect(blocked.statusCode).toBe(400);
      expect(blocked.json()).toEqual({
        code: 'MESSAGE_BLOCKED',
        message: moderationMessages.phone,
        fields: { content: moderationMessages.phone },
        details: { category: 'phone', matches: [{ start: 11, end: 24 }] },
      });
      expect(await countMessages(roomId)).toBe(1);
      const flags = await t.db.select().from(illegalContentFlags).where(eq(illegalContentFlags.senderId, alice.id));
      expect(flags).toEqual([
        expect.objectContaining({ flagType: 'phone', content, chatRoomId: roomId, status: 'pending' }),
      ]);
    });

    it.each([
      ['email', 'write to john at gmail dot com'],
      ['link', 'see https://example.com/answers'],
      ['offensive', 'stfu and do it'],
      ['harassment', 'go kill yourself'],
    ] as const)(
      'blocks %s with its text, before a room exists, over HTTP and the socket',
      async (category, content) => {
        const [alice, bob] = [await person(), await person()];
        const blocked = await send(alice, bob, content);
        expect(blocked.json()).toMatchObject({
          code: 'MESSAGE_BLOCKED',
          message: moderationMessages[category],
          details: { category },
        });
        const ack = await (
          await socketOf(alice)
        )
          .timeout(5_000)
          .emitWithAck('message:send', { clientId: randomUUID(), receiverId: bob.id, content });
        expect(ack).toMatchObject({
          ok: false,
          code: 'MESSAGE_BLOCKED',
          message: moderationMessages[category],
          details: { category },
        });
        expect(await t.db.$count(messages, eq(messages.senderId, alice.id))).toBe(0);
        expect(await t.db.$count(chatRooms, eq(chatRooms.participant1Id, alice.id))).toBe(0);
        const flags = await t.db.select().from(illegalContentFlags).where(eq(illegalContentFlags.senderId, alice.id));
        expect(flags.map((flag) => [flag.flagType, flag.chatRoomId])).toEqual([
          [category, null],
          [category, null],
        ]);
      },
    );

    it('lets messages to Guru AI skip moderation, without a room', async () => {
      const alice = await person();
      const sent = await send(alice, { id: AI_USER_ID }, 'solve 3x + 5 = 20 and call 079 123 45 67');
      expect(sent.statusCode).toBe(201);
      expect(sent.json()).toMatchObject({ roomId: null, receiverId: AI_USER_ID });
      expect(await t.db.$count(chatRooms, eq(chatRooms.participant1Id, alice.id))).toBe(0);
      expect(await t.db.$count(illegalContentFlags, eq(illegalContentFlags.senderId, alice.id))).toBe(0);
    });

    it('allows links to our own origin', async () => {
      const [alice, bob] = [await person(), await person()];
      expect((await send(alice, bob, `see ${t.config.publicUrl}/chat`)).statusCode).toBe(201);
    });
  });

  describe('attachments', () => {
    const ELF = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00]), Buffer.alloc(120)]);
    const MZ = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(62), Buffer.from('PE\0\0'), Buffer.alloc(200)]);
    const cfb = (stream: string) =>
      Buffer.concat([
        Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
        Buffer.alloc(504),
        Buffer.from(stream, 'utf16le'),
        Buffer.alloc(64),
      ]);

    const sendFile = async (from: Person, to: Person, file: { bytes: Uint8Array; filename: string; type: string }) => {
      const uploaded = await upload(from, file);
      expect(uploaded.statusCode).toBe(201);
      const sent = await send(from, to, '', {
        attachment: { fileKey: uploaded.json().fileKey, originalFilename: uploaded.json().originalFilename },
      });
      expect(sent.statusCode).toBe(201);
      return { uploaded: uploaded.json(), message: sent.json<ChatMessage>() };
    };

    it('refuses a file name carrying contact details, like a message', async () => {
      const [alice, bob] = [await person(), await person()];
      const uploaded = await upload(alice, { bytes: TINY_PNG, filename: 'graph.png', type: 'image/png' });
      const blocked = await send(alice, bob, '', {
        attachment: { fileKey: uploaded.json().fileKey, originalFilename: 'call me 079 123 45 67.png' },
      });
      expect(blocked.statusCode).toBe(400);
      expect(blocked.json()).toMatchObject({
        code: 'MESSAGE_BLOCKED',
        fields: { 'attachment.originalFilename': expect.any(String) },
      });
    });

    it('sends an image both participants can download inline, and no one else', async () => {
      const [alice, bob, eve] = [await person(), await person(), await person()];
      const { uploaded, message } = await sendFile(alice, bob, {
        bytes: TINY_PNG,
        filename: 'graph.png',
        type: 'image/png',
      });
      expect(uploaded).toMatchObject({
        fileType: 'image/png',
        originalFilename: 'graph.png',
        fileSize: TINY_PNG.length,
      });
      expect(uploaded.fileKey).toMatch(new RegExp(`^chat/${alice.id}/`));
      expect(message.attachment).toEqual({
        url: `/api/chat/files/${message.id}`,
        fileType: 'image/png',
        originalFilename: 'graph.png',
        fileSize: TINY_PNG.length,
      });
      for (const who of [alice, bob]) {
        const file = await call(who, 'GET', message.attachment!.url);
        expect(file.statusCode).toBe(200);
        expect(file.rawPayload.equals(TINY_PNG)).toBe(true);
        expect(file.headers).toMatchObject({
          'content-type': 'image/png',
          'x-content-type-options': 'nosniff',
          'content-security-policy': "default-src 'none'; sandbox",
        });
        expect(file.headers['content-disposition']).toMatch(/^inline; filename="graph.png"/);
      }
      expect((await call(eve, 'GET', message.attachment!.url)).statusCode).toBe(404);
      expect((await call(null, 'GET', message.attachment!.url)).statusCode).toBe(401);
      expect((await call(bob, 'GET', `/api/chat/files/${randomUUID()}`)).statusCode).toBe(404);
    });

    it.each([
      ['an ELF executable named .png', ELF, 'photo.png', 'image/png'],
      ['a Windows executable named .png', MZ, 'photo.png', 'image/png'],
      [
        'a zip archive named .pdf',
        Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(100)]),
        'notes.pdf',
        'application/pdf',
      ],
      ['binary data named .txt', Buffer.from([0x00, 0x01, 0x02, 0xff, 0xfe]), 'notes.txt', 'text/plain'],
      ['Latin-1 text named .txt', Buffer.from('caf\xe9', 'latin1'), 'notes.txt', 'text/plain'],
    ])('refuses %s', async (_name, bytes, filename, type) => {
      const alice = await person();
      const response = await upload(alice, { bytes, filename, type });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        code: 'VALIDATION_FAILED',
        message: 'Only images and documents are allowed.',
        fields: { file: 'Only images and documents are allowed.' },
      });
    });

    it('neutralises HTML named .txt: stored and served as a plain-text download', async () => {
      const [alice, bob] = [await person(), await person()];
      const html = Buffer.from('<!doctype html><html><script>alert(document.cookie)</script></html>');
      const { uploaded, message } = await sendFile(alice, bob, {
        bytes: html,
        filename: 'page.html',
        type: 'text/html',
      });
      expect(uploaded).toMatchObject({ fileType: 'text/plain', originalFilename: 'page.html.txt' });
      const file = await call(bob, 'GET', message.attachment!.url);
      expect(file.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(file.headers['content-disposition']).toMatch(/^attachment; filename="page.html.txt"/);
      expect(file.headers['x-content-type-options']).toBe('nosniff');
    });

    it('keeps an SVG as an image but only ever serves it as a sandboxed download', async () => {
      const [alice, bob] = [await person(), await person()];
      const svg = Buffer.from(
        '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      );
      const { uploaded, message } = await sendFile(alice, bob, {
        bytes: svg,
        filename: 'diagram.svg',
        type: 'image/svg+xml',
      });
      expect(uploaded.fileType).toBe('image/svg+xml');
      const file = await call(bob, 'GET', message.attachment!.url);
      expect(file.headers).toMatchObject({
        'content-type': 'image/svg+xml',
        'content-security-policy': "default-src 'none'; sandbox",
        'x-content-type-options': 'nosniff',
      });
      expect(file.headers['content-disposition']).toMatch(/^attachment; filename="diagram.svg"/);
    });

    it.each([
      ['a Word 97 document', 'WordDocument', 'application/msword', 'essay.doc'],
      ['an Excel 97 workbook', 'Workbook', 'application/vnd.ms-excel', 'grades.xls'],
      ['a PowerPoint 97 deck', 'PowerPoint Document', 'application/vnd.ms-powerpoint', 'slides.ppt'],
    ])('recognises %s inside the shared Office container', async (_name, stream, fileType, filename) => {
      const response = await upload(await person(), { bytes: cfb(stream), filename, type: 'application/octet-stream' });
      expect(response.json()).toMatchObject({ fileType, originalFilename: filename });
    });

    it('accepts plain UTF-8 text and names a file by its real type', async () => {
      const response = await upload(await person(), {
        bytes: Buffer.from('Grüezi! Notes for the exam\n'),
        filename: 'notes',
        type: 'application/octet-stream',
      });
      expect(response.json()).toMatchObject({ fileType: 'text/plain', originalFilename: 'notes.txt' });
    });

    it(`refuses a file over ${CHAT_ATTACHMENT.maxBytes / 1024 / 1024} MB`, async () => {
      const response = await upload(await person(), {
        bytes: pngOfSize(CHAT_ATTACHMENT.maxBytes + 1),
        filename: 'big.png',
        type: 'image/png',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().fields).toEqual({ file: 'Maximum file size is 25MB.' });
    });

    it('refuses an upload without a session or without a file', async () => {
      expect((await upload(null, { bytes: TINY_PNG, filename: 'a.png', type: 'image/png' })).statusCode).toBe(401);
      const empty = await t.app.inject({
        method: 'POST',
        url: '/api/chat/uploads',
        payload: formData({ note: 'x' }),
        headers: { cookie: (await person()).cookie },
      });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().fields).toEqual({ file: 'Please choose a file' });
    });

    it('attaches only the sender’s own uploads', async () => {
      const [alice, bob] = [await person(), await person()];
      const bobsFile = (await upload(bob, { bytes: TINY_PNG, filename: 'b.png', type: 'image/png' })).json();
      const response = await send(alice, bob, 'look', { attachment: { fileKey: bobsFile.fileKey } });
      expect(response.statusCode).toBe(400);
      expect(response.json().fields).toEqual({
        'attachment.fileKey': 'This file was not uploaded by you or no longer exists.',
      });
      expect(await t.db.$count(messages, eq(messages.senderId, alice.id))).toBe(0);
    });
  });

  describe('meetings', () => {
    it('lets a teacher schedule a meeting that arrives as a chat message and stays in the history', async () => {
      const [teacher, student] = [await person('teacher'), await person()];
      const roomId = (await send(student, teacher, 'can we meet?')).json().roomId;
      const studentNew = recorder(await socketOf(student), 'message:new');
      const startTime = inAnHour();
      const created = await call(teacher, 'POST', `/api/chat/rooms/${roomId}/meetings`, {
        title: 'Calculus review',
        description: 'Chapter 4',
        startTime,
      });
      expect(created.statusCode).toBe(201);
      const message: ChatMessage = created.json();
      expect(message.content).toBe('📹 Scheduled meeting: Calculus review\nChapter 4');
      expect(message.meeting).toMatchObject({
        title: 'Calculus review',
        description: 'Chapter 4',
        startTime: new Date(startTime).toISOString(),
      });
      expect(message.meeting!.joinUrl).toBe(`https://meet.jit.si/${message.meeting!.meetingId}`);
      expect(message.meeting!.meetingId).toMatch(/^VirtualHelp-[0-9a-f]{24}$/);
      await studentNew.waitFor((m) => m.id === message.id);
      const history: MessagePage = (await call(student, 'GET', `/api/chat/rooms/${roomId}/messages`)).json();
      expect(history.messages.at(-1)).toEqual(message);
      const [row] = await t.db.select().from(meetings).where(eq(meetings.chatMessageId, message.id));
      expect(row).toMatchObject({ creatorId: teacher.id, chatRoomId: roomId, isInstant: false });
    });

    it.each([
      ['a missing title', { title: '   ' }, 'title', 'Title is required'],
      [
        'a start in the past',
        { startTime: fromNow(-HOUR_MS).toISOString() },
        'startTime',
        'Start time must be in the future',
      ],
      ['a missing start', { startTime: undefined }, 'startTime', 'Start time is required'],
    ])('refuses %s with the SPEC message and writes nothing', async (_name, change, field, text) => {
      const [teacher, student] = [await person('teacher'), await person()];
      const roomId = (await send(student, teacher, 'hi')).json().roomId;
      const response = await call(teacher, 'POST', `/api/chat/rooms/${roomId}/meetings`, {
        title: 'Review',
        startTime: inAnHour(),
        ...change,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: text, fields: { [field]: text } });
      expect(await countMessages(roomId)).toBe(1);
      expect(await t.db.$count(meetings, eq(meetings.chatRoomId, roomId))).toBe(0);
    });

    it('refuses students (403) and teachers outside the room (404)', async () => {
      const [teacher, student, otherTeacher] = [await person('teacher'), await person(), await person('teacher')];
      const roomId = (await send(student, teacher, 'hi')).json().roomId;
      const body = { title: 'Review', startTime: inAnHour() };
      const byStudent = await call(student, 'POST', `/api/chat/rooms/${roomId}/meetings`, body);
      expect(byStudent.statusCode).toBe(403);
      expect(byStudent.json().message).toBe('Only teachers can schedule meetings.');
      expect((await call(otherTeacher, 'POST', `/api/chat/rooms/${roomId}/meetings`, body)).statusCode).toBe(404);
      expect(await t.db.$count(meetings, eq(meetings.chatRoomId, roomId))).toBe(0);
    });

    it('moderates the title', async () => {
      const [teacher, student] = [await person('teacher'), await person()];
      const roomId = (await send(student, teacher, 'hi')).json().roomId;
      const response = await call(teacher, 'POST', `/api/chat/rooms/${roomId}/meetings`, {
        title: 'Join at example.com/meet',
        startTime: inAnHour(),
      });
      expect(response.json()).toMatchObject({ code: 'MESSAGE_BLOCKED', fields: { title: moderationMessages.link } });
      expect(await t.db.$count(meetings, eq(meetings.chatRoomId, roomId))).toBe(0);
    });
  });

  describe('access', () => {
    it('answers 404 to anyone outside the room, for the room, its messages, receipts and files', async () => {
      const [alice, bob, eve] = [await person(), await person(), await person('teacher')];
      const uploaded = (await upload(alice, { bytes: TINY_PNG, filename: 'a.png', type: 'image/png' })).json();
      const message: ChatMessage = (
        await send(alice, bob, 'private', { attachment: { fileKey: uploaded.fileKey } })
      ).json();
      const room = `/api/chat/rooms/${message.roomId}`;
      const attempts: Array<[Method, string, object?]> = [
        ['GET', room],
        ['GET', `${room}/messages`],
        ['POST', `${room}/delivered`],
        ['POST', `${room}/read`],
        ['POST', `${room}/meetings`, { title: 'x', startTime: inAnHour() }],
        ['GET', `/api/chat/files/${message.id}`],
      ];
      for (const [method, path, body] of attempts) {
        const response = await call(eve, method, path, body);
        expect(response.statusCode, `${method} ${path}`).toBe(404);
        expect(JSON.stringify(response.json())).not.toContain('private');
      }
      expect((await call(eve, 'GET', '/api/chat/rooms')).json().rooms).toEqual([]);
      const [stored] = await t.db.select().from(messages).where(eq(messages.id, message.id));
      expect(stored).toMatchObject({ isDelivered: false, isRead: false });
    });

    it('answers 401 to every endpoint without a session', async () => {
      const id = randomUUID();
      const endpoints: Array<[Method, string]> = [
        ['GET', '/api/chat/rooms'],
        ['POST', '/api/chat/rooms'],
        ['GET', `/api/chat/rooms/${id}`],
        ['GET', `/api/chat/rooms/${id}/messages`],
        ['POST', '/api/chat/messages'],
        ['POST', `/api/chat/rooms/${id}/delivered`],
        ['POST', `/api/chat/rooms/${id}/read`],
        ['POST', `/api/chat/rooms/${id}/meetings`],
        ['GET', `/api/chat/files/${id}`],
      ];
      const bodies: Record<string, object> = {
        '/api/chat/rooms': { partnerId: id },
        '/api/chat/messages': { clientId: randomUUID(), receiverId: id, content: 'hi' },
        [`/api/chat/rooms/${id}/meetings`]: { title: 'x', startTime: inAnHour() },
      };
      for (const [method, path] of endpoints) {
        const response = await call(null, method, path, method === 'POST' ? bodies[path] : undefined);
        expect(response.statusCode, `${method} ${path}`).toBe(401);
        expect(response.json()).toEqual({ code: 'UNAUTHENTICATED', message: 'Not authenticated' });
      }
    });

    it.each([
      ['an empty message without a file', () => ({ content: '   ' }), 'content', 'Type a message or attach a file'],
      [
        'a message to oneself',
        (self: Person) => ({ receiverId: self.id }),
        'receiverId',
        'You cannot chat with yourself.',
      ],
      [
        'a clientId that is not a UUID',
        () => ({ clientId: 'abc' }),
        'clientId',
        'clientId must be a UUID generated by the sender',
      ],
      [
        'a too long message',
        () => ({ content: 'a'.repeat(10_001) }),
        'content',
        'Messages can be at most 10000 characters',
      ],
    ])('refuses %s with a 400 and stores nothing', async (_name, change, field, text) => {
      const [alice, bob] = [await person(), await person()];
      const body = { clientId: randomUUID(), receiverId: bob.id, content: 'hi', ...change(alice) };
      const response = await call(alice, 'POST', '/api/chat/messages', body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ message: text, fields: { [field]: text } });
      expect(await t.db.$count(messages, eq(messages.senderId, alice.id))).toBe(0);
    });

    it('answers 404 for an unknown receiver or partner and creates nothing', async () => {
      const alice = await person();
      expect((await send(alice, { id: randomUUID() }, 'hello?')).statusCode).toBe(404);
      expect((await call(alice, 'POST', '/api/chat/rooms', { partnerId: randomUUID() })).statusCode).toBe(404);
      expect((await call(alice, 'POST', '/api/chat/rooms', { partnerId: AI_USER_ID })).statusCode).toBe(404);
      expect(await t.db.$count(chatRooms, and(eq(chatRooms.participant1Id, alice.id)))).toBe(0);
    });

    it('answers an invalid socket send through the ack, and ignores one without an ack', async () => {
      const alice = await person();
      const socket = await socketOf(alice);
      const ack = await socket
        .timeout(5_000)
        .emitWithAck('message:send', { clientId: 'nope', receiverId: alice.id, content: '' });
      expect(ack).toMatchObject({
        ok: false,
        code: 'VALIDATION_FAILED',
        fields: { clientId: 'clientId must be a UUID generated by the sender' },
      });
      // A valid send without a callback, then an acknowledged sentinel on the same socket: the server handles a
      // socket's events in order, so once the sentinel is stored the first would be too, had it been taken.
      const bob = await person();
      (socket.emit as (event: string, payload: unknown) => void)('message:send', {
        clientId: randomUUID(),
        receiverId: bob.id,
        content: 'sent without an ack',
      });
      const sentinel = await socket
        .timeout(5_000)
        .emitWithAck('message:send', { clientId: randomUUID(), receiverId: bob.id, content: 'sentinel' });
      expect(sentinel).toMatchObject({ ok: true });
      const stored = await t.db
        .select({ content: messages.content })
        .from(messages)
        .where(eq(messages.senderId, alice.id));
      expect(stored).toEqual([{ content: 'sentinel' }]);
    });

    it('publishes the chat API in the OpenAPI document', async () => {
      const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
      expect(Object.keys(document.paths)).toEqual(
        expect.arrayContaining([
          '/api/chat/rooms',
          '/api/chat/rooms/{roomId}',
          '/api/chat/rooms/{roomId}/messages',
          '/api/chat/messages',
          '/api/chat/rooms/{roomId}/delivered',
          '/api/chat/rooms/{roomId}/read',
          '/api/chat/uploads',
          '/api/chat/files/{messageId}',
          '/api/chat/rooms/{roomId}/meetings',
        ]),
      );
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
