import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AI_USER_ID } from '#shared/constants.ts';
import { moderationMessages } from '#shared/rules/moderation.ts';
import { chatRooms, messages } from '../../db/schema/chat.ts';
import { illegalContentFlags } from '../../db/schema/moderation.ts';
import { chatCalls } from '../../../../tests/support/chat.ts';
import { createListeningTestApp, type ListeningTestApp } from '../../../../tests/support/test-app.ts';

describe('chat', () => {
  let t: ListeningTestApp;

  beforeAll(async () => {
    t = await createListeningTestApp();
  });
  afterAll(() => t.close());

  const { person, send, socketOf, countMessages } = chatCalls(() => t);

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
});
