import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moderationPatterns } from '../../db/schema/moderation.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { createModeration } from './service.ts';

// The active patterns as the nodes of a cluster see them: each node keeps its own copy for a bounded time.

describe('moderation patterns on several nodes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('applies a new pattern at once on the node that added it, and on another one once its copy is older than the bound', async () => {
    const ttlMs = 500;
    const [here, there] = [1, 2].map(() => createModeration({ db: t.db, ownOrigins: [], ttlMs }));
    const word = `zorblax${randomBytes(4).toString('hex')}`;
    const text = `you are a ${word}`;
    expect(await here!.allows(text)).toBe(true);
    expect(await there!.allows(text)).toBe(true);

    await t.db.insert(moderationPatterns).values({ pattern: word, category: 'offensive' });
    here!.forgetPatterns();
    expect(await here!.allows(text)).toBe(false);
    // The other node still answers from the copy it read before the change…
    expect(await there!.allows(text)).toBe(true);
    // …until that copy is older than the bound.
    await new Promise((resolve) => setTimeout(resolve, ttlMs + 50));
    expect(await there!.allows(text)).toBe(false);
  });
});
