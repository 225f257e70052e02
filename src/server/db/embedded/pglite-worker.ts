// Runs PGlite (PostgreSQL in WebAssembly) off the main thread and serves it on a unix socket,
// so a long query never freezes the server's event loop and the app speaks plain node-postgres.
import { readFile, writeFile } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { ExclusiveQueryQueue } from './query-queue.ts';

export type EmbeddedWorkerData = {
  /** Directory holding the database files; undefined keeps it in memory. */
  dataDir?: string;
  /** A tarball written by dumpDataDir to start from (a pre-migrated template). */
  templateFile?: string;
  socketPath: string;
  maxConnections: number;
};

export type EmbeddedWorkerCommand = { type: 'stop' } | { type: 'dump'; file: string };
export type EmbeddedWorkerReply =
  { type: 'ready' } | { type: 'stopped' } | { type: 'dumped' } | { type: 'error'; message: string };

const SHARED_BUFFERS = '16MB';

const options = workerData as EmbeddedWorkerData;
const port = parentPort!;

try {
  const loadDataDir = options.templateFile ? new Blob([await readFile(options.templateFile)]) : undefined;
  // Every page of the buffer pool is written at start-up, so its size is resident memory for the process's life
  // (PGlite's 128 MB default was a third of the server's). The data files are cached by the OS anyway.
  // A new WAL segment is not zero-filled first: PGlite runs as one backend without a checkpointer to prepare
  // segments ahead, so the 16 MB written whenever one fills stalled every query for tens of milliseconds.
  const startParams = [
    ...PGlite.defaultStartParams,
    ...['-c', `shared_buffers=${SHARED_BUFFERS}`, '-c', 'wal_init_zero=off'],
  ];
  const db = await PGlite.create(options.dataDir, { loadDataDir, startParams });
  const server = new PGLiteSocketServer({ db, path: options.socketPath, maxConnections: options.maxConnections });
  // The stock queue interleaves concurrent connections' queries (see query-queue.ts); handlers take the server's.
  Object.assign(server, { queryQueue: new ExclusiveQueryQueue(db) });
  await server.start();
  port.postMessage({ type: 'ready' } satisfies EmbeddedWorkerReply);

  port.on('message', async (command: EmbeddedWorkerCommand) => {
    try {
      if (command.type === 'dump') {
        const tarball = await db.dumpDataDir('none');
        await writeFile(command.file, Buffer.from(await tarball.arrayBuffer()), { mode: 0o600 });
        port.postMessage({ type: 'dumped' } satisfies EmbeddedWorkerReply);
      } else {
        await server.stop();
        await db.close();
        port.postMessage({ type: 'stopped' } satisfies EmbeddedWorkerReply);
        port.close();
      }
    } catch (error) {
      port.postMessage({ type: 'error', message: String(error) } satisfies EmbeddedWorkerReply);
    }
  });
} catch (error) {
  port.postMessage({
    type: 'error',
    message: error instanceof Error ? error.message : String(error),
  } satisfies EmbeddedWorkerReply);
}
