import { fork, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

// Sources run through tsx/vitest (.ts) in development and tests, bundled JavaScript (scripts/build-server.ts) in
// production: a worker is started from whichever of its two files this process runs.
const isSource = import.meta.url.endsWith('.ts');

/** A worker thread running `source` (a .ts module) or, in the bundled server, `bundled` (its entry in dist/server). */
export function startWorker({ source, bundled, workerData }: { source: URL; bundled: URL; workerData?: unknown }) {
  return isSource
    ? // Workers do not inherit the TypeScript loader: register it inside the worker first.
      new Worker(
        `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(source.href)}); })`,
        { eval: true, workerData },
      )
    : new Worker(bundled, { workerData });
}

/** Runs `source` (or, in the bundled server, `bundled`) as a child process with these arguments to its end. */
export function runChildProcess({ source, bundled, args }: { source: URL; bundled: URL; args: string[] }) {
  const entry = isSource ? ['--import', 'tsx', fileURLToPath(source)] : [fileURLToPath(bundled)];
  const child = spawn(process.execPath, [...entry, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr.on('data', (chunk) => (errors += chunk));
  return new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${path.basename(fileURLToPath(source))} exited with code ${code}: ${errors}`)),
    );
  });
}

/**
 * Starts `source` (or, in the bundled server, `bundled`) as a child process that the caller talks to by messages
 * (Buffers included), with these Node.js and V8 options; its output is dropped.
 */
export function forkChildProcess({
  source,
  bundled,
  execArgv = [],
}: {
  source: URL;
  bundled: URL;
  execArgv?: string[];
}) {
  return fork(fileURLToPath(isSource ? source : bundled), [], {
    execArgv: [...(isSource ? ['--import', 'tsx'] : []), ...execArgv],
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
  });
}
