import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../db/schema/notifications.ts';
import { createSessionCookie, createUser } from '../../../../tests/support/factories.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { pendingMailCount } from '../mail/outbox.ts';
import { fromNow, HOUR_MS } from '../../../../tests/support/time.ts';

const TOKEN = 'a-metrics-token-of-some-length';

/** The value of one sample line, e.g. sample(text, 'db_pool_connections{state="idle"}'). */
const sample = (text: string, series: string) => {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('GET /api/metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ METRICS_TOKEN: TOKEN, TRUST_PROXY: 'loopback' });
  });
  afterAll(() => t.close());

  const scrape = async (options: { remoteAddress?: string; headers?: Record<string, string> } = {}) =>
    t.app.inject({ method: 'GET', url: '/api/metrics', ...options });

  it('answers this machine in the Prometheus text format with the process, HTTP, database and feature metrics', async () => {
    await t.app.inject({ method: 'GET', url: '/api/health' });
    const [alice, bob] = [await createUser(t.db), await createUser(t.db)];
    const cookie = (await createSessionCookie(t.db, alice.id)).header;
    const before = sample((await scrape()).body, 'chat_messages_sent_total') ?? 0;
    const send = (clientId: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/chat/messages',
        headers: { cookie },
        payload: { clientId, receiverId: bob.id, content: 'Counted once' },
      });
    const clientId = randomUUID();
    expect((await send(clientId)).statusCode).toBe(201);
    expect((await send(clientId)).statusCode).toBe(200);

    const response = await scrape();
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = response.body;
    expect(sample(text, 'chat_messages_sent_total')).toBe(before + 1);
    expect(sample(text, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
    expect(text).toMatch(
      /^http_request_duration_seconds_count\{method="GET",route="\/api\/health",status_code="200"\} [1-9]/m,
    );
    expect(sample(text, 'db_pool_connections{state="waiting"}')).toBe(0);
    expect(sample(text, 'db_pool_connections{state="idle"}')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'socketio_sockets_connected')).toBe(0);
    // Jobs run once at start.
    await expect
      .poll(async () => sample((await scrape()).body, 'job_runs_total{job="close-expired-requests",outcome="ran"}'))
      .toBeGreaterThanOrEqual(1);
  });

  it('reports the outbox depth as the database counts it', async () => {
    // Due in an hour, so the sender leaves it alone while the test reads.
    await t.db.insert(mailOutbox).values({
      toAddress: 'later@example.com',
      subject: 'Later',
      textBody: 'Later',
      nextAttemptAt: fromNow(HOUR_MS),
    });
    const text = (await scrape()).body;
    const pending = await pendingMailCount(t.db);
    expect(pending).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'mail_outbox_pending')).toBe(pending);
  });

  it('refuses other machines, forged forwarding headers and proxied clients without the token', async () => {
    const refused: Array<{ remoteAddress: string; headers?: Record<string, string> }> = [
      { remoteAddress: '203.0.113.7' },
      { remoteAddress: '203.0.113.7', headers: { 'x-forwarded-for': '127.0.0.1' } },
      // Behind a trusted proxy on this machine the socket is loopback, but the client is not.
      { remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '203.0.113.7' } },
      // Headers the trusted proxy's address parsing does not read still say the request was forwarded.
      { remoteAddress: '127.0.0.1', headers: { forwarded: 'for=203.0.113.7' } },
      { remoteAddress: '127.0.0.1', headers: { 'x-real-ip': '203.0.113.7' } },
      { remoteAddress: '127.0.0.1', headers: { host: 'app.example.com' } },
      { remoteAddress: '203.0.113.7', headers: { authorization: 'Bearer not-the-token-at-all' } },
      { remoteAddress: '203.0.113.7', headers: { authorization: TOKEN } },
    ];
    for (const request of refused) {
      const response = await scrape(request);
      expect(response.statusCode, JSON.stringify(request)).toBe(403);
      expect(response.json()).toMatchObject({ code: 'FORBIDDEN' });
      expect(response.body).not.toContain('nodejs_');
    }
  });

  it('answers another machine that brings the token', async () => {
    const response = await scrape({ remoteAddress: '203.0.113.7', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('# TYPE http_request_duration_seconds histogram');
  });
});

describe('GET /api/metrics behind a reverse proxy on this machine that TRUST_PROXY does not name', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('refuses what the proxy forwards, though it connects from loopback', async () => {
    const forwarded = await t.app.inject({
      method: 'GET',
      url: '/api/metrics',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https' },
    });
    expect(forwarded.statusCode).toBe(403);
    expect(forwarded.body).not.toContain('nodejs_');
    expect((await t.app.inject({ method: 'GET', url: '/api/metrics', remoteAddress: '127.0.0.1' })).statusCode).toBe(
      200,
    );
  });
});
