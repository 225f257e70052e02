import 'dotenv/config';
import { buildApp } from './app.ts';
import { ConfigError, parseConfig } from './config.ts';
import { databaseSourceFor, openDatabase } from './db/client.ts';
import { DataDirInUseError, lockDataDir } from './db/data-dir-lock.ts';
import { migrateDatabase } from './db/migrate.ts';
import { seedDatabase } from './db/seed.ts';
import { preparePrivateDir } from './platform/data-dir.ts';
import { describeDevMail } from './platform/mail/mailer.ts';

async function start() {
  const config = parseConfig();
  const source = databaseSourceFor(config);
  preparePrivateDir(config.dataDir);
  const lock = source.kind === 'embedded' ? lockDataDir(config.dataDir) : undefined;

  const database = await openDatabase(source);
  await migrateDatabase(database.pool);
  // Without a mail server, each mail's links go to the terminal so an account can be confirmed from there.
  const app = await buildApp(config, { database, onDevMail: (mail) => console.log(describeDevMail(mail)) });
  await seedDatabase({ db: database.db, config, log: app.log });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    // Stops accepting connections, lets requests in flight finish, then runs the onClose hooks.
    await app.close();
    await database.close();
    lock?.release();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    `Virtual Help is ready at ${config.publicUrl} (${database.kind === 'embedded' ? `embedded database in ${config.dataDir}` : 'PostgreSQL'})`,
  );
}

start().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirInUseError) {
    console.error(error.message);
  } else {
    console.error('Virtual Help could not start:', error);
  }
  process.exit(1);
});
