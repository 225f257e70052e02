import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startCluster, type Cluster } from './cluster.ts';
import { findNginx, MISSING_NGINX, startNginx } from './nginx.ts';
import { findRedisServer, MISSING_REDIS_SERVER, startRedisServer, type RedisServer } from './redis-server.ts';
import { startS3Server, type S3Server } from './s3-server.ts';
import { freePort, SERVER_COMMAND, startServerProcess } from './server-process.ts';

/** How the nodes pass realtime events to each other: PostgreSQL's NOTIFY (the default) or a Redis server. */
export type FanOut = 'postgres' | 'redis';

/** What this machine lacks for a cluster with this fan-out, as a skipped test says it; undefined when nothing. */
export function missingForCluster(fanOut: FanOut) {
  if (!findNginx()) return MISSING_NGINX;
  if (fanOut === 'redis' && !findRedisServer()) return MISSING_REDIS_SERVER;
  return undefined;
}

export type ClusterBehindNginx = Awaited<ReturnType<typeof startClusterBehindNginx>>;

/**
 * `size` server processes (startCluster) on one S3 bucket (s3rver) and, with the Redis fan-out, a Redis server of
 * their own, behind nginx running deploy/nginx.conf as shipped, as README "Running several servers" sets them up.
 * `store: 'local'` keeps the files on the node's own disk instead (only one node can then serve them). Check
 * missingForCluster first; `stop()` ends all of it.
 */
export async function startClusterBehindNginx(
  templateUrl: string,
  {
    name,
    size,
    fanOut,
    store = 's3',
    env = {},
  }: { name: string; size: number; fanOut: FanOut; store?: 'local' | 's3'; env?: Record<string, string> },
) {
  const s3: S3Server | undefined = store === 's3' ? await startS3Server() : undefined;
  const redis: RedisServer | undefined = fanOut === 'redis' ? await startRedisServer(findRedisServer()!) : undefined;
  const port = await freePort();
  const cluster: Cluster = await startCluster(templateUrl, {
    name,
    size,
    env: {
      ...s3?.env,
      ...(redis ? { REDIS_URL: redis.url } : {}),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      TRUST_PROXY: '1',
      SHUTDOWN_DRAIN_DELAY_MS: '1000',
      // A busy test machine's event loops lag: readiness must not turn a node away for it.
      READY_MAX_EVENT_LOOP_LAG_MS: '60000',
      ...env,
    },
    // Several processes starting on a busy machine may each take a minute or two.
    startTimeoutMs: 240_000,
  });
  const proxy = await startNginx(findNginx()!, {
    port,
    upstreamPorts: cluster.servers.map((server) => Number(new URL(server.url).port)),
  });

  return {
    cluster,
    proxy,
    s3,
    /** A request through nginx as the browser sends it: with its session cookie and the site's origin. */
    through: (to: string, cookie: string, init: RequestInit = {}) =>
      fetch(`${proxy.url}${to}`, { ...init, headers: { cookie, origin: proxy.url, ...init.headers } }),
    /**
     * Stops node `index` (SIGTERM, draining as in production) and starts a new process on its port, as an upgrade
     * does node by node; resolves with the old process's exit code once the new one answers.
     */
    async restartNode(index: number) {
      const server = cluster.servers[index]!;
      const code = await server.stop();
      cluster.servers[index] = await startServerProcess(
        SERVER_COMMAND,
        {
          ...cluster.env,
          PORT: new URL(server.url).port,
          DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'vh-node-')),
        },
        240_000,
      );
      return code;
    },
    async stop() {
      await proxy.stop();
      await cluster.stop();
      await redis?.stop();
      await s3?.close();
    },
  };
}
