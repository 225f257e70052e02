import path from 'node:path';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema/index.ts';
import { startEmbeddedServer, type EmbeddedCrashListener, type EmbeddedServer } from './embedded/embedded-server.ts';

export type Database = NodePgDatabase<typeof schema>;
/** A transaction or the database itself: services accept either so callers can compose them. */
export type Executor = Database | Parameters<Parameters<Database['transaction']>[0]>[0];

type DatabaseSource =
  | { kind: 'postgres'; url: string }
  | {
      kind: 'embedded';
      /** Where the database files live; undefined keeps them in memory (tests). */
      dataDir?: string;
      socketDir: string;
      /** Start from a dumped, already-migrated database (tests). */
      templateFile?: string;
    };

export type DatabaseHandle = {
  db: Database;
  pool: pg.Pool;
  kind: DatabaseSource['kind'];
  /** Embedded only: writes the whole database to a tarball that `templateFile` can start from. */
  dump?: (file: string) => Promise<void>;
  /** Why the embedded database has gone for good (its worker ended after start-up), else null. */
  failure(): Error | null;
  /** Calls `listener` when the embedded database goes for good (at once if it has). */
  onFailure(listener: EmbeddedCrashListener): void;
  close(): Promise<void>;
};

// numeric and bigint columns come back as strings by default; the counts and sizes they hold fit in numbers.
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export function databaseSourceFor(config: { databaseUrl?: string; dataDir: string }): DatabaseSource {
  return config.databaseUrl
    ? { kind: 'postgres', url: config.databaseUrl }
    : { kind: 'embedded', dataDir: path.join(config.dataDir, 'db'), socketDir: config.dataDir };
}

/**
 * Connections the embedded database takes beyond the server's pool: a backup, psql, a script or a test's fixtures
 * reach it through the same socket, and the socket server resets whatever comes beyond its limit, even while the
 * pool is full. A connection costs it little: the queries of all of them run one at a time anyway.
 */
const TOOL_CONNECTIONS = 20;

export async function openDatabase(
  source: DatabaseSource,
  options: { poolSize?: number } = {},
): Promise<DatabaseHandle> {
  const max = options.poolSize ?? 10;
  // A server that stops answering fails a query after this long instead of holding it (and /api/health) forever.
  // The embedded database lives in this process and only queues, so a busy machine gets longer before it fails.
  const connectionTimeoutMillis = source.kind === 'postgres' ? 5_000 : 30_000;
  let embedded: EmbeddedServer | undefined;
  let failure: Error | null = null;
  const failureListeners: EmbeddedCrashListener[] = [];
  let pool: pg.Pool;
  if (source.kind === 'postgres') {
    pool = new pg.Pool({ connectionString: source.url, max, connectionTimeoutMillis });
  } else {
    embedded = await startEmbeddedServer({
      dataDir: source.dataDir,
      socketDir: source.socketDir,
      templateFile: source.templateFile,
      maxConnections: max + TOOL_CONNECTIONS,
      onCrash(error) {
        failure = error;
        for (const listener of failureListeners) listener(error);
      },
    });
    pool = new pg.Pool({
      host: embedded.socketDir,
      port: 5432,
      user: 'postgres',
      database: 'postgres',
      max,
      connectionTimeoutMillis,
    });
  }
  // An idle client losing its connection must not crash the process; the pool replaces it (buildApp logs it).
  pool.on('error', () => undefined);
  // Nor may a checked-out one between two statements (a transaction, a job): pg emits `error` on the client then,
  // and only idle clients have the pool's listener. The statement that follows fails and the client is discarded.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = drizzle(pool, { schema, casing: 'snake_case' });
  return {
    db,
    pool,
    kind: source.kind,
    dump: embedded ? (file) => embedded.dump(file) : undefined,
    failure: () => failure,
    onFailure(listener) {
      failureListeners.push(listener);
      if (failure) listener(failure);
    },
    async close() {
      await pool.end();
      await embedded?.stop();
    },
  };
}
