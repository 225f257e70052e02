import type { FileToSend } from '../../http/send-file.ts';

/** A stored file as routes send it. */
export type StoredFile = FileToSend;

/**
 * The keys the server chooses: path segments of letters, digits, dot, dash and underscore, none starting with a dot
 * (so none leads out of a folder on disk).
 */
export const STORAGE_KEY_PATTERN = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

/** Where uploaded files live. Keys are paths such as `avatars/<uuid>.png`, chosen by the server. */
export interface Storage {
  /** Stores a copy of the file at `sourceFile` (an upload's temporary file) under `key`. */
  put(key: string, sourceFile: string, contentType: string): Promise<void>;
  /** The file and the content type it was stored with; null when there is none. */
  get(key: string): Promise<StoredFile | null>;
  /** The content type and size of the file, without reading it; null when there is none. */
  head(key: string): Promise<Omit<StoredFile, 'stream'> | null>;
  /** Removes the file; a missing file is not an error. */
  delete(key: string): Promise<void>;
  /** Every stored file's key and size, for backups and moving files between stores. */
  list(): AsyncIterable<{ key: string; size: number }>;
  /** Resolves when the store answers, for the readiness probe; throws otherwise. */
  check(): Promise<void>;
}
