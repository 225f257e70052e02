import { buildApp } from '../../src/server/app.ts';
import { testConfig } from './test-config.ts';
import { openTestDatabase } from './test-database.ts';

/** The real app on a fresh clone of the migrated, seeded test database. Call close() in afterAll. */
export async function createTestApp(env: Record<string, string> = {}) {
  const config = testConfig(env);
  const database = await openTestDatabase();
  const app = await buildApp(config, { database });
  await app.ready();
  return {
    app,
    config,
    db: database.db,
    pool: database.pool,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;
