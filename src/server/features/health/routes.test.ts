import { createConfig, lintFromString } from '@redocly/openapi-core';
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';

describe('health, OpenAPI and the HTTP basics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers health once the database answers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(['single-node', 'up']).toContain(t.realtime.fanOut());
    expect(response.json()).toEqual({
      ok: true,
      status: 'ok',
      database: 'up',
      // One embedded node keeps its rooms in memory (single-node); on PostgreSQL the fan-out listens (up).
      realtime: t.realtime.fanOut(),
      storage: 'up',
    });
  });

  it('answers liveness and readiness probes, never from a cache', async () => {
    const live = await t.app.inject({ method: 'GET', url: '/livez' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ alive: true });
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({
      ready: true,
      database: 'up',
      realtime: t.realtime.fanOut(),
      storage: 'up',
      draining: false,
      eventLoopLagMs: expect.any(Number),
    });
    for (const response of [live, ready]) expect(response.headers['cache-control']).toBe('no-store');
  });

  it('answers not ready while the event loop lags past READY_MAX_EVENT_LOOP_LAG_MS, and ready again after', async () => {
    // A limit well above what a loaded machine's scheduling alone adds, so only the held loop crosses it.
    const busy = await createTestApp({ READY_MAX_EVENT_LOOP_LAG_MS: '1000' });
    try {
      const holdUntil = performance.now() + 1_500;
      while (performance.now() < holdUntil); // one long task holds the loop, as a heavy request would
      const lagging = await busy.app.inject({ method: 'GET', url: '/readyz' });
      expect(lagging.statusCode).toBe(503);
      expect(lagging.json()).toMatchObject({ ready: false, database: 'up', draining: false });
      expect(lagging.json().eventLoopLagMs).toBeGreaterThan(1_000);
      // Forgotten within two windows of 5 s.
      await expect
        .poll(async () => (await busy.app.inject({ method: 'GET', url: '/readyz' })).statusCode, {
          timeout: 15_000,
          interval: 500,
        })
        .toBe(200);
    } finally {
      await busy.close();
    }
  }, 30_000);

  it('answers not ready once draining has started, while everything else still answers', async () => {
    const draining = await createTestApp();
    try {
      draining.app.startDraining();
      const ready = await draining.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ ready: false, draining: true, database: 'up', storage: 'up' });
      expect((await draining.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await draining.close();
    }
  });

  it('publishes a valid OpenAPI 3 document generated from the route schemas', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toMatch(/^3\./);
    await expect(SwaggerParser.validate(structuredClone(document))).resolves.toBeTruthy();
    expect(document.paths['/api/health'].get).toBeDefined();
    expect(document.paths['/api/contact'].post.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['name', 'email', 'subject', 'message']),
    );
  });

  it("keeps Redocly's recommended lint clean: every operation named, secured or public, with its answers", async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).body;
    const problems = await lintFromString({
      source: document,
      absoluteRef: 'openapi.json',
      config: await createConfig({ extends: ['recommended'] }),
    });
    expect(
      problems.map((problem) => `${problem.ruleId}: ${problem.message} (${problem.location[0]?.pointer})`),
    ).toEqual([]);
  });

  it('sends security headers with a content security policy', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ code: 'NOT_FOUND', message: 'Not found' });
  });

  it('answers malformed JSON with a 400 and no stack trace', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/contact',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).not.toMatch(/at .*\.(ts|js):\d+/);
  });
});
