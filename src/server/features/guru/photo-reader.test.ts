import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AI_USER_ID } from '#shared/constants.ts';
import type { ChatMessage } from '#shared/schemas/chat.ts';
import { guruReplySchema, type GuruReply } from '#shared/schemas/guru.ts';
import { TINY_PNG, formData } from '../../../../tests/support/files.ts';
import { createSessionCookie, createUser } from '../../../../tests/support/factories.ts';
import { renderTextPng } from '../../../../tests/support/render-png.ts';
import { connectSocket, type TestSocket } from '../../../../tests/support/socket-client.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { IMAGE_UNREADABLE } from './assistant.ts';
import { cleanReadMath, createPhotoReader, PhotoReadTimeout } from './photo-reader.ts';

// Photos offline: a printed equation drawn by Chromium, read by tesseract.js with the packaged English data, solved.

describe('Guru AI reads photos offline', () => {
  let equationPng: Buffer;
  let t: TestApp;
  let url: string;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    equationPng = await renderTextPng(['2x + 3 = 7'], { fontSize: 40 });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await t.close();
  });

  /** A student sends a photo (and words) to Guru AI; resolves with the stored reply. */
  const askWithPhoto = async (png: Buffer, content = '') => {
    const user = await createUser(t.db, { role: 'student' });
    const cookie = (await createSessionCookie(t.db, user.id)).header;
    const socket = await connectSocket(url, { cookie });
    sockets.push(socket);
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/api/chat/uploads',
      payload: formData({}, { field: 'file', bytes: png, filename: 'homework.png', type: 'image/png' }),
      headers: { cookie },
    });
    expect(uploaded.statusCode).toBe(201);
    const reply = new Promise<GuruReply>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('No Guru AI reply within 25 s')), 25_000);
      socket.on('message:new', (message: ChatMessage) => {
        if (message.senderId !== AI_USER_ID) return;
        clearTimeout(timer);
        resolve(guruReplySchema.parse(JSON.parse(message.content)));
      });
    });
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/chat/messages',
      payload: {
        clientId: randomUUID(),
        receiverId: AI_USER_ID,
        content,
        attachment: { fileKey: uploaded.json().fileKey },
      },
      headers: { cookie },
    });
    expect(sent.statusCode).toBe(201);
    return reply;
  };

  it('reads a printed equation from a photo and solves it', async () => {
    const reply = await askWithPhoto(equationPng);
    expect(reply.actionType).toBe('none');
    expect(reply.reply).toMatch(/^I read this in your photo: \*\*2x ?\+ ?3 ?= ?7\*\* \(if it says something else/);
    expect(reply.reply).toContain('**Answer:** x = 2');
  });

  it('says "Error Analyzing Image" when there is no printed text to read', async () => {
    const reply = await askWithPhoto(TINY_PNG, 'what is this?');
    expect(reply).toEqual({ reply: IMAGE_UNREADABLE, actionType: 'expert_help', input: 'what is this?' });
  });

  it('gives up a reading that takes longer than allowed, and reads again afterwards', async () => {
    const reader = createPhotoReader({ timeoutMs: 1 });
    await expect(reader.read(equationPng)).rejects.toBeInstanceOf(PhotoReadTimeout);
    await reader.close();
    const patient = createPhotoReader({ timeoutMs: 20_000 });
    try {
      const started = performance.now();
      expect(await patient.read(equationPng)).toMatch(/^2x ?\+ ?3 ?= ?7$/);
      expect(performance.now() - started).toBeLessThan(20_000);
    } finally {
      await patient.close();
    }
  });

  it.each([
    ['2X +3 =7', '2x +3 =7'],
    ['Xx+y=10', 'x+y=10'],
    ['X™~2-5x+6=0', 'x^2-5x+6=0'],
    ['X"2-5x+6=0', 'x^2-5x+6=0'],
    ['Solve X + 1 = 3\n\n  ', 'Solve x + 1 = 3'],
  ])('cleans the reading %j into %j', (read, cleaned) => {
    expect(cleanReadMath(read)).toBe(cleaned);
  });
});
