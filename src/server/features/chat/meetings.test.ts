import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moderationMessages } from '#shared/rules/moderation.ts';
import { MEETING_TITLE_MAX_LENGTH } from '#shared/constants.ts';
import { chatMessages, type ChatMessage, type MessagePage } from '#shared/schemas/chat.ts';
import { meetings } from '../../db/schema/meetings.ts';
import { chatCalls, recorder } from '../../../../tests/support/chat.ts';
import { createListeningTestApp, type ListeningTestApp } from '../../../../tests/support/test-app.ts';
import { fromNow, HOUR_MS } from '../../../../tests/support/time.ts';

describe('chat', () => {
  let t: ListeningTestApp;

  beforeAll(async () => {
    t = await createListeningTestApp();
  });
  afterAll(() => t.close());

  const { person, call, send, socketOf, countMessages, inAnHour } = chatCalls(() => t);

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
      ['a title too long', { title: 't'.repeat(MEETING_TITLE_MAX_LENGTH + 1) }, 'title', chatMessages.titleTooLong],
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
});
