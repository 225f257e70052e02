import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { TEST_ADMIN, TEST_AUTH_SECRET } from './test-config.ts';
import { withAdminClient } from './test-database.ts';

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

/**
 * The server from source as its own process, with the tests' secrets and admin, on the data directory (and database)
 * that `env` names as they are: e.g. what `npm run restore` brought back.
 */
export function startServerProcessOn(env: Record<string, string> & { DATA_DIR: string }) {
  return startServerProcess(
    SERVER_COMMAND,
    {
      AUTH_SECRET: TEST_AUTH_SECRET,
      ADMIN_EMAIL: TEST_ADMIN.email,
      ADMIN_PASSWORD: TEST_ADMIN.password,
      REQUIRE_EMAIL_CONFIRMATION: 'false',
      // As in test-config.ts: a busy test machine's event loops lag.
      READY_MAX_EVENT_LOOP_LAG_MS: '60000',
      ...env,
    },
    120_000,
  );
}

/**
 * The server from source as its own process, on a copy of the test run's migrated and seeded template database, so
 * it starts in seconds rather than initialising one: the embedded template's files unpacked into its data
 * directory, or on PostgreSQL a database created from the template (dropped again by `stop()`).
 */
export async function startTestServerProcess(
  env: Record<string, string> = {},
): Promise<ServerProcess & { dataDir: string; databaseUrl?: string }> {
  const template = inject('databaseTemplate');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vh-process-'));
  if (template.kind === 'embedded') {
    mkdirSync(path.join(dataDir, 'db'));
    execFileSync('tar', ['-xf', template.templateFile, '-C', path.join(dataDir, 'db')], { stdio: 'ignore' });
    return { ...(await startServerProcessOn({ ...env, DATA_DIR: dataDir })), dataDir };
  }
  const name = `vh_process_${randomBytes(6).toString('hex')}`;
  await withAdminClient(template.url, (client) =>
    client.query(`create database ${name} template ${template.templateName}`),
  );
  const url = new URL(template.url);
  url.pathname = `/${name}`;
  const server = await startServerProcessOn({ ...env, DATA_DIR: dataDir, DATABASE_URL: url.toString() });
  return {
    ...server,
    dataDir,
    databaseUrl: url.toString(),
    async stop() {
      const code = await server.stop();
      await withAdminClient(template.url, (client) => client.query(`drop database if exists ${name} with (force)`));
      return code;
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

/** A new student account on a running server, signed in: its id and session cookie. */
export async function signUpStudent(url: string) {
  const name = `student${randomBytes(4).toString('hex')}`;
  const credentials = { email: `${name}@example.com`, password: 'secret1' };
  const registered = await fetch(`${url}/api/accounts/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name,
      ...credentials,
      role: 'student',
      acceptTerms: true,
      acceptPrivacy: true,
      confirmAge: true,
    }),
  });
  if (registered.status !== 201)
    throw new Error(`Registering answered ${registered.status}: ${await registered.text()}`);
  const signedIn = await fetch(`${url}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  if (signedIn.status !== 200) throw new Error(`Signing in answered ${signedIn.status}: ${await signedIn.text()}`);
  const { user } = (await signedIn.json()) as { user: { id: string } };
  const cookie = signedIn.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { id: user.id, cookie };
}

/** The processes a process started that are still running (its children and theirs), from /proc (Linux). */
export function descendantsOf(pid: number): number[] {
  try {
    const children = readdirSync(`/proc/${pid}/task`).flatMap((thread) =>
      readFileSync(`/proc/${pid}/task/${thread}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
    return children.flatMap((child) => [child, ...descendantsOf(child)]);
  } catch {
    return []; // it ended while being read
  }
}

/** The resident memory of a process and of every process it started, in bytes, from /proc (Linux). */
export function residentBytesOf(pid: number) {
  return [pid, ...descendantsOf(pid)].reduce((total, each) => {
    try {
      const kilobytes = readFileSync(`/proc/${each}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB$/m)?.[1];
      return total + Number(kilobytes ?? 0) * 1024;
    } catch {
      return total; // it ended while being read
    }
  }, 0);
}
