import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loginSchema } from '#shared/schemas/auth.ts';
import { ConfigError, parseConfig } from './config.ts';

describe('parseConfig', () => {
  it('applies the documented defaults', () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      publicUrl: 'http://localhost:3000',
      dataDir: path.resolve('./data'),
      databaseUrl: undefined,
      mail: { smtpUrl: undefined, from: 'Virtual Help <no-reply@localhost>' },
      auth: { requireEmailConfirmation: true },
      admin: { email: 'admin@virtualhelp.example', password: undefined },
      jitsiDomain: 'meet.jit.si',
      storage: { kind: 'local', dir: path.resolve('./data/uploads') },
    });
  });

  it('takes payments with the test cards unless told otherwise, and needs a real choice in production', () => {
    expect(parseConfig({}).payments).toMatchObject({ provider: 'test' });
    expect(parseConfig({ PAYMENTS_PROVIDER: 'manual' }).payments).toMatchObject({ provider: 'manual' });
    expect(parseConfig({ NODE_ENV: 'production', PAYMENTS_PROVIDER: 'none' }).payments).toMatchObject({
      provider: 'none',
    });
    for (const refused of [{}, { PAYMENTS_PROVIDER: 'test' }]) {
      expect(() => parseConfig({ NODE_ENV: 'production', ...refused })).toThrow(
        /PAYMENTS_PROVIDER: must be chosen with NODE_ENV=production, and not test \(choose none, manual or stripe/,
      );
    }
    expect(() => parseConfig({ PAYMENTS_PROVIDER: 'paypal' })).toThrow(
      /PAYMENTS_PROVIDER: must be one of test, none, manual, stripe \(got "paypal"\)/,
    );
  });

  describe('with PAYMENTS_PROVIDER=stripe', () => {
    const testKeys = {
      PAYMENTS_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_51Abc',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_51Abc',
      STRIPE_WEBHOOK_SECRET: 'whsec_Abc123',
    };
    const liveKeys = { ...testKeys, STRIPE_SECRET_KEY: 'sk_live_51Abc', STRIPE_PUBLISHABLE_KEY: 'pk_live_51Abc' };

    it("needs all three keys, of one mode, and reads no other provider's", () => {
      expect(parseConfig(testKeys).payments.stripe).toEqual({
        secretKey: 'sk_test_51Abc',
        publishableKey: 'pk_test_51Abc',
        webhookSecret: 'whsec_Abc123',
        apiBase: null,
      });
      expect(parseConfig({ ...testKeys, PAYMENTS_PROVIDER: 'test' }).payments.stripe).toBeNull();
      expect(() => parseConfig({ PAYMENTS_PROVIDER: 'stripe', STRIPE_PUBLISHABLE_KEY: 'pk_test_1' })).toThrow(
        /STRIPE_SECRET_KEY: must be set with PAYMENTS_PROVIDER=stripe\n.*STRIPE_WEBHOOK_SECRET: must be set/,
      );
      expect(() =>
        parseConfig({ ...testKeys, STRIPE_PUBLISHABLE_KEY: 'pk_live_51Abc', STRIPE_ALLOW_LIVE_KEYS: 'true' }),
      ).toThrow(/STRIPE_PUBLISHABLE_KEY: must be of the same mode \(test or live\) as STRIPE_SECRET_KEY/);
      expect(() => parseConfig({ ...testKeys, STRIPE_PUBLISHABLE_KEY: 'sk_test_51Abc' })).toThrow(
        /STRIPE_PUBLISHABLE_KEY: must be a Stripe key as the dashboard shows it \(pk_test_ or pk_live_…\)/,
      );
    });

    it('refuses test keys in production and live keys elsewhere unless allowed', () => {
      expect(() => parseConfig({ ...testKeys, NODE_ENV: 'production' })).toThrow(
        /STRIPE_SECRET_KEY: must be a live key with NODE_ENV=production/,
      );
      expect(parseConfig({ ...liveKeys, NODE_ENV: 'production' }).payments.stripe?.secretKey).toBe('sk_live_51Abc');
      expect(() => parseConfig(liveKeys)).toThrow(/STRIPE_SECRET_KEY: a live key moves real money/);
      expect(parseConfig({ ...liveKeys, STRIPE_ALLOW_LIVE_KEYS: 'true' }).payments.stripe?.secretKey).toBe(
        'sk_live_51Abc',
      );
    });

    it('never repeats a key it refuses, and points at a stand-in for Stripe only in tests', () => {
      for (const [name, secret] of [
        ['STRIPE_SECRET_KEY', 'pk_live_notASecretKey'],
        ['STRIPE_WEBHOOK_SECRET', 'wh_oops_Secret'],
      ] as const) {
        expect(() => parseConfig({ ...testKeys, [name]: secret })).toThrow(new RegExp(`${name}: must`));
        expect(() => parseConfig({ ...testKeys, [name]: secret })).not.toThrow(new RegExp(secret));
      }
      const apiBase = 'http://127.0.0.1:12111';
      expect(
        parseConfig({ ...testKeys, NODE_ENV: 'test', STRIPE_API_BASE: apiBase }).payments.stripe?.apiBase?.href,
      ).toBe(`${apiBase}/`);
      expect(parseConfig({ ...testKeys, STRIPE_API_BASE: apiBase }).payments.stripe?.apiBase).toBeNull();
    });
  });

  it('takes 15 % commission and releases 7 days after delivery unless told otherwise, percent to basis points', () => {
    expect(parseConfig({}).payments).toMatchObject({ commissionBasisPoints: 1_500, releaseAfterDays: 7 });
    expect(
      parseConfig({ PAYMENTS_COMMISSION_PERCENT: '12.25', PAYMENTS_RELEASE_AFTER_DAYS: '3' }).payments,
    ).toMatchObject({ commissionBasisPoints: 1_225, releaseAfterDays: 3 });
    expect(parseConfig({ PAYMENTS_COMMISSION_PERCENT: '0' }).payments.commissionBasisPoints).toBe(0);
    expect(parseConfig({ PAYMENTS_COMMISSION_PERCENT: '100' }).payments.commissionBasisPoints).toBe(10_000);
    for (const refused of ['12.345', '-1', '100.01', '1e1', 'fifteen']) {
      expect(() => parseConfig({ PAYMENTS_COMMISSION_PERCENT: refused })).toThrow(
        /PAYMENTS_COMMISSION_PERCENT: must be a percentage from 0 to 100 with at most two decimals/,
      );
    }
    for (const refused of ['0', '1.5', 'week']) {
      expect(() => parseConfig({ PAYMENTS_RELEASE_AFTER_DAYS: refused })).toThrow(
        /PAYMENTS_RELEASE_AFTER_DAYS: must be/,
      );
    }
  });

  it('reconciles every few minutes, and holds a pay before its record only in tests', () => {
    expect(parseConfig({ PAYMENTS_RECONCILE_INTERVAL_SECONDS: '2' }).payments.reconcileIntervalMs).toBe(2_000);
    expect(() => parseConfig({ PAYMENTS_RECONCILE_INTERVAL_SECONDS: '0' })).toThrow(
      /PAYMENTS_RECONCILE_INTERVAL_SECONDS: must be a whole number of seconds from 1 to 86400/,
    );
    expect(parseConfig({ NODE_ENV: 'test', PAYMENTS_PAUSE_BEFORE_RECORD: 'true' }).payments.pauseBeforeRecord).toBe(
      true,
    );
    expect(parseConfig({ PAYMENTS_PAUSE_BEFORE_RECORD: 'true' }).payments.pauseBeforeRecord).toBe(false);
  });

  it('names the operator on receipts: the product unless told otherwise, address and VAT number only when set', () => {
    expect(parseConfig({}).operator).toEqual({ legalName: 'Virtual Help', address: null, vatNumber: null });
    expect(
      parseConfig({
        OPERATOR_LEGAL_NAME: ' Virtual Help Ltd ',
        OPERATOR_ADDRESS: 'Seestrasse 1, 6000 Lucerne, Switzerland',
        OPERATOR_VAT_NUMBER: 'CHE-123.456.789 MWST',
        OPERATOR_UNUSED: '',
      }).operator,
    ).toEqual({
      legalName: 'Virtual Help Ltd',
      address: 'Seestrasse 1, 6000 Lucerne, Switzerland',
      vatNumber: 'CHE-123.456.789 MWST',
    });
    expect(parseConfig({ OPERATOR_ADDRESS: '', OPERATOR_VAT_NUMBER: '' }).operator).toMatchObject({
      address: null,
      vatNumber: null,
    });
    expect(() => parseConfig({ OPERATOR_LEGAL_NAME: '   ' })).toThrow(
      /OPERATOR_LEGAL_NAME: must be 1 to 200 characters on one line/,
    );
    expect(() => parseConfig({ OPERATOR_ADDRESS: 'Seestrasse 1\n6000 Lucerne' })).toThrow(
      /OPERATOR_ADDRESS: must be 1 to 500 characters on one line/,
    );
    expect(() => parseConfig({ OPERATOR_VAT_NUMBER: 'VAT: <none>' })).toThrow(
      /OPERATOR_VAT_NUMBER: must be letters and digits \(spaces, dots and dashes allowed\)/,
    );
  });

  it('derives the public URL from the port and treats empty values as unset', () => {
    expect(parseConfig({ PORT: '8080', DATABASE_URL: '' }).publicUrl).toBe('http://localhost:8080');
    expect(parseConfig({ PUBLIC_URL: 'https://help.example.com/' }).publicUrl).toBe('https://help.example.com');
  });

  it('never repeats a secret it refuses: the message goes to the log', () => {
    for (const [name, secret] of [
      ['AUTH_SECRET', 'too-short-secret'],
      ['ADMIN_PASSWORD', 'short'],
      ['METRICS_TOKEN', 'short-token'],
    ] as const) {
      expect(() => parseConfig({ [name]: secret })).toThrow(new RegExp(`${name}: must be at least`));
      expect(() => parseConfig({ [name]: secret })).not.toThrow(new RegExp(secret));
    }
  });

  it('fails with a clear message naming each bad value', () => {
    expect(() => parseConfig({ PORT: 'abc' })).toThrow(ConfigError);
    expect(() => parseConfig({ PORT: 'abc' })).toThrow(/PORT: must be a port number \(got "abc"\)/);
    expect(() => parseConfig({ DATABASE_URL: 'mysql://x' })).toThrow(
      /DATABASE_URL: must start with postgres:\/\/ or postgresql:\/\//,
    );
    expect(() => parseConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN: must be at least 16 characters/);
    expect(() => parseConfig({ REQUIRE_EMAIL_CONFIRMATION: 'maybe' })).toThrow(
      /REQUIRE_EMAIL_CONFIRMATION: must be true or false/,
    );
    try {
      parseConfig({ PORT: '70000', ADMIN_EMAIL: 'nope' });
      expect.unreachable();
    } catch (error) {
      expect((error as ConfigError).problems).toHaveLength(2);
    }
  });

  it('defaults to an admin address the sign-in form accepts, and refuses one it would not', () => {
    expect(loginSchema.safeParse({ email: parseConfig({}).admin.email, password: 'secret1' }).success).toBe(true);
    expect(() => parseConfig({ ADMIN_EMAIL: 'admin@localhost' })).toThrow(
      /ADMIN_EMAIL: must be an e-mail address the sign-in form accepts/,
    );
  });

  it('trusts no proxy unless told how many hops or which addresses', () => {
    expect(parseConfig({}).trustProxy).toBe(false);
    expect(parseConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(parseConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1,fd00::/8,loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
    for (const bad of ['true', 'yes', '10.0.0.0/33', 'example.com', '1.2.3.4/8/1', '-1'])
      expect(() => parseConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY: must be a number of proxy hops/);
  });

  it('switches storage to S3 when a bucket is configured and keeps secrets out of the public settings', () => {
    const config = parseConfig({
      S3_BUCKET: 'files',
      S3_SECRET_ACCESS_KEY: 'secret',
      AI_API_KEY: 'key',
      WHATSAPP_NUMBER: '+41791234567',
    });
    expect(config.storage).toMatchObject({ kind: 's3', bucket: 'files' });
    expect(config.publicSettings.whatsappNumber).toBe('41791234567');
    expect(JSON.stringify(config.publicSettings)).not.toMatch(/secret|key/);
  });

  it('asks a model server only when both its address and model are set, with a timeout', () => {
    expect(parseConfig({}).ai.modelServer).toBeNull();
    expect(parseConfig({ AI_BASE_URL: 'http://localhost:11434/v1', AI_MODEL: 'llama3.2' }).ai.modelServer).toEqual({
      baseUrl: 'http://localhost:11434/v1',
      apiKey: undefined,
      model: 'llama3.2',
      timeoutMs: 60_000,
    });
    expect(() => parseConfig({ AI_BASE_URL: 'http://localhost:11434/v1' })).toThrow(/AI_MODEL: must name the model/);
    expect(() => parseConfig({ AI_BASE_URL: 'ftp://x', AI_MODEL: 'm' })).toThrow(/AI_BASE_URL: must start with/);
    expect(() => parseConfig({ AI_TIMEOUT_SECONDS: '0' })).toThrow(/AI_TIMEOUT_SECONDS: must be a number of seconds/);
  });
});
