import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, type Dirent } from 'node:fs';
import { lstat, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';

/** A refusal or failure the operator can act on: the commands print its message alone and exit non-zero. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

export type ArchivedFile = { path: string; size: number; sha256: string };

/**
 * What a backup archive holds, written into it as manifest.json: the database dump (pg_dump's plain SQL for the
 * embedded database, its custom format for PostgreSQL) and the data directory's files (under `data/`), each with
 * its size and SHA-256 so that a restore can prove the archive whole before it writes anything.
 */
export type BackupManifest = {
  format: typeof FORMAT;
  version: 1;
  createdAt: string;
  database: ArchivedFile & { kind: 'embedded' | 'postgres' };
  files: ArchivedFile[];
};

const FORMAT = 'virtual-help-backup';
export const MANIFEST_FILE = 'manifest.json';
/** The data directory's files sit under this folder of the archive. */
export const DATA_FOLDER = 'data';

const run = promisify(execFile);

export async function describeFile(root: string, relative: string): Promise<ArchivedFile> {
  const file = path.join(root, relative);
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return { path: relative, size: (await lstat(file)).size, sha256: hash.digest('hex') };
}

export async function writeArchive(staging: string, manifest: BackupManifest, archive: string) {
  await writeFile(path.join(staging, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  const partial = `${archive}.partial`;
  const entries = [MANIFEST_FILE, manifest.database.path, DATA_FOLDER];
  await run('tar', ['-cf', partial, '-C', staging, ...entries]);
  // Renamed once complete, so an archive under its name is never half written.
  await rename(partial, archive);
}

/** Everything under `dir` but directories (symbolic links included, never followed), relative to it. */
async function listEntries(dir: string) {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const relative = (entry: Dirent) => path.relative(dir, path.join(entry.parentPath, entry.name));
  return {
    all: entries.filter((entry) => !entry.isDirectory()).map(relative),
    regularFiles: new Set(entries.filter((entry) => entry.isFile()).map(relative)),
  };
}

const isSafeRelativePath = (relative: string) =>
  !path.isAbsolute(relative) &&
  path
    .normalize(relative)
    .split(path.sep)
    .every((part) => part && part !== '..');

/**
 * Unpacks the archive into `staging` and checks it against its manifest: every file named there with its size and
 * SHA-256, and nothing else.
 */
export async function unpackArchive(archive: string, staging: string): Promise<BackupManifest> {
  try {
    await run('tar', ['-xf', archive, '-C', staging]);
  } catch (error) {
    throw new BackupError(`${archive} is not a readable backup archive: ${(error as Error).message.trim()}`);
  }
  // Read as unknown until its format is checked: the archive may be anything.
  let manifest: Partial<BackupManifest> | null;
  try {
    manifest = JSON.parse(await readFile(path.join(staging, MANIFEST_FILE), 'utf8')) as Partial<BackupManifest> | null;
  } catch {
    throw new BackupError(`${archive} has no readable ${MANIFEST_FILE}: it is not a Virtual Help backup.`);
  }
  if (manifest?.format !== FORMAT || manifest.version !== 1 || !manifest.database || !manifest.files) {
    throw new BackupError(`${archive} is not a Virtual Help backup this version can restore.`);
  }
  const expected = [manifest.database, ...manifest.files.map((file) => ({ ...file, path: inData(file.path) }))];
  const { all, regularFiles } = await listEntries(staging);
  const present = new Set(all.filter((file) => file !== MANIFEST_FILE));
  for (const file of expected) {
    if (!isSafeRelativePath(file.path) || !regularFiles.has(file.path)) {
      throw new BackupError(`The archive is damaged: ${file.path} is missing.`);
    }
    const found = await describeFile(staging, file.path);
    if (found.size !== file.size || found.sha256 !== file.sha256) {
      throw new BackupError(`The archive is damaged: ${file.path} is not the file that was backed up.`);
    }
    present.delete(file.path);
  }
  if (present.size > 0) throw new BackupError(`The archive is damaged: ${[...present][0]} is not in its manifest.`);
  return manifest as BackupManifest;
}

/** A data-directory file's place in the archive. */
export const inData = (relative: string) => path.join(DATA_FOLDER, relative);
