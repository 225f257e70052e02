import 'dotenv/config';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { buildApp } from './app.ts';
import { ConfigError, parseConfig, type Config } from './config.ts';
import { databaseSourceFor, openDatabase } from './db/client.ts';
import { DataDirInUseError, lockDataDir } from './db/data-dir-lock.ts';
import { socketDirFor } from './db/embedded/embedded-server.ts';
import { serveSnapshots } from './db/embedded/snapshot-endpoint.ts';
import { migrateDatabase } from './db/migrate.ts';
import { seedDatabase } from './db/seed.ts';
import { preparePrivateDir, PRIVATE_FILE_MODE } from './system/data-dir.ts';
import { describeDevMail } from './platform/mail/mailer.ts';

/**
 * A secret for whoever started the server: printed when a person watches the terminal, else (a service manager
 * collecting the output into a log) kept in a private file of the data directory, and the log says only where.
 */
function tellOperator(config: Config, message: string) {
  if (process.stdout.isTTY) {
    console.log(message);
    return;
  }
  const file = path.join(config.dataDir, 'admin-password.txt');
  writeFileSync(file, `${message}\n`, { mode: PRIVATE_FILE_MODE });
  console.log(`The generated admin password is in ${file} (readable by this user only; delete it once noted).`);
}

async function start() {
  const config = parseConfig();
  const source = databaseSourceFor(config);
  preparePrivateDir(config.dataDir);
  const lock = source.kind === 'embedded' ? lockDataDir(config.dataDir) : undefined;

  const database = await openDatabase(source);
  await migrateDatabase(database.pool);
  // `npm run backup` reaches the embedded database through this server, which holds its files.
  const { dump } = database;
  const snapshots = dump
    ? await serveSnapshots({ socketDir: socketDirFor(config.dataDir), snapshot: dump })
    : undefined;
  // Without a mail server, each mail's links go to the terminal so an account can be confirmed from there.
  const app = await buildApp(config, {
    database,
    onDevMail: (mail) => console.log(describeDevMail(mail, { toTerminal: Boolean(process.stdout.isTTY) })),
  });
  await seedDatabase({
    db: database.db,
    config,
    log: app.log,
    tellOperator: (message) => tellOperator(config, message),
  });

  let stopping = false;
  const stop = async (signal: 'SIGTERM' | 'SIGINT') => {
    if (stopping) return;
    stopping = true;
    const { drainDelayMs, timeoutMs } = config.shutdown;
    // Whatever holds the shutdown up (a request that never ends, a stuck job), the process ends within the bound.
    setTimeout(() => {
      app.log.error({ timeoutMs }, 'shutdown took too long: exiting with work unfinished');
      process.exit(1);
    }, timeoutMs).unref();
    // A service manager or an orchestrator stops with SIGTERM: first the node reports not ready while it still
    // serves, so the proxy stops sending it work. Ctrl-C (SIGINT) in a terminal stops at once.
    app.startDraining();
    if (signal === 'SIGTERM' && drainDelayMs > 0) {
      app.log.info({ drainDelayMs }, 'draining: not ready, still serving');
      await delay(drainDelayMs);
    }
    app.log.info({ signal }, 'shutting down');
    // Tells sockets to reconnect, stops accepting connections, lets requests in flight finish, then runs the
    // onClose hooks (jobs finish the run they are in).
    await app.close();
    await snapshots?.close();
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
