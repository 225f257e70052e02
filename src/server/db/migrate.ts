import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type pg from 'pg';

// Beside this file in the sources, beside the bundle (copied by the build) in production.
const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

// Any constant: it only has to be the same for every server process sharing the database.
const MIGRATION_LOCK_KEY = 7_340_117;

/** Applies pending migrations; an advisory lock keeps two starting nodes from racing each other. */
export async function migrateDatabase(pool: pg.Pool) {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await migrate(drizzle(client), { migrationsFolder });
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    client.release();
  }
}
