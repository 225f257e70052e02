import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/client.ts';
import { createSessionCookie, createUser } from './factories.ts';
import { SERVER_COMMAND, startServerProcess, type ServerProcess } from './server-process.ts';
import { TEST_AUTH_SECRET } from './test-config.ts';
import { withAdminClient } from './test-database.ts';

export type Cluster = {
  /** The server processes, each with a data directory of its own. */
  servers: ServerProcess[];
  /** The test's own connection to the cluster's database. */
  database: DatabaseHandle;
  databaseName: string;
  /** The environment a further process of the cluster starts with (add DATA_DIR). */
  env: Record<string, string>;
  /** A new user (a student unless `overrides` say otherwise) with a session cookie valid on every process. */
  signedIn(
    overrides?: Parameters<typeof createUser>[1],
  ): Promise<Awaited<ReturnType<typeof createUser>> & { cookie: string }>;
  /**
   * Ends the processes' connections to the database as PostgreSQL itself may (a restart, a fail-over, an
   * administrator): every one, or only those that LISTEN. Resolves with how many were ended.
   */
  terminateDatabaseConnections(options?: { onlyListening?: boolean }): Promise<number>;
  stop(): Promise<void>;
};

/**
 * Server processes on loopback against one new PostgreSQL database, as a real deployment runs them: the first
 * migrates and seeds it. Made from the template server's address; dropped again by `stop()`. `env` adds to
 * every process's environment (e.g. REDIS_URL).
 */
export async function startCluster(
  templateUrl: string,
  {
    name,
    size = 2,
    env: extraEnv = {},
    startTimeoutMs = 60_000,
  }: { name: string; size?: number; env?: Record<string, string>; startTimeoutMs?: number },
) {
  const databaseName = `vh_${name}_${randomBytes(6).toString('hex')}`;
  await withAdminClient(templateUrl, (client) => client.query(`create database ${databaseName}`));
  const url = new URL(templateUrl);
  url.pathname = `/${databaseName}`;
  const env = {
    DATABASE_URL: url.toString(),
    AUTH_SECRET: TEST_AUTH_SECRET,
    ADMIN_PASSWORD: 'Admin-password-1',
    ...extraEnv,
  };
  const servers: ServerProcess[] = [];
  for (let n = 0; n < size; n++) {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vh-node-'));
    servers.push(await startServerProcess(SERVER_COMMAND, { ...env, DATA_DIR: dataDir }, startTimeoutMs));
  }
  const database = await openDatabase({ kind: 'postgres', url: url.toString() });
  return {
    servers,
    database,
    databaseName,
    env,
    async signedIn(overrides) {
      const user = await createUser(database.db, overrides);
      return { ...user, cookie: (await createSessionCookie(database.db, user.id)).header };
    },
    async terminateDatabaseConnections({ onlyListening = false } = {}) {
      // The test's own pool loses its connections too, and replaces them as the servers' pools do.
      const ended = await withAdminClient(templateUrl, (client) =>
        client.query(
          `select pg_terminate_backend(pid) from pg_stat_activity
            where datname = $1 and pid <> pg_backend_pid() and ($2::boolean = false or query ilike 'LISTEN%')`,
          [databaseName, onlyListening],
        ),
      );
      return ended.rowCount ?? 0;
    },
    async stop() {
      await Promise.all(servers.map((server) => server.stop()));
      await database.close();
      await withAdminClient(templateUrl, (client) =>
        client.query(`drop database if exists ${databaseName} with (force)`),
      );
    },
  } satisfies Cluster;
}
