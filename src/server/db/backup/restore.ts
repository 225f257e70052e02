import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../config.ts';
import { preparePrivateDir } from '../../system/data-dir.ts';
import { BackupError, DATA_FOLDER, unpackArchive } from './archive.ts';
import { restoreEmbedded } from './embedded-dump.ts';
import { assertEmptyPostgres, restorePostgres } from './postgres-tools.ts';

async function assertEmptyDataDir(dataDir: string) {
  const entries = await readdir(dataDir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  if (entries.length > 0) {
    throw new BackupError(
      `The data directory ${dataDir} is not empty: a backup is restored only into an empty one ` +
        '(move it aside, or set DATA_DIR to a new directory). Nothing was written.',
    );
  }
}

/**
 * Brings an archive of createBackup into an empty data directory (and, with DATABASE_URL, an empty database).
 * Everything is checked before anything is written: the target is empty, every file of the archive is whole. The
 * new data directory is assembled beside the target and renamed into place once its database is restored.
 */
export async function restoreBackup(config: Pick<Config, 'dataDir' | 'databaseUrl'>, archive: string) {
  if (!existsSync(archive)) throw new BackupError(`There is no file ${archive}.`);
  await assertEmptyDataDir(config.dataDir);
  if (config.databaseUrl) await assertEmptyPostgres(config.databaseUrl);

  await mkdir(path.dirname(config.dataDir), { recursive: true });
  const staging = await mkdtemp(`${config.dataDir}.restoring-`);
  try {
    const manifest = await unpackArchive(archive, staging);
    const wanted = config.databaseUrl ? 'postgres' : 'embedded';
    if (manifest.database.kind !== wanted) {
      throw new BackupError(
        manifest.database.kind === 'postgres'
          ? 'This archive holds a PostgreSQL database: set DATABASE_URL to an empty database to restore it.'
          : 'This archive holds an embedded database: unset DATABASE_URL to restore it into DATA_DIR.',
      );
    }
    const dataDir = path.join(staging, DATA_FOLDER);
    const databaseFile = path.join(staging, manifest.database.path);
    if (config.databaseUrl) await restorePostgres(config.databaseUrl, databaseFile);
    else await restoreEmbedded(path.join(dataDir, 'db'), databaseFile);
    await rmdir(config.dataDir).catch(() => undefined);
    await rename(dataDir, config.dataDir);
    preparePrivateDir(config.dataDir);
    return manifest;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
