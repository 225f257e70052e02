import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_ATTACHMENT } from '#shared/constants.ts';
import type { ChatMessage } from '#shared/schemas/chat.ts';
import { messages } from '../../db/schema/chat.ts';
import { chatCalls, type Person } from '../../../../tests/support/chat.ts';
import { TINY_PNG, formData, pngOfSize } from '../../../../tests/support/files.ts';
import { createListeningTestApp, type ListeningTestApp } from '../../../../tests/support/test-app.ts';

describe('chat', () => {
  let t: ListeningTestApp;

  beforeAll(async () => {
    t = await createListeningTestApp();
  });
  afterAll(() => t.close());

  const { person, call, send, upload } = chatCalls(() => t);

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
});
