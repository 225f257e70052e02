import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** The server from source, as a separate process. */
export const SERVER_COMMAND = [process.execPath, '--import', 'tsx', 'src/server/main.ts'];

/** A free loopback port, found by letting the OS pick one. */
export function freePort() {
  return new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export type ServerProcess = {
  child: ChildProcess;
  url: string;
  output(): string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
};

/**
 * Starts the server as its own process (`command` e.g. ['node', 'dist/server/main.js']) and resolves once
 * /api/health answers; rejects with the process output if it exits first.
 */
export async function startServerProcess(
  command: string[],
  env: Record<string, string>,
  timeoutMs = 30_000,
): Promise<ServerProcess> {
  const port = Number(env.PORT ?? (await freePort()));
  const url = `http://${env.HOST ?? '127.0.0.1'}:${port}`;
  const child = spawn(command[0]!, command.slice(1), {
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited with code ${child.exitCode}:\n${output}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (Date.now() >= deadline) {
    // SIGTERM, which a process that starts others (the dev pair) passes on to them.
    child.kill('SIGTERM');
    throw new Error(`The server did not answer within ${timeoutMs} ms:\n${output}`);
  }
  return {
    child,
    url,
    output: () => output,
    stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** Runs a process to completion and returns its exit code and output. */
export function runToExit(command: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(command[0]!, command.slice(1), {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) => resolve({ code, output }));
  });
}
