import { spawn, type ChildProcess } from 'node:child_process';
import { findExecutable } from './executables.ts';
import { freePort } from './server-process.ts';

/** The redis-server binary on PATH, or undefined when this machine has none. */
export const findRedisServer = () => findExecutable('redis-server');

/** What a test that needs its own Redis server says when it is skipped. */
export const MISSING_REDIS_SERVER = 'needs redis-server on PATH: apt-get install redis-server (CI has it)';

export type RedisServer = {
  url: string;
  /** Ends the server at once (SIGKILL, as a crash or a lost host would); its clients' connections drop. */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
};

/** A Redis server of the test's own on a free loopback port, without persistence; `stop()` it at the end. */
export async function startRedisServer(binary: string): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;

  const start = async () => {
    const started = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    let output = '';
    await new Promise<void>((resolve, reject) => {
      started.stdout.on('data', (chunk) => {
        output += chunk;
        if (output.includes('Ready to accept connections')) resolve();
      });
      started.stderr.on('data', (chunk) => (output += chunk));
      started.once('exit', (code) => reject(new Error(`redis-server exited with code ${code}:\n${output}`)));
    });
  };

  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };

  await start();
  return { url: `redis://127.0.0.1:${port}`, start, stop };
}
