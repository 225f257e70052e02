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
