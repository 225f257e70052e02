import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AI_USER_ID } from '#shared/constants.ts';
import type { RoomPage } from '#shared/schemas/chat.ts';
import { chatRooms } from '../../db/schema/chat.ts';
import { chatCalls, recorder } from '../../../../tests/support/chat.ts';
import { createUser } from '../../../../tests/support/factories.ts';
import { createListeningTestApp, type ListeningTestApp } from '../../../../tests/support/test-app.ts';
import { findOrCreateRoom, listRooms } from './service.ts';
import { HOUR_MS } from '../../../../tests/support/time.ts';

describe('chat', () => {
  let t: ListeningTestApp;

  beforeAll(async () => {
    t = await createListeningTestApp();
  });
  afterAll(() => t.close());

  const { person, call, send, socketOf } = chatCalls(() => t);

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
});
