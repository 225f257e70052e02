import { describe, expect, it } from 'vitest';
import { loginSchema } from '#shared/schemas/auth.ts';
import { lazyZodResolver } from './lazy-zod-resolver.ts';

const options = { fields: {}, shouldUseNativeValidation: false } as const;

describe('lazyZodResolver', () => {
  it('checks with the schema it loads, once, however often it is asked', async () => {
    let loads = 0;
    const resolver = lazyZodResolver(async () => {
      loads++;
      return loginSchema;
    });
    resolver.preload();
    resolver.preload();
    const refused = await resolver({ email: 'not an address', password: '' }, undefined, options);
    expect(Object.keys(refused.errors).sort()).toEqual(['email', 'password']);
    const accepted = await resolver({ email: 'ada@example.com', password: 'Secret-123' }, undefined, options);
    expect(accepted).toEqual({ values: { email: 'ada@example.com', password: 'Secret-123' }, errors: {} });
    expect(loads).toBe(1);
  });
});

describe('lazyZodResolver when the checks cannot be fetched', () => {
  it('sends nothing, says so, and fetches them again on the next check', async () => {
    let attempts = 0;
    const resolver = lazyZodResolver(async () => {
      attempts++;
      if (attempts === 1) throw new TypeError('Failed to fetch dynamically imported module');
      return loginSchema;
    });
    const values = { email: 'ada@example.com', password: 'Secret-123' };
    const failed = await resolver(values, undefined, options);
    expect(failed.values).toEqual({});
    expect(failed.errors.root).toMatchObject({ load: { message: expect.stringMatching(/^Connection error/) } });
    expect(await resolver(values, undefined, options)).toEqual({ values, errors: {} });
    expect(attempts).toBe(2);
  });
});
