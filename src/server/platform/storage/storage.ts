import type { Readable } from 'node:stream';
import type { Config } from '../../config.ts';
import { createLocalStorage } from './local-storage.ts';

export type StoredFile = { stream: Readable; contentType: string; size: number };

/** Where uploaded files live. Keys are paths such as `avatars/<uuid>.png`, chosen by the server. */
export interface Storage {
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The file and the content type it was stored with; null when there is none. */
  get(key: string): Promise<StoredFile | null>;
  /** Removes the file; a missing file is not an error. */
  delete(key: string): Promise<void>;
}

export function createStorage(storage: Config['storage']): Storage {
  if (storage.kind === 's3') {
    // Fail at start rather than quietly keep files on one node's disk.
    throw new Error('S3 storage is not available yet: unset S3_BUCKET to keep uploads in $DATA_DIR/uploads.');
  }
  return createLocalStorage(storage.dir);
}
