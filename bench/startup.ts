// Time from process start to the first answered request, on the built app with the embedded database:
// a first start on an empty data directory (initdb, migrations, seed) and a restart on the same one.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServerProcess } from '../tests/support/server-process.ts';

export async function benchStartup() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vh-bench-start-'));
  const env = { DATA_DIR: dataDir, ADMIN_PASSWORD: 'Bench-password-1', NODE_ENV: 'production' };
  const command = [process.execPath, 'dist/server/main.js'];
  const rows: Array<{ case: string; ms: number; target: number }> = [];
  try {
    let startedAt = performance.now();
    let server = await startServerProcess(command, env, 60_000);
    rows.push({ case: 'first start, empty data directory', ms: performance.now() - startedAt, target: 10_000 });
    await server.stop();
    for (let run = 1; run <= 3; run++) {
      startedAt = performance.now();
      server = await startServerProcess(command, env, 60_000);
      rows.push({ case: `restart #${run}, build and data present`, ms: performance.now() - startedAt, target: 3_000 });
      await server.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  return rows.map((row) => ({ ...row, ms: Math.round(row.ms), ok: row.ms <= row.target ? 'yes' : 'NO' }));
}
