import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { UPLOADS_IN_FLIGHT } from '#shared/constants.ts';
import { createSessionCookie, createUser } from '../../../../tests/support/factories.ts';
import { startUpload } from '../../../../tests/support/slow-upload.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';

describe('incoming uploads', () => {
  let t: TestApp;
  let url: string;
  let incomingDir: string;
  beforeAll(async () => {
    t = await createTestApp();
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    incomingDir = path.join(t.config.dataDir, 'incoming-uploads');
  });
  afterAll(() => t.close());

  const signedIn = async () => (await createSessionCookie(t.db, (await createUser(t.db)).id)).header;
  const incoming = () => readdir(incomingDir);

  it('writes a file to disk as it arrives, and removes it once the upload is stored, refused or cut off', async () => {
    const cookie = await signedIn();
    const stored = startUpload(url, cookie);
    // The first bytes are on disk while the rest has not been sent yet.
    await vi.waitFor(async () => expect(await incoming()).toHaveLength(1), { timeout: 10_000 });
    expect((await stat(path.join(incomingDir, (await incoming())[0]!))).size).toBe(8);
    expect((await stored.finish()).status).toBe(201);
    expect(await incoming()).toEqual([]);

    const refused = startUpload(url, cookie, { bytes: Buffer.alloc(64), filename: 'a.exe' });
    expect((await refused.finish()).status).toBe(400);
    expect(await incoming()).toEqual([]);

    const cutOff = startUpload(url, cookie);
    await vi.waitFor(async () => expect(await incoming()).toHaveLength(1), { timeout: 10_000 });
    cutOff.leave();
    await vi.waitFor(async () => expect(await incoming()).toEqual([]), { timeout: 10_000 });
  });

  it(`takes ${UPLOADS_IN_FLIGHT.max} uploads of one user at once, refuses one more with 429, and takes it once one has ended`, async () => {
    const [cookie, otherCookie] = [await signedIn(), await signedIn()];
    const held = Array.from({ length: UPLOADS_IN_FLIGHT.max }, () => startUpload(url, cookie));
    await vi.waitFor(async () => expect(await incoming()).toHaveLength(UPLOADS_IN_FLIGHT.max), { timeout: 10_000 });

    const oneTooMany = startUpload(url, cookie);
    const refused = await oneTooMany.answer;
    oneTooMany.leave();
    expect(refused).toEqual({ status: 429, body: expect.objectContaining({ message: UPLOADS_IN_FLIGHT.message }) });
    // Another user is not held up by this one.
    expect((await startUpload(url, otherCookie).finish()).status).toBe(201);

    expect((await held[0]!.finish()).status).toBe(201);
    expect((await startUpload(url, cookie).finish()).status).toBe(201);
    for (const upload of held.slice(1)) expect((await upload.finish()).status).toBe(201);
  });

  it('takes no upload from a JSON body that names a file on the server', async () => {
    const cookie = await signedIn();
    const forged = { filename: 'secret.txt', size: 10, type: 'text/plain', extension: 'txt' };
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/requests',
      headers: { cookie },
      payload: {
        type: 'assignment',
        subjectId: '00000000-0000-0000-0000-000000000000',
        description: 'A forged attachment',
        budgetMinCents: 500,
        attachments: [{ ...forged, path: path.join(t.config.dataDir, 'auth-secret') }],
      },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toMatchObject({ 'attachments.0': 'Please choose a file' });
  });
});
