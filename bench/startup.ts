// Time from process start to the first answered request, and the memory the idle server then holds, on the built
// app with the embedded database: a first start on an empty data directory (initdb, migrations, seed) and restarts
// on the same one.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startServerProcess } from '../tests/support/server-process.ts';

const IDLE_MS = 5_000;
const RSS_TARGET_MB = 350;

/** Resident memory of a process and every process it started, in MB (Linux /proc). */
function processTreeRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  return rssKb / 1024 + children.reduce((sum, child) => sum + processTreeRssMb(child), 0);
}

export async function benchStartup() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vh-bench-start-'));
  const env = {
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: 'Bench-password-1',
    NODE_ENV: 'production',
    PAYMENTS_PROVIDER: 'none',
  };
  const command = [process.execPath, 'dist/server/main.js'];
  const rows: Array<{ case: string; ms: number; target: number; idle_rss_mb: number }> = [];
  const start = async (name: string, target: number) => {
    const startedAt = performance.now();
    const server = await startServerProcess(command, env, 60_000);
    const ms = performance.now() - startedAt;
    await sleep(IDLE_MS);
    rows.push({ case: name, ms, target, idle_rss_mb: processTreeRssMb(server.child.pid!) });
    await server.stop();
  };
  try {
    await start('first start, empty data directory', 10_000);
    for (let run = 1; run <= 3; run++) await start(`restart #${run}, build and data present`, 3_000);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  return rows.map((row) => ({
    case: row.case,
    ms: Math.round(row.ms),
    target_ms: row.target,
    idle_rss_mb: Math.round(row.idle_rss_mb),
    target_rss_mb: RSS_TARGET_MB,
    ok: row.ms <= row.target && row.idle_rss_mb <= RSS_TARGET_MB ? 'yes' : 'NO',
  }));
}
