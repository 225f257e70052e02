import { buildApp, type AppDependencies } from '../../src/server/app.ts';
import { createStorage } from '../../src/server/platform/storage/storage.ts';
import { startS3Server } from './s3-server.ts';
import { connectSocket, type TestSocket } from './socket-client.ts';
import { testConfig } from './test-config.ts';
import { openTestDatabase } from './test-database.ts';

/**
 * `TEST_STORAGE=s3` runs a test file's apps on an S3 server of their own (s3rver) instead of the local disk, so
 * the tests of uploads and downloads cover both stores. An `env` that names S3_BUCKET keeps its own.
 */
async function testStorage(env: Record<string, string>) {
  if (process.env.TEST_STORAGE !== 's3' || env.S3_BUCKET) return { env: {}, close: async () => undefined };
  return startS3Server();
}

/** The real app on a fresh clone of the migrated, seeded test database. Call close() in afterAll. */
export async function createTestApp(
  env: Record<string, string> = {},
  dependencies: Omit<AppDependencies, 'database'> = {},
) {
  const storage = await testStorage(env);
  const config = testConfig({ ...storage.env, ...env });
  const database = await openTestDatabase();
  const app = await buildApp(config, { ...dependencies, database });
  await app.ready();
  return {
    app,
    config,
    realtime: app.realtime,
    db: database.db,
    pool: database.pool,
    database,
    async close() {
      await app.close();
      await database.close();
      await storage.close();
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/**
 * A second app on the database of `first`, as a second server of a cluster has (its own process state, the same
 * rows). Close it before `first`, which closes the database.
 */
export async function createTestAppBeside(first: TestApp) {
  const app = await buildApp(first.config, { database: first.database });
  await app.ready();
  return { app, close: () => app.close() };
}

/** The test app listening on loopback, for real Socket.IO clients; its sockets close with it. */
export async function createListeningTestApp(...args: Parameters<typeof createTestApp>) {
  const t = await createTestApp(...args);
  const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const sockets: TestSocket[] = [];
  return {
    ...t,
    url,
    /** A connected socket signed in with the session cookie (or none). */
    async connect(cookie?: string) {
      const socket = await connectSocket(url, cookie === undefined ? {} : { cookie });
      sockets.push(socket);
      return socket;
    },
    async close() {
      for (const socket of sockets) socket.close();
      await t.close();
    },
  };
}

export type ListeningTestApp = Awaited<ReturnType<typeof createListeningTestApp>>;

/** The keys of the files the app's store holds under `prefix` (on disk or in the bucket). */
export async function storedKeys(t: TestApp, prefix: string) {
  const keys: string[] = [];
  for await (const { key } of createStorage(t.config.storage, t.app.log).list()) {
    if (key.startsWith(prefix)) keys.push(key);
  }
  return keys;
}
