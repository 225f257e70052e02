// `npm run restore <archive>`: an archive of `npm run backup` into an empty data directory (and empty database).
import 'dotenv/config';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, parseConfig } from '../src/server/config.ts';
import { BackupError } from '../src/server/db/backup/archive.ts';
import { restoreBackup } from '../src/server/db/backup/restore.ts';

const [file] = process.argv.slice(2);
if (!file) {
  console.error('Usage: npm run restore <archive written by npm run backup>');
  process.exit(1);
}

try {
  const config = parseConfig();
  const manifest = await restoreBackup(config, path.resolve(file));
  console.log(
    `Restored the backup of ${manifest.createdAt} (${manifest.files.length} files) into ${config.dataDir}` +
      `${config.databaseUrl ? ' and the database of DATABASE_URL' : ''}. Start the server with npm start.`,
  );
  // The log's default path follows DATA_DIR: restored elsewhere, the server would find no erasure to apply again.
  if (!existsSync(config.erasureLog)) {
    console.warn(
      `There is no erasure log at ${config.erasureLog}: accounts erased since the backup would come back. ` +
        'Set ERASURE_LOG to the log of the server the backup came from before starting this one.',
    );
  }
} catch (error) {
  console.error(error instanceof BackupError || error instanceof ConfigError ? error.message : error);
  process.exitCode = 1;
}
