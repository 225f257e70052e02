import { copyFile, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { constants, existsSync } from 'node:fs';
import path from 'node:path';
import { localUploadsDir, type Config } from '../../config.ts';
import { describeFile, inData, writeArchive, type BackupManifest } from './archive.ts';
import { dumpEmbedded } from './embedded-dump.ts';
import { dumpPostgres } from './postgres-tools.ts';

/**
 * What of the data directory a backup keeps: every upload, the generated session secret (without it every session
 * ends and what is sealed with it cannot be read) and the generated Web Push keys (without them no device subscribed
 * gets a push). Not the dev outbox, uploads still arriving, the lock.
 */
const KEPT_FILES = ['auth-secret', 'vapid-keys.json'];
const KEPT_FOLDERS = ['uploads'];
/** A file being written by the storage (local-storage.ts), renamed to its name once complete. */
const isPartial = (file: string) => file.endsWith('.partial');

async function keptFiles(dataDir: string) {
  const files = KEPT_FILES.filter((file) => existsSync(path.join(dataDir, file)));
  for (const folder of KEPT_FOLDERS) {
    const entries = await readdir(path.join(dataDir, folder), { recursive: true, withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const file = path.relative(dataDir, path.join(entry.parentPath, entry.name));
      if (entry.isFile() && !isPartial(file)) files.push(file);
    }
  }
  return files;
}

/** The files in the staging area's data folder, as paths inside the data directory, sorted. */
async function stagedFiles(staging: string) {
  const root = path.join(staging, inData(''));
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .sort();
}

/** Copies the kept files not copied yet into the staging area; one deleted meanwhile is skipped. */
async function copyKeptFiles(dataDir: string, staging: string, copied: Set<string>) {
  for (const file of await keptFiles(dataDir)) {
    if (copied.has(file)) continue;
    const target = path.join(staging, inData(file));
    await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    try {
      await copyFile(path.join(dataDir, file), target, constants.COPYFILE_FICLONE);
      copied.add(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

/**
 * Writes one archive of the database and the data directory's files while the server runs. Files are copied
 * before and after the database's snapshot, so one the snapshot names is there even when it is replaced
 * (an avatar) or first written (an upload) during the backup.
 */
export async function createBackup(
  config: Pick<Config, 'dataDir' | 'databaseUrl'>,
  archive: string,
  {
    copyBucket,
  }: {
    /**
     * With files in a bucket: copies its objects into this folder, laid out as the local store keeps them, so a
     * restore puts them into $DATA_DIR/uploads and `npm run storage:migrate` takes them back into a bucket.
     */
    copyBucket?: (uploadsDir: string) => Promise<unknown>;
  } = {},
) {
  await mkdir(path.dirname(archive), { recursive: true });
  const staging = await mkdtemp(path.join(path.dirname(archive), '.vh-backup-'));
  try {
    const copied = new Set<string>();
    const copyFiles = async () => {
      await copyBucket?.(localUploadsDir(path.join(staging, inData(''))));
      await copyKeptFiles(config.dataDir, staging, copied);
    };
    await copyFiles();
    const kind = config.databaseUrl ? 'postgres' : 'embedded';
    const databaseFile = kind === 'postgres' ? 'database.pgdump' : 'database.sql';
    if (config.databaseUrl) await dumpPostgres(config.databaseUrl, path.join(staging, databaseFile));
    else await dumpEmbedded(config.dataDir, path.join(staging, databaseFile));
    await copyFiles();

    const files = [];
    for (const file of await stagedFiles(staging))
      files.push({ ...(await describeFile(staging, inData(file))), path: file });
    const manifest: BackupManifest = {
      format: 'virtual-help-backup',
      version: 1,
      createdAt: new Date().toISOString(),
      database: { kind, ...(await describeFile(staging, databaseFile)) },
      files,
    };
    await mkdir(path.join(staging, inData('')), { recursive: true, mode: 0o700 });
    await writeArchive(staging, manifest, archive);
    return manifest;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
