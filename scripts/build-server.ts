// Bundles the server (and its worker threads and processes: embedded database, Guru AI's math engine and photo reader) into dist/server; dependencies stay in node_modules.
import { cpSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

rmSync('dist/server', { recursive: true, force: true });
await build({
  entryPoints: {
    main: 'src/server/main.ts',
    'pglite-worker': 'src/server/db/embedded/pglite-worker.ts',
    'pglite-initdb': 'src/server/db/embedded/pglite-initdb.ts',
    'guru-math-worker': 'src/server/features/guru/math-worker.ts',
    'guru-photo-reader': 'src/server/features/guru/photo-reader-process.ts',
  },
  outdir: 'dist/server',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
cpSync('src/server/db/migrations', 'dist/server/migrations', { recursive: true });
console.log('Built the server into dist/server');
