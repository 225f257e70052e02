import { createReadStream } from 'node:fs';
import {
  access,
  chmod,
  constants,
  copyFile,
  mkdir,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import path from 'node:path';
import { PRIVATE_FILE_MODE } from '../../system/data-dir.ts';
import { STORAGE_KEY_PATTERN, type Storage } from './storage-port.ts';

const META_SUFFIX = '.meta.json';
/** A file being copied in, renamed to its key once complete. */
const PARTIAL_SUFFIX = '.partial';

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/** Files on the local disk; each file's content type is kept beside it in `<file>.meta.json`. */
export function createLocalStorage(dir: string): Storage {
  const fileFor = (key: string) => {
    // Checked here too: the scripts use this store directly, and no key may lead out of the directory.
    if (!STORAGE_KEY_PATTERN.test(key)) throw new Error(`Invalid storage key: ${key}`);
    return path.join(dir, key);
  };
  const metaFor = (file: string) => `${file}${META_SUFFIX}`;
  const head = async (key: string) => {
    const file = fileFor(key);
    try {
      const [meta, info] = await Promise.all([readFile(metaFor(file), 'utf8'), stat(file)]);
      const { contentType } = JSON.parse(meta) as { contentType: string };
      return { contentType, size: info.size };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  };

  return {
    async put(key, sourceFile, contentType) {
      const file = fileFor(key);
      await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      await writeFile(metaFor(file), JSON.stringify({ contentType }), { mode: PRIVATE_FILE_MODE });
      // Copied aside (by the kernel, not through memory) and renamed, so a reader never sees half a file.
      await copyFile(sourceFile, `${file}${PARTIAL_SUFFIX}`);
      await chmod(`${file}${PARTIAL_SUFFIX}`, PRIVATE_FILE_MODE);
      await rename(`${file}${PARTIAL_SUFFIX}`, file);
    },

    async get(key) {
      const found = await head(key);
      return found && { ...found, stream: createReadStream(fileFor(key)) };
    },

    head,

    async delete(key) {
      const file = fileFor(key);
      await Promise.all([rm(file, { force: true }), rm(metaFor(file), { force: true })]);
    },

    async *list() {
      const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch((error: unknown) => {
        if (isMissing(error)) return [];
        throw error;
      });
      for (const entry of entries) {
        const key = path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
        if (
          !entry.isFile() ||
          key.endsWith(META_SUFFIX) ||
          key.endsWith(PARTIAL_SUFFIX) ||
          !STORAGE_KEY_PATTERN.test(key)
        )
          continue;
        const info = await stat(path.join(dir, key)).catch(() => null); // deleted meanwhile
        if (info) yield { key, size: info.size };
      }
    },

    async check() {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await access(dir, constants.R_OK | constants.W_OK);
    },
  };
}
