import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import { AppError } from '../../http/errors.ts';
import { createLocalStorage } from './local-storage.ts';
import { createS3Storage } from './s3-storage.ts';
import type { Storage } from './storage-port.ts';

export type { Storage, StoredFile } from './storage-port.ts';

/** The configured store: local disk by default, an S3 bucket with S3_BUCKET. */
export function createStorage(storage: Config['storage'], log: FastifyBaseLogger): Storage {
  return withStoreErrors(storage.kind === 's3' ? createS3Storage(storage, log) : createLocalStorage(storage.dir), log);
}

/**
 * The store's own failures (down, access denied, disk full) logged with their cause and answered 503 with a text
 * the user understands, rather than 500 "something went wrong".
 */
function withStoreErrors(storage: Storage, log: FastifyBaseLogger): Storage {
  const failed = (operation: string, key: string | undefined) => (error: unknown) => {
    log.error({ err: error, operation, key }, 'file store failed');
    throw new AppError('STORAGE_UNAVAILABLE');
  };
  return {
    put: (key, sourceFile, contentType) => storage.put(key, sourceFile, contentType).catch(failed('put', key)),
    get: (key) => storage.get(key).catch(failed('get', key)),
    delete: (key) => storage.delete(key).catch(failed('delete', key)),
    list: () => storage.list(),
    check: () => storage.check(),
  };
}
