// `npm run restore <archive>`: an archive of `npm run backup` into an empty data directory (and empty database).
import 'dotenv/config';
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
} catch (error) {
  console.error(error instanceof BackupError || error instanceof ConfigError ? error.message : error);
  process.exitCode = 1;
}
