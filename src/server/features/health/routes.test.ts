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
    expect(ready.json()).toEqual({ ready: true, database: 'up', realtime: t.realtime.fanOut(), storage: 'up' });
    for (const response of [live, ready]) expect(response.headers['cache-control']).toBe('no-store');
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
