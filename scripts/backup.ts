// `npm run backup [archive]`: one archive of the database and the uploaded files, taken while the server runs.
import 'dotenv/config';
import path from 'node:path';
import { ConfigError, parseConfig } from '../src/server/config.ts';
import { BackupError } from '../src/server/db/backup/archive.ts';
import { createBackup } from '../src/server/db/backup/backup.ts';
import { copyStoredFiles } from '../src/server/platform/storage/copy-files.ts';
import { createLocalStorage } from '../src/server/platform/storage/local-storage.ts';
import { createS3Storage } from '../src/server/platform/storage/s3-storage.ts';

const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const archive = path.resolve(process.argv[2] ?? path.join('backups', `virtual-help-${stamp}.tar`));

try {
  const config = parseConfig();
  const started = performance.now();
  const { storage } = config;
  const manifest = await createBackup(config, archive, {
    // Before and after the database's dump: the second pass adds the objects uploaded meanwhile.
    copyBucket:
      storage.kind === 's3'
        ? (uploadsDir) =>
            copyStoredFiles({
              from: createS3Storage(storage),
              to: createLocalStorage(uploadsDir),
              workDir: path.dirname(archive),
              onlyMissing: true,
            })
        : undefined,
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `Backed up the ${manifest.database.kind === 'postgres' ? 'PostgreSQL' : 'embedded'} database and ` +
      `${manifest.files.length} files to ${archive} in ${seconds} s.`,
  );
} catch (error) {
  console.error(error instanceof BackupError || error instanceof ConfigError ? error.message : error);
  process.exitCode = 1;
}
