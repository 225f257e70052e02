import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Storage } from './storage-port.ts';

// Copies every file of one store into another under the same key and type, and reads each copy back to prove it:
// `npm run storage:migrate` (disk to bucket) and backups of a bucket (bucket to the archive's folder).

export class CopyMismatchError extends Error {
  override name = 'CopyMismatchError';
}

/** SHA-256 and length of a stream, read to its end. */
async function digestOf(stream: Readable) {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { size, sha256: hash.digest('hex') };
}

/**
 * Copies each file `from` lists into `to`, then reads the copy back and compares its size and SHA-256 with the
 * original's; throws CopyMismatchError at the first that differs. A file deleted while the copy runs is skipped.
 * Each file passes through one temporary file in `workDir`, never whole through memory. With `onlyMissing`, a file
 * `to` already has at the same size is left as it is (the server never writes a key twice: a changed file gets a
 * new key), so a second pass copies only what came meanwhile.
 */
export async function copyStoredFiles({
  from,
  to,
  workDir,
  onlyMissing = false,
}: {
  from: Storage;
  to: Storage;
  workDir: string;
  onlyMissing?: boolean;
}) {
  const temporary = await mkdtemp(path.join(workDir, '.vh-copy-'));
  let files = 0;
  let bytes = 0;
  try {
    for await (const { key, size } of from.list()) {
      if (onlyMissing && (await to.head(key))?.size === size) continue;
      const original = await from.get(key);
      if (!original) continue;
      const file = path.join(temporary, randomUUID());
      await pipeline(original.stream, createWriteStream(file));
      const source = await digestOf(createReadStream(file));
      await to.put(key, file, original.contentType);
      await rm(file);

      const copy = await to.get(key);
      const copied = copy ? await digestOf(copy.stream) : null;
      const same =
        copied?.size === original.size &&
        copied.size === source.size &&
        copied.sha256 === source.sha256 &&
        copy?.contentType === original.contentType;
      if (!copied || !same) {
        throw new CopyMismatchError(`The copy of ${key} differs from the original; nothing after it was copied.`);
      }
      files += 1;
      bytes += copied.size;
    }
  } finally {
    await rm(temporary, { recursive: true, force: true });
  }
  return { files, bytes };
}
