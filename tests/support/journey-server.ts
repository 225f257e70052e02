import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { TEST_ADMIN, TEST_AUTH_SECRET } from './test-config.ts';

// A server of its own for the journeys that need other settings than the suite's (a free marketplace, Stripe): the
// same build (dist/), on a free port, with its own data directory and embedded database.

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

export type JourneyServer = {
  url: string;
  /** Its data directory, whose socket reaches the embedded database. */
  dataDir: string;
  stop(): Promise<void>;
};

/** Starts `node dist/server/main.js` with these settings over the suite's, once /api/health answers. */
export async function startJourneyServer(
  settings: Record<string, string>,
  timeoutMs = 110_000,
): Promise<JourneyServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vh-e2e-own-'));
  const server = spawn(process.execPath, ['dist/server/main.js'], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      AUTH_SECRET: TEST_AUTH_SECRET,
      ADMIN_EMAIL: TEST_ADMIN.email,
      ADMIN_PASSWORD: TEST_ADMIN.password,
      LOG_LEVEL: 'warn',
      ...settings,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  server.stderr.on('data', (chunk) => (errors += chunk));
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`The journey server exited with ${server.exitCode}:\n${errors}`);
    const up = await fetch(`${url}/api/health`).then(
      (answer) => answer.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) {
      server.kill('SIGTERM');
      throw new Error(`The journey server did not answer within ${timeoutMs} ms:\n${errors}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    dataDir,
    stop() {
      server.kill('SIGTERM');
      return exited;
    },
  };
}
