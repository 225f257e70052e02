import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import { AppError } from '../../http/errors.ts';
import { createLocalStorage } from './local-storage.ts';
import { createS3Storage } from './s3-storage.ts';
import { STORAGE_KEY_PATTERN, type Storage } from './storage-port.ts';

export type { Storage, StoredFile } from './storage-port.ts';

/** The configured store: local disk by default, an S3 bucket with S3_BUCKET. */
export function createStorage(storage: Config['storage'], log: FastifyBaseLogger): Storage {
  return withStoreErrors(storage.kind === 's3' ? createS3Storage(storage, log) : createLocalStorage(storage.dir), log);
}

/** A store that answered its check is taken to be up for this long: probes come every few seconds, from each proxy. */
const CHECK_KEPT_MS = 5_000;

/**
 * The store's own failures (down, access denied, disk full) logged with their cause and answered 503 with a text
 * the user understands, rather than 500 "something went wrong". A key the server should never have made is a
 * programming error (500), refused before the store is asked. The readiness check's success is kept a few seconds;
 * any failure of the store asks again at the next check.
 */
function withStoreErrors(storage: Storage, log: FastifyBaseLogger): Storage {
  let answeredAt = Number.NEGATIVE_INFINITY;
  const checked = (key: string) => {
    if (!STORAGE_KEY_PATTERN.test(key)) throw new Error(`Invalid storage key: ${key}`);
  };
  const failed = (operation: string, key: string | undefined) => (error: unknown) => {
    answeredAt = Number.NEGATIVE_INFINITY;
    log.error({ err: error, operation, key }, 'file store failed');
    throw new AppError('STORAGE_UNAVAILABLE');
  };
  return {
    put: async (key, sourceFile, contentType) => {
      checked(key);
      await storage.put(key, sourceFile, contentType).catch(failed('put', key));
    },
    get: async (key) => {
      checked(key);
      return storage.get(key).catch(failed('get', key));
    },
    head: async (key) => {
      checked(key);
      return storage.head(key).catch(failed('head', key));
    },
    delete: async (key) => {
      checked(key);
      await storage.delete(key).catch(failed('delete', key));
    },
    list: () => storage.list(),
    check: async () => {
      if (performance.now() - answeredAt < CHECK_KEPT_MS) return;
      await storage.check();
      answeredAt = performance.now();
    },
  };
}
