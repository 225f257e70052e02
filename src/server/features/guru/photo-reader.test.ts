import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { AI_USER_ID } from '#shared/constants.ts';
import { imageSizeMessages } from '#shared/rules/image-size.ts';
import { storedFiles } from '../../db/schema/limits.ts';
import type { ChatMessage } from '#shared/schemas/chat.ts';
import { guruReplySchema, type GuruReply } from '#shared/schemas/guru.ts';
import { TINY_PNG, blankPng, formData } from '../../../../tests/support/files.ts';
import { createSessionCookie, createUser } from '../../../../tests/support/factories.ts';
import { renderTextPng } from '../../../../tests/support/render-png.ts';
import { connectSocket, type TestSocket } from '../../../../tests/support/socket-client.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { IMAGE_TOO_LARGE_TO_READ, IMAGE_UNREADABLE } from './assistant.ts';
import { cleanReadMath, createPhotoReader, PhotoReadTimeout, PhotoTooLarge } from './photo-reader.ts';

/** The photo reader processes this test process runs now. */
const readerProcesses = () =>
  spawnSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter((line) => line.includes('photo-reader-process'))
    .map((line) => Number.parseInt(line, 10));

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
      // Within the read's own bound (20 s) once the reader process has started, which a busy machine makes slow.
      const timer = setTimeout(() => reject(new Error('No Guru AI reply within 90 s')), 90_000);
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
    expect(reply.actionType, reply.reply).toBe('none');
    expect(reply.reply).toMatch(/^I read this in your photo: \*\*2x ?\+ ?3 ?= ?7\*\* \(if it says something else/);
    expect(reply.reply).toContain('**Answer:** x = 2');
  }, 120_000);

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
      expect(await patient.read(equationPng)).toMatch(/^2x ?\+ ?3 ?= ?7$/);
    } finally {
      await patient.close();
    }
  }, 120_000);

  it('refuses a photo whose header states more pixels than it reads, or no header at all, before decoding it', async () => {
    const reader = createPhotoReader({ timeoutMs: 20_000 });
    const before = readerProcesses();
    try {
      await expect(reader.read(blankPng({ width: 16_000, height: 16_000, pixels: false }))).rejects.toBeInstanceOf(
        PhotoTooLarge,
      );
      await expect(reader.read(Buffer.from('not an image at all'))).rejects.toThrow(/no image header/);
      expect(readerProcesses()).toEqual(before); // nothing was started to decode them
    } finally {
      await reader.close();
    }
  });

  it('answers the student with the bound in plain words when the photo is too large to read', async () => {
    const reply = await askWithPhoto(blankPng({ width: 5_000, height: 5_000, pixels: false }));
    expect(reply).toEqual({ reply: IMAGE_TOO_LARGE_TO_READ, actionType: 'expert_help', input: '' });
  });

  it('refuses an upload whose header states more pixels than any image may have, storing nothing', async () => {
    const user = await createUser(t.db, { role: 'student' });
    const cookie = (await createSessionCookie(t.db, user.id)).header;
    const bomb = blankPng({ width: 16_000, height: 16_000, pixels: false });
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/chat/uploads',
      payload: formData({}, { field: 'file', bytes: bomb, filename: 'bomb.png', type: 'image/png' }),
      headers: { cookie },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fields).toEqual({ file: imageSizeMessages.tooLarge });
    expect(await t.db.$count(storedFiles, eq(storedFiles.ownerId, user.id))).toBe(0);
  });

  it('ends its reader process after a large photo, and starts a fresh one for the next', async () => {
    const reader = createPhotoReader({ timeoutMs: 60_000 });
    const others = readerProcesses();
    const own = () => readerProcesses().filter((pid) => !others.includes(pid));
    try {
      await reader.read(equationPng);
      const [first] = own();
      expect(first).toBeDefined();
      expect(await reader.read(blankPng({ width: 2_100, height: 2_100 }))).toBe('');
      expect(own()).toEqual([]);
      expect(await reader.read(equationPng)).toMatch(/^2x ?\+ ?3 ?= ?7$/);
      expect(own()).toHaveLength(1);
      expect(own()).not.toContain(first);
    } finally {
      await reader.close();
    }
  }, 120_000);

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
