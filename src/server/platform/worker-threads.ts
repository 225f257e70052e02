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
