import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pgDump } from '@electric-sql/pglite-tools/pg_dump';
import { DataDirInUseError, lockDataDir } from '../data-dir-lock.ts';
import { socketDirFor } from '../embedded/embedded-server.ts';
import { requestSnapshot } from '../embedded/snapshot-endpoint.ts';
import { BackupError } from './archive.ts';

// The embedded database is dumped by pg_dump compiled to WebAssembly (@electric-sql/pglite-tools), which talks to a
// PGlite in the same thread. A running server holds the data directory, so it copies its files (a pause of one
// in-memory tarball) and the dump runs here, on a PGlite opened from that copy; without a server, on the directory
// itself while this process holds its lock. See docs/decisions/0032.

/** Whole INSERT statements (what pglite-tools emits, so PGlite can replay it), a few hundred rows at a time. */
const DUMP_ARGUMENTS = ['--no-owner', '--no-privileges', '--rows-per-insert=200'];

/** pg_dump's plain SQL of a PGlite database. */
export async function dumpPgliteSql(db: PGlite) {
  return (await pgDump({ pg: db, args: DUMP_ARGUMENTS })).text();
}

async function dumpToFile(db: PGlite, file: string) {
  await writeFile(file, await dumpPgliteSql(db), { mode: 0o600 });
}

/** The server answering on this data directory's snapshot socket copies its database into `tarball`. */
async function snapshotFromServer(dataDir: string, tarball: string) {
  try {
    await requestSnapshot(socketDirFor(dataDir), tarball);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ECONNREFUSED') {
      throw new BackupError(
        `The server holding ${dataDir} does not answer backup requests (started before backups existed?): ` +
          'restart it once, then run this again.',
      );
    }
    throw error;
  }
}

export async function dumpEmbedded(dataDir: string, file: string) {
  const databaseDir = path.join(dataDir, 'db');
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    throw new BackupError(`There is no database in ${databaseDir}: check DATA_DIR.`);
  }
  let lock: { release(): void };
  try {
    lock = lockDataDir(dataDir);
  } catch (error) {
    if (!(error instanceof DataDirInUseError)) throw error;
    const tarball = `${file}.tar`;
    try {
      await snapshotFromServer(dataDir, tarball);
      const copy = await PGlite.create({ loadDataDir: new Blob([await readFile(tarball)]) });
      await dumpToFile(copy, file).finally(() => copy.close());
    } finally {
      await rm(tarball, { force: true });
    }
    return;
  }
  try {
    const db = await PGlite.create(databaseDir);
    await dumpToFile(db, file).finally(() => db.close());
  } finally {
    lock.release();
  }
}

/** Replays a dump into a new database cluster in `databaseDir`. */
export async function restoreEmbedded(databaseDir: string, file: string) {
  const db = await PGlite.create(databaseDir);
  try {
    await db.exec(await readFile(file, 'utf8'));
  } finally {
    await db.close();
  }
}
