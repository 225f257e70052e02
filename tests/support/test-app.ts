import { buildApp, type AppDependencies } from '../../src/server/app.ts';
import { testConfig } from './test-config.ts';
import { openTestDatabase } from './test-database.ts';

/** The real app on a fresh clone of the migrated, seeded test database. Call close() in afterAll. */
export async function createTestApp(
  env: Record<string, string> = {},
  dependencies: Omit<AppDependencies, 'database'> = {},
) {
  const config = testConfig(env);
  const database = await openTestDatabase();
  const app = await buildApp(config, { ...dependencies, database });
  await app.ready();
  return {
    app,
    config,
    realtime: app.realtime,
    db: database.db,
    pool: database.pool,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;
