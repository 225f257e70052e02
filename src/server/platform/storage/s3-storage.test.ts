import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorMessages } from '#shared/errors.ts';
import { storedFiles } from '../../db/schema/limits.ts';
import { users } from '../../db/schema/auth.ts';
import { createSessionCookie, createUser } from '../../../../tests/support/factories.ts';
import { formData, TINY_PNG } from '../../../../tests/support/files.ts';
import { startS3Server, type S3Server } from '../../../../tests/support/s3-server.ts';
import { runToExit, signUpStudent, startTestServerProcess } from '../../../../tests/support/server-process.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { parseConfig } from '../../config.ts';
import { unpackArchive } from '../../db/backup/archive.ts';
import { createLocalStorage } from './local-storage.ts';
import { createS3Storage } from './s3-storage.ts';
import type { Storage } from './storage-port.ts';

// The S3 driver against s3rver, an S3 server started in this process. The tests of each kind of upload and download
// run on it too (the api-s3 project); these cover what only a bucket does: where the objects are, the store being
// down, and moving files into a bucket.

const BACKUP = [process.execPath, '--import', 'tsx', 'scripts/backup.ts'];
const MIGRATE = [process.execPath, '--import', 'tsx', 'scripts/storage-migrate.ts'];
const STORAGE_UNAVAILABLE = { code: 'STORAGE_UNAVAILABLE', message: errorMessages.STORAGE_UNAVAILABLE };

const bucketOf = (env: Record<string, string>) => {
  const { storage } = parseConfig({ ...env, NODE_ENV: 'test', DATA_DIR: os.tmpdir() });
  if (storage.kind !== 's3') throw new Error('not an S3 configuration');
  return createS3Storage(storage);
};

async function bytesOf(storage: Storage, key: string) {
  const file = await storage.get(key);
  if (!file) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of file.stream) chunks.push(chunk as Buffer);
  return { bytes: Buffer.concat(chunks), contentType: file.contentType };
}

describe('files in an S3 bucket', () => {
  let s3: S3Server;
  let t: TestApp;
  let bucket: Storage;
  beforeAll(async () => {
    s3 = await startS3Server();
    t = await createTestApp(s3.env);
    bucket = bucketOf(s3.env);
  });
  afterAll(async () => {
    await t.close();
    await s3.close();
  });

  const signedIn = async () => {
    const user = await createUser(t.db);
    return { user, cookie: (await createSessionCookie(t.db, user.id)).header };
  };
  const png = (field: string) => formData({}, { field, bytes: TINY_PNG, filename: 'graph.png', type: 'image/png' });
  const uploadToChat = (cookie: string) =>
    t.app.inject({ method: 'POST', url: '/api/chat/uploads', headers: { cookie }, payload: png('file') });
  const uploadAvatar = (cookie: string) =>
    t.app.inject({ method: 'POST', url: '/api/profile/avatar', headers: { cookie }, payload: png('avatar') });

  it('keeps uploads as objects of the bucket under their detected type, and serves them from there', async () => {
    const { cookie } = await signedIn();
    const chat = await uploadToChat(cookie);
    expect(chat.statusCode).toBe(201);
    expect(await bytesOf(bucket, chat.json().fileKey)).toEqual({ bytes: TINY_PNG, contentType: 'image/png' });

    const avatar = await uploadAvatar(cookie);
    expect(avatar.statusCode).toBe(200);
    const url: string = avatar.json().image;
    expect(await bytesOf(bucket, `avatars/${url.split('/').pop()}`)).toEqual({
      bytes: TINY_PNG,
      contentType: 'image/png',
    });
    const served = await t.app.inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(TINY_PNG)).toBe(true);
    // Nothing on the server's disk: another server finds the same files.
    expect(await createLocalStorage(path.join(t.config.dataDir, 'uploads')).get(chat.json().fileKey)).toBeNull();
  });

  it('answers 503 with a clear message while the store is down, keeps nothing that names a missing file, and recovers', async () => {
    const { user, cookie } = await signedIn();
    const before = await uploadAvatar(cookie);
    const avatarUrl: string = before.json().image;
    await s3.stop();
    try {
      const chat = await uploadToChat(cookie);
      expect(chat.statusCode).toBe(503);
      expect(chat.json()).toEqual(STORAGE_UNAVAILABLE);
      // The quota claimed for it is given back.
      expect(await t.db.$count(storedFiles, eq(storedFiles.ownerId, user.id))).toBe(0);

      const avatar = await uploadAvatar(cookie);
      expect(avatar.statusCode).toBe(503);
      expect(avatar.json()).toEqual(STORAGE_UNAVAILABLE);
      const [row] = await t.db.select({ image: users.image }).from(users).where(eq(users.id, user.id));
      expect(row!.image).toBe(avatarUrl);

      const download = await t.app.inject({ method: 'GET', url: avatarUrl });
      expect(download.statusCode).toBe(503);
      expect(download.json()).toEqual(STORAGE_UNAVAILABLE);

      const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ ready: false, storage: 'down', database: 'up' });
    } finally {
      await s3.start();
    }
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).json()).toMatchObject({ storage: 'up' });
    expect((await uploadToChat(cookie)).statusCode).toBe(201);
    expect((await t.app.inject({ method: 'GET', url: avatarUrl })).statusCode).toBe(200);
  });

  it('answers 503 with a clear message when the store refuses the keys, and keeps nothing of the refused upload', async () => {
    const denied = await createTestApp({ ...s3.env, S3_ACCESS_KEY_ID: 'NOT-THE-KEY' });
    try {
      const user = await createUser(denied.db);
      const cookie = (await createSessionCookie(denied.db, user.id)).header;
      const chat = await denied.app.inject({
        method: 'POST',
        url: '/api/chat/uploads',
        headers: { cookie },
        payload: png('file'),
      });
      expect(chat.statusCode).toBe(503);
      expect(chat.json()).toEqual(STORAGE_UNAVAILABLE);
      expect(await denied.db.$count(storedFiles, eq(storedFiles.ownerId, user.id))).toBe(0);
      expect((await denied.app.inject({ method: 'GET', url: '/readyz' })).json()).toMatchObject({ storage: 'down' });
    } finally {
      await denied.close();
    }
  });

  it('copies the files of the local disk into the bucket with npm run storage:migrate, each copy read back', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'vh-migrate-'));
    try {
      const local = createLocalStorage(path.join(dataDir, 'uploads'));
      const source = path.join(dataDir, 'source');
      await writeFile(source, TINY_PNG);
      await local.put('avatars/migrated.png', source, 'image/png');
      await writeFile(source, 'Notes for the lesson\n');
      await local.put('request-attachments/migrated.txt', source, 'text/plain');
      await rm(source);

      const migrated = await runToExit(MIGRATE, { ...s3.env, DATA_DIR: dataDir });
      expect(migrated.output).toContain(`Copied 2 files (${TINY_PNG.length + 21} bytes)`);
      expect(migrated.code).toBe(0);
      expect(await bytesOf(bucket, 'avatars/migrated.png')).toEqual({ bytes: TINY_PNG, contentType: 'image/png' });
      expect(await bytesOf(bucket, 'request-attachments/migrated.txt')).toEqual({
        bytes: Buffer.from('Notes for the lesson\n'),
        contentType: 'text/plain',
      });
      // The local files stay until the operator removes them.
      expect(await readFile(path.join(dataDir, 'uploads', 'avatars', 'migrated.png'))).toEqual(TINY_PNG);

      await s3.stop();
      try {
        const refused = await runToExit(MIGRATE, { ...s3.env, DATA_DIR: dataDir });
        expect(refused.code).toBe(1);
      } finally {
        await s3.start();
      }
      const withoutBucket = await runToExit(MIGRATE, { DATA_DIR: dataDir, S3_BUCKET: '' });
      expect(withoutBucket).toEqual({ code: 1, output: expect.stringContaining('S3_BUCKET') });
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('takes the bucket into npm run backup, in the layout storage:migrate takes back into a bucket', async () => {
    const server = await startTestServerProcess(s3.env);
    const work = await mkdtemp(path.join(os.tmpdir(), 'vh-s3-backup-'));
    const emptyBucket = await startS3Server();
    try {
      const { cookie } = await signUpStudent(server.url);
      const uploaded = await fetch(`${server.url}/api/chat/uploads`, {
        method: 'POST',
        headers: { cookie, origin: server.url },
        body: png('file'),
      });
      expect(uploaded.status).toBe(201);
      const { fileKey } = (await uploaded.json()) as { fileKey: string };

      const archive = path.join(work, 'backup.tar');
      const backup = await runToExit([...BACKUP, archive], {
        ...s3.env,
        DATA_DIR: server.dataDir,
        DATABASE_URL: server.databaseUrl ?? '',
      });
      expect(backup.code, backup.output).toBe(0);
      const unpacked = path.join(work, 'unpacked');
      await mkdir(unpacked);
      const manifest = await unpackArchive(archive, unpacked);
      expect(manifest.files.map((file) => file.path)).toEqual(
        expect.arrayContaining([`uploads/${fileKey}`, `uploads/${fileKey}.meta.json`]),
      );

      // Restored (the archive's data folder), the files go back into a bucket.
      const migrated = await runToExit(MIGRATE, { ...emptyBucket.env, DATA_DIR: path.join(unpacked, 'data') });
      expect(migrated.code, migrated.output).toBe(0);
      expect(await bytesOf(bucketOf(emptyBucket.env), fileKey)).toEqual({ bytes: TINY_PNG, contentType: 'image/png' });
    } finally {
      await server.stop();
      await emptyBucket.close();
      await rm(work, { recursive: true, force: true });
    }
  }, 120_000);
});
