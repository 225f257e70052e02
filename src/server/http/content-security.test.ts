import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../../tests/support/test-app.ts';

const STRIPE_KEYS = {
  PAYMENTS_PROVIDER: 'stripe',
  STRIPE_SECRET_KEY: 'sk_test_csp',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_csp',
  STRIPE_WEBHOOK_SECRET: 'whsec_csp',
};

async function policyOf(env: Record<string, string>) {
  const t = await createTestApp(env);
  try {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    return String(response.headers['content-security-policy']);
  } finally {
    await t.close();
  }
}

describe('the content security policy', () => {
  it("admits Stripe's script, frames and API only when Stripe takes the payments", async () => {
    const [withStripe, without] = await Promise.all([policyOf(STRIPE_KEYS), policyOf({})]);

    expect(withStripe).toMatch(
      /(^|;)script-src 'self'[^;]* https:\/\/js\.stripe\.com https:\/\/\*\.js\.stripe\.com(;|$)/,
    );
    expect(withStripe).toMatch(
      /(^|;)frame-src https:\/\/js\.stripe\.com https:\/\/\*\.js\.stripe\.com https:\/\/hooks\.stripe\.com(;|$)/,
    );
    expect(withStripe).toMatch(/(^|;)connect-src 'self' blob: https:\/\/api\.stripe\.com(;|$)/);
    expect(withStripe).toContain("frame-ancestors 'none'");

    expect(without).not.toContain('stripe');
    expect(without).not.toContain('frame-src');
    expect(without).toMatch(/(^|;)connect-src 'self' blob:(;|$)/);
  });

  it('admits our own service worker and web app manifest', async () => {
    const policy = await policyOf({});
    expect(policy).toMatch(/(^|;)worker-src 'self'(;|$)/);
    expect(policy).toMatch(/(^|;)manifest-src 'self'(;|$)/);
  });
});
