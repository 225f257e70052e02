import { createConnection, createServer } from 'node:net';
import path from 'node:path';
import { rmSync } from 'node:fs';

// The running server holds the embedded database's files, so `npm run backup` asks it for a snapshot on a unix
// socket beside the database's own (a directory only the server's user may enter, embedded-server.ts). The server
// copies the data directory between two queries, a short pause, into the file named; the slow part (pg_dump) runs
// in the backup's own process on that copy.

/** Shorter than `.s.PGSQL.5432`, so it fits wherever the database's socket does. */
const SOCKET_NAME = '.s.vh-backup';

type SnapshotRequest = { file: string };
type SnapshotReply = { ok: true } | { ok: false; error: string };

const socketPathIn = (socketDir: string) => path.join(socketDir, SOCKET_NAME);

/** Answers snapshot requests, one at a time, by writing the database's files as a tarball to the file named. */
export async function serveSnapshots(options: { socketDir: string; snapshot: (file: string) => Promise<void> }) {
  const socketPath = socketPathIn(options.socketDir);
  // A socket file left by a crashed process would make listen() fail with EADDRINUSE.
  rmSync(socketPath, { force: true });
  let previous: Promise<unknown> = Promise.resolve();
  const server = createServer((connection) => {
    let request = '';
    connection.on('error', () => undefined);
    const onData = (chunk: Buffer) => {
      request += String(chunk);
      if (!request.includes('\n')) return;
      // One request a connection: whatever follows it is not read.
      connection.off('data', onData);
      const reply = (answer: SnapshotReply) => connection.end(`${JSON.stringify(answer)}\n`);
      const run = async (): Promise<SnapshotReply> => {
        const { file } = JSON.parse(request) as SnapshotRequest;
        if (typeof file !== 'string' || !path.isAbsolute(file)) return { ok: false, error: 'file must be absolute' };
        await options.snapshot(file);
        return { ok: true };
      };
      const answer = previous.then(run).catch((error: unknown) => ({ ok: false as const, error: String(error) }));
      previous = answer;
      void answer.then(reply);
    };
    connection.on('data', onData);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, resolve);
  });
  return {
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Asks the server running on this data directory for a snapshot of its database; resolves once `file` is written.
 * Rejects with ENOENT or ECONNREFUSED when no server answers there.
 */
export function requestSnapshot(socketDir: string, file: string) {
  return new Promise<void>((resolve, reject) => {
    const connection = createConnection(socketPathIn(socketDir));
    let answer = '';
    connection.on('error', reject);
    connection.on('data', (chunk) => (answer += String(chunk)));
    connection.on('end', () => {
      try {
        const reply = JSON.parse(answer) as SnapshotReply;
        if (reply.ok) resolve();
        else reject(new Error(`The server could not copy its database: ${reply.error}`));
      } catch {
        reject(new Error('The server closed the snapshot connection without an answer'));
      }
    });
    connection.write(`${JSON.stringify({ file } satisfies SnapshotRequest)}\n`);
  });
}
