import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runChildProcess, startWorker } from '../../system/worker-threads.ts';
import type { EmbeddedWorkerCommand, EmbeddedWorkerData, EmbeddedWorkerReply } from './pglite-worker.ts';

export type EmbeddedServer = {
  /** Directory of the unix socket, usable as node-postgres `host`. */
  socketDir: string;
  dump(file: string): Promise<void>;
  stop(): Promise<void>;
};

/** Told once when the database's worker ends after start-up without being stopped (the database is gone). */
export type EmbeddedCrashListener = (error: Error) => void;

/**
 * Where the sockets of a data directory live (the database's, and the snapshot endpoint's for backups).
 * Unix socket paths are limited to ~107 bytes; long data directories get a short one in the temp dir.
 */
export function socketDirFor(preferred: string) {
  if (path.join(preferred, '.s.PGSQL.5432').length < 100) return preferred;
  const hash = createHash('sha256').update(preferred).digest('hex').slice(0, 12);
  return path.join(os.tmpdir(), `vh-pg-${hash}`);
}

export async function startEmbeddedServer(options: {
  dataDir?: string;
  templateFile?: string;
  socketDir: string;
  maxConnections?: number;
  onCrash?: EmbeddedCrashListener;
}): Promise<EmbeddedServer> {
  const socketDir = socketDirFor(options.socketDir);
  // Whoever reaches the socket is the database's superuser: only the server's own user may enter its directory (an
  // existing one is tightened, and one another user made cannot be, which stops the start).
  mkdirSync(socketDir, { recursive: true, mode: 0o700 });
  chmodSync(socketDir, 0o700);
  const socketPath = path.join(socketDir, '.s.PGSQL.5432');
  // A socket file left by a crashed process would make listen() fail with EADDRINUSE.
  rmSync(socketPath, { force: true });

  // A new data directory is initialised by a process of its own, which returns initdb's memory when it ends.
  if (options.dataDir && !options.templateFile && !existsSync(path.join(options.dataDir, 'PG_VERSION'))) {
    await runChildProcess({
      source: new URL('./pglite-initdb.ts', import.meta.url),
      bundled: new URL('./pglite-initdb.js', import.meta.url),
      args: [options.dataDir],
    });
  }
  const workerData: EmbeddedWorkerData = {
    dataDir: options.dataDir,
    templateFile: options.templateFile,
    socketPath,
    maxConnections: options.maxConnections ?? 10,
  };
  const worker = startWorker({
    source: new URL('./pglite-worker.ts', import.meta.url),
    bundled: new URL('./pglite-worker.js', import.meta.url),
    workerData,
  });

  const nextReply = (expected: EmbeddedWorkerReply['type']) =>
    new Promise<void>((resolve, reject) => {
      const onMessage = (reply: EmbeddedWorkerReply) => {
        cleanup();
        if (reply.type === expected) resolve();
        else reject(new Error(`Embedded database: ${reply.type === 'error' ? reply.message : reply.type}`));
      };
      const onError = (error: Error) => {
        cleanup();
        reject(error);
      };
      const onExit = (code: number) => {
        cleanup();
        reject(new Error(`Embedded database worker exited with code ${code}`));
      };
      const cleanup = () => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
    });

  await nextReply('ready');

  // From here on the worker's end is the database's: an error it throws must not end this process (a worker's
  // `error` without a listener would), and either is told once. PGlite's runtime can end its thread by itself
  // (used directly, it does on `select pg_terminate_backend(pg_backend_pid())`).
  let crash: Error | null = null;
  let stopping = false;
  const crashed = (error: Error) => {
    if (stopping || crash) return;
    crash = error;
    options.onCrash?.(error);
  };
  worker.on('error', crashed);
  worker.on('exit', (code) => crashed(new Error(`Embedded database worker exited with code ${code}`)));

  const send = (command: EmbeddedWorkerCommand) => worker.postMessage(command);
  return {
    socketDir,
    async dump(file) {
      if (crash) throw crash;
      const done = nextReply('dumped');
      send({ type: 'dump', file });
      await done;
    },
    async stop() {
      if (crash) return; // nothing is left to stop
      stopping = true;
      const done = nextReply('stopped').catch(() => undefined);
      send({ type: 'stop' });
      await done;
      await worker.terminate();
    },
  };
}
