import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signedInStudent } from '../../../tests/support/callers.ts';
import { createTestApp, type TestApp } from '../../../tests/support/test-app.ts';

describe('API answers and caches', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('tells no cache to keep a personal answer, or a refusal, and leaves a public list cacheable', async () => {
    const student = await signedInStudent(t);
    for (const url of ['/api/chat/rooms', '/api/requests/mine?status=live', '/api/auth/get-session']) {
      const answer = await call(t, student, 'GET', url);
      expect(answer.statusCode, url).toBe(200);
      expect(answer.headers['cache-control'], url).toBe('no-store');
    }
    expect((await call(t, undefined, 'GET', '/api/chat/rooms')).headers['cache-control']).toBe('no-store');
    expect((await call(t, student, 'GET', '/api/subjects')).headers['cache-control']).toBe('public, max-age=300');
  });
});
