import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AI_USER_ID, MIB } from '#shared/constants.ts';
import { imageSizeMessages } from '#shared/rules/image-size.ts';
import type { ChatMessage } from '#shared/schemas/chat.ts';
import { guruReplySchema, type GuruReply } from '#shared/schemas/guru.ts';
import { TRUNCATED_PNG, blankPng, formData } from '../../../../tests/support/files.ts';
import {
  descendantsOf,
  residentBytesOf,
  signUpStudent,
  startTestServerProcess,
  type ServerProcess,
} from '../../../../tests/support/server-process.ts';
import { connectSocket, type TestSocket } from '../../../../tests/support/socket-client.ts';
import { IMAGE_TOO_LARGE_TO_READ, IMAGE_UNREADABLE } from './assistant.ts';

// Photos meant to break the photo reader, sent to a server running as its own process: whatever the reader does
// with them, the student gets an answer and the process goes on serving everyone. `npm run test:faults` sends
// the image bombs 10 times; the normal suite twice.
const IMAGE_BOMBS = Number(process.env.IMAGE_BOMBS ?? 2);
/**
 * What the server (with every process it started) may grow by while refusing image bombs: a quarter of what one
 * 16,000 × 16,000 image takes once decoded (1 GiB at 4 bytes a pixel), and far more than refusing one needs.
 */
const BOMB_MEMORY_GROWTH_BOUND = 256 * MIB;

type Student = Awaited<ReturnType<typeof signUpStudent>> & { socket: TestSocket };

describe('Guru AI given hostile photos', () => {
  let server: ServerProcess;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    server = await startTestServerProcess();
  }, 150_000);
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await server.stop();
  });

  async function newStudent(): Promise<Student> {
    const student = await signUpStudent(server.url);
    const socket = await connectSocket(server.url, { cookie: student.cookie });
    sockets.push(socket);
    return { ...student, socket };
  }

  const upload = (cookie: string, photo: Buffer) =>
    fetch(`${server.url}/api/chat/uploads`, {
      method: 'POST',
      headers: { cookie },
      body: formData({}, { field: 'file', bytes: photo, filename: 'homework.png', type: 'image/png' }),
    });

  /** The student sends this photo to Guru AI; resolves with the reply once it arrives on the student's socket. */
  async function askWithPhoto(photo: Buffer, student?: Student): Promise<GuruReply> {
    const { cookie, socket } = student ?? (await newStudent());
    const reply = new Promise<GuruReply>((resolve, reject) => {
      server.child.once('exit', (code) => reject(new Error(`The server ended (${code}):\n${server.output()}`)));
      const onMessage = (message: ChatMessage) => {
        if (message.senderId !== AI_USER_ID) return;
        socket.off('message:new', onMessage);
        resolve(guruReplySchema.parse(JSON.parse(message.content)));
      };
      socket.on('message:new', onMessage);
    });
    const uploaded = await upload(cookie, photo);
    expect(uploaded.status).toBe(201);
    const { fileKey } = (await uploaded.json()) as { fileKey: string };
    const sent = await fetch(`${server.url}/api/chat/messages`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: randomUUID(), receiverId: AI_USER_ID, content: '', attachment: { fileKey } }),
    });
    expect(sent.status).toBe(201);
    return reply;
  }

  it('answers Error Analyzing Image to a truncated PNG, and the server goes on', async () => {
    const reply = await askWithPhoto(TRUNCATED_PNG);
    expect(reply.reply).toBe(IMAGE_UNREADABLE);
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    expect(server.child.exitCode).toBeNull();
  });

  it(`refuses ${IMAGE_BOMBS} rounds of image bombs by their headers, in bounded memory and with no decoder started`, async () => {
    // 1.1 MB of PNG stating 16,000 × 16,000 pixels (past every bound), and one of 7,000 × 7,000 (an image the chat
    // keeps, too large for Guru AI to read), both with all their pixel data.
    const bomb = blankPng({ width: 16_000, height: 16_000 });
    expect(bomb.length).toBeGreaterThan(MIB);
    const tooLargeToRead = blankPng({ width: 7_000, height: 7_000 });
    const student = await newStudent();
    const pid = server.child.pid!;
    const processesBefore = descendantsOf(pid);
    let baseline = 0;
    for (let round = 0; round < IMAGE_BOMBS; round++) {
      const refused = await upload(student.cookie, bomb);
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { fields: unknown }).fields).toEqual({ file: imageSizeMessages.tooLarge });
      expect(await askWithPhoto(tooLargeToRead, student)).toEqual({
        reply: IMAGE_TOO_LARGE_TO_READ,
        actionType: 'expert_help',
        input: '',
      });
      // The first round loads what any upload and question need; growth is counted from there.
      if (round === 0) baseline = residentBytesOf(pid);
    }
    const grown = residentBytesOf(pid) - baseline;
    expect(grown, `grew by ${Math.round(grown / MIB)} MiB`).toBeLessThan(BOMB_MEMORY_GROWTH_BOUND);
    // No photo reader was started to decode them.
    expect(descendantsOf(pid).filter((each) => !processesBefore.includes(each))).toEqual([]);
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  }, 120_000);
});
