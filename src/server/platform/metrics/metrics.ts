import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { AppError } from '../../http/errors.ts';
import { isLocalRequest } from '../../http/loopback.ts';

type Metrics = ReturnType<typeof createMetrics>;

/**
 * The process's Prometheus metrics, on a registry of its own (so two apps in one process, as in tests, never
 * share counters): Node's defaults (event-loop delay, heap, GC, CPU), request durations by route, the database
 * pool, and what features report (messages sent, job runs, sockets, outbox depth).
 */
export function createMetrics({ pool }: { pool: pg.Pool }) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const requestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route pattern and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers,
  });
  new Gauge({
    name: 'db_pool_connections',
    help: 'Database pool connections by state (in_use, idle, waiting = queries waiting for a connection)',
    labelNames: ['state'] as const,
    registers,
    collect() {
      this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });

  return {
    registry,
    messagesSent: new Counter({
      name: 'chat_messages_sent_total',
      help: 'Chat messages stored (retries of one client id count once)',
      registers,
    }),
    jobRuns: new Counter({
      name: 'job_runs_total',
      help: 'Periodic job runs by job and outcome (ran, skipped while another node held it, failed)',
      labelNames: ['job', 'outcome'] as const,
      registers,
    }),
    paymentsReconciled: new Counter({
      name: 'payments_reconciled_total',
      help: 'Checkouts whose provider payment the reconciliation recorded after the server lost the record',
      registers,
    }),
    /** A gauge read at scrape time, e.g. sockets connected or the mail outbox depth. */
    gauge(name: string, help: string, read: () => number | Promise<number>) {
      new Gauge({
        name,
        help,
        registers,
        async collect() {
          this.set(await read());
        },
      });
    },
    observeRequest(request: FastifyRequest, statusCode: number, seconds: number) {
      // Unmatched paths share one label, so scanners cannot grow the series without bound.
      const route = request.routeOptions.url ?? 'unmatched';
      requestDuration.observe({ method: request.method, route, status_code: String(statusCode) }, seconds);
    },
  };
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * GET /api/metrics in Prometheus text format: to a request local by every measure (see isLocalRequest; not one a
 * reverse proxy forwards) or with `Authorization: Bearer $METRICS_TOKEN`.
 */
export function registerMetrics(app: FastifyInstance, metrics: Metrics, token: string | undefined) {
  app.addHook('onResponse', async (request, reply) => {
    metrics.observeRequest(request, reply.statusCode, reply.elapsedTime / 1000);
  });
  const expected = token === undefined ? undefined : digest(token);
  const mayRead = (request: FastifyRequest) => {
    const header = request.headers.authorization;
    if (expected && header?.startsWith('Bearer ')) return timingSafeEqual(digest(header.slice(7)), expected);
    return isLocalRequest(request);
  };
  app.get('/api/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!mayRead(request)) throw new AppError('FORBIDDEN');
    return reply
      .header('cache-control', 'no-store')
      .type(metrics.registry.contentType)
      .send(await metrics.registry.metrics());
  });
}
