import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routesOf, suiteOf } from '../../../tests/support/authorization-matrix.ts';
import { createTestApp, type TestApp } from '../../../tests/support/test-app.ts';

// The matrix's suites (authorization-matrix-*.test.ts) each check the routes of their areas; this checks that no
// route falls outside all of them.

describe('the authorization matrix', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('has a suite for every route of the API', async () => {
    expect((await routesOf(t)).filter((route) => !suiteOf(route))).toEqual([]);
  });
});
