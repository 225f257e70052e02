import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AI_USER_ID } from '#shared/constants.ts';
import type { ChatMessage } from '#shared/schemas/chat.ts';
import { guruReplySchema, type GuruReply } from '#shared/schemas/guru.ts';
import { TRUNCATED_PNG, formData } from '../../../../tests/support/files.ts';
import { signUpStudent, startTestServerProcess, type ServerProcess } from '../../../../tests/support/server-process.ts';
import { connectSocket, type TestSocket } from '../../../../tests/support/socket-client.ts';
import { IMAGE_UNREADABLE } from './assistant.ts';

// Photos meant to break the photo reader, sent to a server running as its own process: whatever the reader does
// with them, the student gets an answer and the process goes on serving everyone.

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

  /** A new student sends this photo to Guru AI; resolves with the reply once it arrives on the student's socket. */
  async function askWithPhoto(photo: Buffer): Promise<GuruReply> {
    const student = await signUpStudent(server.url);
    const socket = await connectSocket(server.url, { cookie: student.cookie });
    sockets.push(socket);
    const reply = new Promise<GuruReply>((resolve, reject) => {
      server.child.once('exit', (code) => reject(new Error(`The server ended (${code}):\n${server.output()}`)));
      socket.on('message:new', (message: ChatMessage) => {
        if (message.senderId === AI_USER_ID) resolve(guruReplySchema.parse(JSON.parse(message.content)));
      });
    });
    const uploaded = await fetch(`${server.url}/api/chat/uploads`, {
      method: 'POST',
      headers: { cookie: student.cookie },
      body: formData({}, { field: 'file', bytes: photo, filename: 'homework.png', type: 'image/png' }),
    });
    expect(uploaded.status).toBe(201);
    const { fileKey } = (await uploaded.json()) as { fileKey: string };
    const sent = await fetch(`${server.url}/api/chat/messages`, {
      method: 'POST',
      headers: { cookie: student.cookie, 'content-type': 'application/json' },
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
});
