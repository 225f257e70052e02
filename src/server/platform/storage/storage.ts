import type { Config } from '../../config.ts';
import { createLocalStorage } from './local-storage.ts';
import type { Storage } from './storage-port.ts';

export type { Storage, StoredFile } from './storage-port.ts';

export function createStorage(storage: Config['storage']): Storage {
  if (storage.kind === 's3') {
    // Fail at start rather than quietly keep files on one node's disk.
    throw new Error('S3 storage is not available yet: unset S3_BUCKET to keep uploads in $DATA_DIR/uploads.');
  }
  return createLocalStorage(storage.dir);
}
