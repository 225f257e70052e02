// The built app on a fresh embedded database, migrated and seeded, for the benchmarks that measure the default install.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/server/app.ts';
import { parseConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/client.ts';
import { migrateDatabase } from '../src/server/db/migrate.ts';
import { seedDatabase } from '../src/server/db/seed.ts';
import { TEST_AUTH_SECRET } from '../tests/support/test-config.ts';

/**
 * The production configuration of an app built inside the benchmark's own process, on this data directory; `env`
 * changes it (the payments benchmark needs the `test` provider, which production refuses).
 */
export const benchAppConfig = (dataDir: string, env: Record<string, string> = {}) =>
  parseConfig({
    NODE_ENV: 'production',
    PAYMENTS_PROVIDER: 'none',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    AUTH_SECRET: TEST_AUTH_SECRET,
    ADMIN_PASSWORD: 'Bench-password-1',
    ...env,
  });

/** Runs `measure` against a fresh app and database in a temporary directory named `name`, removed afterwards. */
export async function withEmbeddedApp<T>(
  name: string,
  measure: (env: {
    app: Awaited<ReturnType<typeof buildApp>>;
    db: Awaited<ReturnType<typeof openDatabase>>['db'];
  }) => Promise<T>,
  env: Record<string, string> = {},
): Promise<T> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `vh-bench-${name}-`));
  const config = benchAppConfig(dataDir, env);
  const database = await openDatabase({ kind: 'embedded', dataDir: path.join(dataDir, 'db'), socketDir: dataDir });
  const app = await buildApp(config, { database });
  try {
    await migrateDatabase(database.pool);
    await seedDatabase({
      db: database.db,
      config,
      log: { info: () => undefined, warn: () => undefined },
      tellOperator: () => undefined,
    });
    await app.ready();
    return await measure({ app, db: database.db });
  } finally {
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
