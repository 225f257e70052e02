import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TINY_PNG } from '../../../../tests/support/files.ts';
import { startS3Server, type S3Server } from '../../../../tests/support/s3-server.ts';
import { parseConfig } from '../../config.ts';
import { AppError } from '../../http/errors.ts';
import { copyStoredFiles } from './copy-files.ts';
import { createLocalStorage } from './local-storage.ts';
import { createStorage } from './storage.ts';

// The store as the app is given it, on local disk and in an S3 bucket (s3rver): what every driver answers the same.

const silent = pino({ level: 'silent' });

describe('the configured file store', () => {
  let s3: S3Server;
  let work: string;
  let source: string;
  beforeAll(async () => {
    s3 = await startS3Server();
    work = await mkdtemp(path.join(os.tmpdir(), 'vh-storage-'));
    source = path.join(work, 'source.png');
    await writeFile(source, TINY_PNG);
  });
  afterAll(async () => {
    await s3.close();
    await rm(work, { recursive: true, force: true });
  });

  const storeOn = (kind: 'local' | 's3') => {
    const env = kind === 's3' ? s3.env : {};
    return createStorage(parseConfig({ ...env, NODE_ENV: 'test', DATA_DIR: work }).storage, silent);
  };

  for (const kind of ['local', 's3'] as const) {
    it(`answers head with a file's type and size without reading it, and null for a missing one (${kind})`, async () => {
      const store = storeOn(kind);
      await store.put('avatars/headed.png', source, 'image/png');
      expect(await store.head('avatars/headed.png')).toEqual({ contentType: 'image/png', size: TINY_PNG.length });
      expect(await store.head('avatars/missing.png')).toBeNull();
    });

    it(`refuses a key the server should never have made as a programming error, not as the store failing (${kind})`, async () => {
      const store = storeOn(kind);
      for (const key of ['../outside.png', 'avatars/.hidden', '/absolute.png', 'avatars//twice.png']) {
        for (const operation of [
          () => store.get(key),
          () => store.head(key),
          () => store.delete(key),
          () => store.put(key, source, 'image/png'),
        ]) {
          const error = await operation().catch((failure: unknown) => failure);
          expect(error).toBeInstanceOf(Error);
          expect(error).not.toBeInstanceOf(AppError);
          expect((error as Error).message).toBe(`Invalid storage key: ${key}`);
        }
      }
    });
  }

  it('keeps a store that answered its check as up for a few seconds, and asks again after any failure', async () => {
    const store = storeOn('s3');
    await store.check();
    await s3.stop();
    try {
      // Kept: a probe right after does not ask the store again.
      await expect(store.check()).resolves.toBeUndefined();
      // A failed operation drops what was kept: the next probe asks, and finds it down.
      await expect(store.head('avatars/any.png')).rejects.toMatchObject({ code: 'STORAGE_UNAVAILABLE' });
      await expect(store.check()).rejects.toThrow();
    } finally {
      await s3.start();
    }
    await expect(store.check()).resolves.toBeUndefined();
  });

  it('copies only the files the target lacks when asked for only the missing ones, as a backup’s second pass', async () => {
    const from = createLocalStorage(path.join(work, 'from'));
    const to = createLocalStorage(path.join(work, 'to'));
    await from.put('chat/first.png', source, 'image/png');
    await from.put('chat/second.png', source, 'image/png');
    expect(await copyStoredFiles({ from, to, workDir: work, onlyMissing: true })).toEqual({
      files: 2,
      bytes: 2 * TINY_PNG.length,
    });
    await from.put('chat/third.png', source, 'image/png');
    expect(await copyStoredFiles({ from, to, workDir: work, onlyMissing: true })).toEqual({
      files: 1,
      bytes: TINY_PNG.length,
    });
    expect(await to.head('chat/third.png')).toEqual({ contentType: 'image/png', size: TINY_PNG.length });
    // Without it, every file is copied again (npm run storage:migrate checks each copy anew).
    expect((await copyStoredFiles({ from, to, workDir: work })).files).toBe(3);
  });
});
