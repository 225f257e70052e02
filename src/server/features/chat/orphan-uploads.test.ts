import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORAGE_QUOTA } from '#shared/constants.ts';
import { errorMessages } from '#shared/errors.ts';
import { storedFiles } from '../../db/schema/limits.ts';
import { runJobOnce } from '../../platform/jobs/interval-jobs.ts';
import { createStorage } from '../../platform/storage/storage.ts';
import { createSessionCookie, createUser } from '../../../../tests/support/factories.ts';
import { formData, TINY_PNG } from '../../../../tests/support/files.ts';
import { startS3Server, type S3Server } from '../../../../tests/support/s3-server.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { orphanUploadsJob } from './orphan-uploads.ts';

describe('stored chat files', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const storage = () => createStorage(t.config.storage, t.app.log);
  const signedIn = async () => {
    const user = await createUser(t.db);
    return { user, cookie: (await createSessionCookie(t.db, user.id)).header };
  };
  const upload = (cookie: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/chat/uploads',
      headers: { cookie },
      payload: formData({}, { field: 'file', bytes: TINY_PNG, filename: 'graph.png', type: 'image/png' }),
    });
  const age = (key: string) =>
    t.db
      .update(storedFiles)
      .set({ createdAt: sql`now() - interval '61 minutes'` })
      .where(eq(storedFiles.key, key));

  it('deletes an upload no message used within the hour, and keeps one a message uses', async () => {
    const [alice, bob] = [await signedIn(), await signedIn()];
    const orphan = (await upload(alice.cookie)).json();
    const used = (await upload(alice.cookie)).json();
    const fresh = (await upload(alice.cookie)).json();
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/chat/messages',
      headers: { cookie: alice.cookie },
      payload: {
        clientId: randomUUID(),
        receiverId: bob.user.id,
        content: '',
        attachment: { fileKey: used.fileKey, originalFilename: used.originalFilename },
      },
    });
    expect(sent.statusCode).toBe(201);
    await age(orphan.fileKey);
    await age(used.fileKey);

    expect(await runJobOnce({ db: t.db, job: orphanUploadsJob(storage()) })).toBe(true);
    expect(await storage().get(orphan.fileKey)).toBeNull();
    for (const kept of [used, fresh]) {
      const file = await storage().get(kept.fileKey);
      expect(file).not.toBeNull();
      file!.stream.destroy();
    }
    const rows = await t.db
      .select({ key: storedFiles.key })
      .from(storedFiles)
      .where(eq(storedFiles.ownerId, alice.user.id));
    expect(rows.map((row) => row.key).sort()).toEqual([used.fileKey, fresh.fileKey].sort());
  });

  it('refuses an upload past the storage quota, storing nothing', async () => {
    const { user, cookie } = await signedIn();
    await t.db
      .insert(storedFiles)
      .values({ key: `chat/${user.id}/full.bin`, ownerId: user.id, sizeBytes: STORAGE_QUOTA.bytes - 10 });
    const refused = await upload(cookie);
    expect(refused.statusCode).toBe(413);
    expect(refused.json()).toMatchObject({ code: 'STORAGE_FULL', message: STORAGE_QUOTA.message });
    expect(await t.db.$count(storedFiles, eq(storedFiles.ownerId, user.id))).toBe(1);
  });

  it('lets only what fits of racing uploads past the quota', async () => {
    const { user, cookie } = await signedIn();
    const room = Math.floor(TINY_PNG.length * 1.5);
    await t.db
      .insert(storedFiles)
      .values({ key: `chat/${user.id}/full.bin`, ownerId: user.id, sizeBytes: STORAGE_QUOTA.bytes - room });
    const answers = await Promise.all([upload(cookie), upload(cookie), upload(cookie)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 413, 413]);
    const [used] = await t.db
      .select({ bytes: sql<number>`sum(${storedFiles.sizeBytes})`.mapWith(Number) })
      .from(storedFiles)
      .where(eq(storedFiles.ownerId, user.id));
    expect(used!.bytes).toBeLessThanOrEqual(STORAGE_QUOTA.bytes);
  });
});

describe('stored chat files in a bucket that stops answering', () => {
  let s3: S3Server;
  let t: TestApp;
  beforeAll(async () => {
    s3 = await startS3Server();
    t = await createTestApp(s3.env);
  });
  afterAll(async () => {
    await t.close();
    await s3.close();
  });

  it('keeps an orphan upload counted while the store cannot delete it, and deletes both on a later run', async () => {
    const user = await createUser(t.db);
    const cookie = (await createSessionCookie(t.db, user.id)).header;
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/api/chat/uploads',
      headers: { cookie },
      payload: formData({}, { field: 'file', bytes: TINY_PNG, filename: 'graph.png', type: 'image/png' }),
    });
    const { fileKey } = uploaded.json();
    await t.db
      .update(storedFiles)
      .set({ createdAt: sql`now() - interval '61 minutes'` })
      .where(eq(storedFiles.key, fileKey));
    const storage = createStorage(t.config.storage, t.app.log);
    const job = orphanUploadsJob(storage);
    await s3.stop();
    try {
      await expect(runJobOnce({ db: t.db, job })).rejects.toThrow(errorMessages.STORAGE_UNAVAILABLE);
      expect(await t.db.$count(storedFiles, eq(storedFiles.ownerId, user.id))).toBe(1);
    } finally {
      await s3.start();
    }
    expect(await runJobOnce({ db: t.db, job })).toBe(true);
    expect(await t.db.$count(storedFiles, eq(storedFiles.ownerId, user.id))).toBe(0);
    expect(await storage.get(fileKey)).toBeNull();
  });
});
