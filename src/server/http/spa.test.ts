import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/support/test-app.ts';

describe('the web app', () => {
  let t: TestApp;
  beforeAll(async () => {
    const webDir = mkdtempSync(path.join(os.tmpdir(), 'vh-web-'));
    writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Virtual Help</title>');
    mkdirSync(path.join(webDir, 'assets'));
    writeFileSync(path.join(webDir, 'assets', 'app-1234.js'), 'console.log(1)');
    t = await createTestApp({}, { webDir });
  });
  afterAll(() => t.close());

  it('answers HEAD like GET for pages and assets, without a body', async () => {
    for (const url of ['/', '/chat', '/assets/app-1234.js']) {
      const [get, head] = await Promise.all([
        t.app.inject({ method: 'GET', url }),
        t.app.inject({ method: 'HEAD', url }),
      ]);
      expect(get.statusCode, url).toBe(200);
      expect(head.statusCode, url).toBe(200);
      expect(head.headers['content-type']).toBe(get.headers['content-type']);
      expect(head.body).toBe('');
    }
  });

  it('answers an unknown API path with a JSON 404, for GET and HEAD', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/nothing-here' })).json()).toEqual({
      code: 'NOT_FOUND',
      message: 'Not found',
    });
    expect((await t.app.inject({ method: 'HEAD', url: '/api/nothing-here' })).statusCode).toBe(404);
  });
});
