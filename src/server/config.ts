import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_COMMISSION_BASIS_POINTS, DEFAULT_RELEASE_AFTER_DAYS } from '#shared/constants.ts';
import { parseCents } from '#shared/rules/money.ts';

// The only module that reads process.env: everything else receives a parsed Config.

/** Where the local store keeps files; also where a backup's files are restored and storage:migrate reads them. */
export const localUploadsDir = (dataDir: string) => path.join(dataDir, 'uploads');

const booleanFromString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const millisecondsUpTo = (max: number) => {
  const message = `must be a whole number of milliseconds from 0 to ${max}`;
  return z.coerce.number({ message }).int({ message }).min(0, { message }).max(max, { message });
};

const optionalUrl = (protocols: string[]) =>
  z
    .url({ message: 'must be a URL' })
    .refine((value) => protocols.some((protocol) => value.startsWith(`${protocol}:`)), {
      message: `must start with ${protocols.map((p) => `${p}://`).join(' or ')}`,
    })
    .optional();

// Deliberately loose for addresses we only send from or show.
const emailAddress = z.string().regex(/^[^\s@]+@[^\s@]+$/, { message: 'must be an e-mail address' });
// The super-admin must be able to sign in, so its address passes the sign-in form's check (no `admin@localhost`:
// both our form schema and better-auth refuse an address without a dot in the domain).
const signInEmailAddress = z.email({
  message: 'must be an e-mail address the sign-in form accepts, e.g. admin@virtualhelp.example',
});

// A proxy address or range as proxy-addr (Fastify's trustProxy) reads it: an IP, an IP/prefix, or a named range.
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const isProxyRange = (entry: string) => {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [ip, prefix, ...rest] = entry.split('/');
  const family = isIP(ip ?? '');
  if (family === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
};

/**
 * Whose X-Forwarded-For to believe: none by default (any client could name its own address and slip past every
 * per-IP limit), a hop count, or the proxies' addresses.
 */
const trustProxySchema = z
  .string()
  .refine((value) => /^\d+$/.test(value) || value.split(',').every((entry) => isProxyRange(entry.trim())), {
    message: 'must be a number of proxy hops or a comma-separated list of proxy addresses or CIDR ranges',
  })
  .transform((value): number | string[] =>
    /^\d+$/.test(value) ? Number(value) : value.split(',').map((entry) => entry.trim()),
  )
  .optional();

// A percentage with at most two decimals, read as text like an amount: its hundredths are basis points (15.5 is 1,550).
const percentAsBasisPoints = z
  .string()
  .transform((value, context) => {
    const basisPoints = parseCents(value);
    if (basisPoints === null || basisPoints > 10_000) {
      context.addIssue({ code: 'custom', message: 'must be a percentage from 0 to 100 with at most two decimals' });
      return z.NEVER;
    }
    return basisPoints;
  })
  .optional();

// One line printed on receipts.
const operatorDetail = (maxLength: number) =>
  z
    .string()
    .trim()
    .min(1, { message: `must be 1 to ${maxLength} characters on one line` })
    .max(maxLength, { message: `must be 1 to ${maxLength} characters on one line` })
    .refine((value) => !/[\r\n]/.test(value), { message: `must be 1 to ${maxLength} characters on one line` });

// Stripe's keys name their mode: `sk_test_`/`pk_test_` move no money, `sk_live_`/`rk_live_`/`pk_live_` move real money.
const stripeKey = (prefixes: string[], example: string) =>
  z.string().regex(new RegExp(`^(?:${prefixes.join('|')})_(?:test|live)_[A-Za-z0-9]+$`), {
    message: `must be a Stripe key as the dashboard shows it (${example}…)`,
  });
const isLiveStripeKey = (key: string) => key.includes('_live_');

// Settings whose value a start-up error must not repeat: the error goes to the log.
const SECRET_SETTINGS = new Set([
  'AUTH_SECRET',
  'ADMIN_PASSWORD',
  'AI_API_KEY',
  'S3_SECRET_ACCESS_KEY',
  'METRICS_TOKEN',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'VAPID_PRIVATE_KEY',
]);

const emptyAsUndefined = (env: NodeJS.ProcessEnv) =>
  Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));

/**
 * Who takes the money: `test` (the default: test cards, no real money moves), `none` (a marketplace free of charge)
 * `manual` (an admin records bank transfers and payouts) or `stripe` (cards and Connect payouts, docs/decisions/0051).
 */
export const PAYMENTS_PROVIDERS = ['test', 'none', 'manual', 'stripe'] as const;

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce
    .number({ message: 'must be a port number' })
    .int({ message: 'must be a port number' })
    .min(0, { message: 'must be a port number' })
    .max(65535, { message: 'must be a port number' })
    .default(3000),
  HOST: z.string().default('0.0.0.0'),
  TRUST_PROXY: trustProxySchema,
  READY_MAX_EVENT_LOOP_LAG_MS: millisecondsUpTo(60_000).default(1_000),
  SHUTDOWN_DRAIN_DELAY_MS: millisecondsUpTo(300_000).optional(),
  SHUTDOWN_TIMEOUT_MS: millisecondsUpTo(600_000).default(30_000),
  PUBLIC_URL: z.url({ message: 'must be a URL' }).optional(),
  DATA_DIR: z.string().default('./data'),
  ERASURE_LOG: z.string().optional(),
  DATABASE_URL: optionalUrl(['postgres', 'postgresql']),
  SMTP_URL: optionalUrl(['smtp', 'smtps']),
  MAIL_FROM: z.string().default('Virtual Help <no-reply@localhost>'),
  REQUIRE_EMAIL_CONFIRMATION: booleanFromString.default(true),
  ADMIN_EMAIL: signInEmailAddress.default('admin@virtualhelp.example'),
  ADMIN_PASSWORD: z.string().min(8, { message: 'must be at least 8 characters' }).optional(),
  AUTH_SECRET: z.string().min(32, { message: 'must be at least 32 characters' }).optional(),
  AI_BASE_URL: optionalUrl(['http', 'https']),
  AI_API_KEY: z.string().optional(),
  AI_MODEL: z.string().optional(),
  AI_TIMEOUT_SECONDS: z.coerce
    .number({ message: 'must be a number of seconds' })
    .positive({ message: 'must be a number of seconds' })
    .max(600, { message: 'must be at most 600 seconds' })
    .default(60),
  JITSI_DOMAIN: z.string().default('meet.jit.si'),
  S3_BUCKET: z.string().optional(),
  S3_ENDPOINT: optionalUrl(['http', 'https']),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: booleanFromString.default(false),
  REDIS_URL: optionalUrl(['redis', 'rediss']),
  SUPPORT_PHONE: z.string().default('+41 41 000 00 00'),
  SUPPORT_EMAIL: emailAddress.default('support@virtualhelp.example'),
  WHATSAPP_NUMBER: z
    .string()
    .regex(/^\+?\d{6,15}$/, { message: 'must be a phone number in digits' })
    .default('41410000000'),
  METRICS_TOKEN: z.string().min(16, { message: 'must be at least 16 characters' }).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PAYMENTS_PROVIDER: z
    .enum(PAYMENTS_PROVIDERS, { message: `must be one of ${PAYMENTS_PROVIDERS.join(', ')}` })
    .optional(),
  PAYMENTS_COMMISSION_PERCENT: percentAsBasisPoints,
  PAYMENTS_RELEASE_AFTER_DAYS: z.coerce
    .number({ message: 'must be a whole number of days' })
    .int({ message: 'must be a whole number of days' })
    .min(1, { message: 'must be at least 1 day' })
    .max(365, { message: 'must be at most 365 days' })
    .default(DEFAULT_RELEASE_AFTER_DAYS),
  PAYMENTS_RECONCILE_INTERVAL_SECONDS: z.coerce
    .number()
    .int()
    .min(1, { message: 'must be a whole number of seconds from 1 to 86400' })
    .max(86_400, { message: 'must be a whole number of seconds from 1 to 86400' })
    .default(300),
  STRIPE_SECRET_KEY: stripeKey(['sk', 'rk'], 'sk_test_ or sk_live_').optional(),
  STRIPE_PUBLISHABLE_KEY: stripeKey(['pk'], 'pk_test_ or pk_live_').optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_[A-Za-z0-9+/=]+$/, { message: 'must start with whsec_' })
    .optional(),
  // The signing secret of a second endpoint (same address) for events on connected accounts (account.updated).
  STRIPE_CONNECT_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_[A-Za-z0-9+/=]+$/, { message: 'must start with whsec_' })
    .optional(),
  STRIPE_ALLOW_LIVE_KEYS: booleanFromString.default(false),
  // Tests only (ignored unless NODE_ENV=test): the address of a stand-in for api.stripe.com.
  STRIPE_API_BASE: optionalUrl(['http', 'https']),
  // Tests only (ignored unless NODE_ENV=test): a pay stops between the provider's confirmation and its record.
  PAYMENTS_PAUSE_BEFORE_RECORD: booleanFromString.default(false),
  // Web Push (VAPID): all three, or none and a key pair generated into the data directory.
  VAPID_PUBLIC_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{87}$/, { message: 'must be a P-256 public key, 65 bytes in base64url' })
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, { message: 'must be a P-256 private key, 32 bytes in base64url' })
    .optional(),
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/, { message: 'must be a mailto: or https:// address' })
    .optional(),
  // Tests only (ignored unless NODE_ENV=test): push endpoints at this origin are accepted although it is local.
  PUSH_TEST_ENDPOINT_ORIGIN: optionalUrl(['http', 'https']),
  // Who takes the money, as receipts name them: the company's legal name, postal address and VAT number.
  OPERATOR_LEGAL_NAME: operatorDetail(200).default('Virtual Help'),
  OPERATOR_ADDRESS: operatorDetail(500).optional(),
  OPERATOR_VAT_NUMBER: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9 .-]{1,30}$/, {
      message: 'must be letters and digits (spaces, dots and dashes allowed)',
    })
    .optional(),
});

export type Config = ReturnType<typeof parseConfig>;
export type StripeSettings = ReturnType<typeof stripeSettings>;

/**
 * The Stripe keys, all three required, of one mode: test keys never in production (a shop that takes no money),
 * live keys only in production unless STRIPE_ALLOW_LIVE_KEYS says a staging server means it (real money).
 */
function stripeSettings(e: z.infer<typeof envSchema>) {
  const {
    STRIPE_SECRET_KEY: secretKey,
    STRIPE_PUBLISHABLE_KEY: publishableKey,
    STRIPE_WEBHOOK_SECRET: webhookSecret,
  } = e;
  const missing = [
    ['STRIPE_SECRET_KEY', secretKey],
    ['STRIPE_PUBLISHABLE_KEY', publishableKey],
    ['STRIPE_WEBHOOK_SECRET', webhookSecret],
  ].flatMap(([name, value]) => (value ? [] : [`${name}: must be set with PAYMENTS_PROVIDER=stripe`]));
  if (!secretKey || !publishableKey || !webhookSecret) throw new ConfigError(missing);
  const live = isLiveStripeKey(secretKey);
  if (live !== isLiveStripeKey(publishableKey)) {
    throw new ConfigError(['STRIPE_PUBLISHABLE_KEY: must be of the same mode (test or live) as STRIPE_SECRET_KEY']);
  }
  if (e.NODE_ENV === 'production' && !live) {
    throw new ConfigError(['STRIPE_SECRET_KEY: must be a live key with NODE_ENV=production (test keys take no money)']);
  }
  if (e.NODE_ENV !== 'production' && live && !e.STRIPE_ALLOW_LIVE_KEYS) {
    throw new ConfigError([
      'STRIPE_SECRET_KEY: a live key moves real money; use it with NODE_ENV=production, or set STRIPE_ALLOW_LIVE_KEYS=true',
    ]);
  }
  return {
    secretKey,
    publishableKey,
    webhookSecret,
    ...(e.STRIPE_CONNECT_WEBHOOK_SECRET && { connectWebhookSecret: e.STRIPE_CONNECT_WEBHOOK_SECRET }),
    apiBase: e.NODE_ENV === 'test' && e.STRIPE_API_BASE ? new URL(e.STRIPE_API_BASE) : null,
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function parseConfig(env: NodeJS.ProcessEnv = process.env) {
  const parsed = envSchema.safeParse(emptyAsUndefined(env));
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map(
        (issue) =>
          `${issue.path.join('.')}: ${issue.message}${SECRET_SETTINGS.has(String(issue.path[0])) ? '' : ` (got "${env[String(issue.path[0])]}")`}`,
      ),
    );
  }
  const e = parsed.data;
  if (e.AI_BASE_URL && !e.AI_MODEL) {
    throw new ConfigError([
      'AI_MODEL: must name the model to ask when AI_BASE_URL is set (e.g. gpt-4o-mini, llama3.2)',
    ]);
  }
  // Production takes real money only from an operator who chose how: the test cards would let anyone in for free.
  if (e.NODE_ENV === 'production' && (e.PAYMENTS_PROVIDER ?? 'test') === 'test') {
    throw new ConfigError([
      `PAYMENTS_PROVIDER: must be chosen with NODE_ENV=production, and not test (choose none, manual or stripe; got "${env.PAYMENTS_PROVIDER ?? ''}")`,
    ]);
  }
  const stripe = e.PAYMENTS_PROVIDER === 'stripe' ? stripeSettings(e) : null;
  const vapidKeys = [e.VAPID_PUBLIC_KEY, e.VAPID_PRIVATE_KEY].filter(Boolean).length;
  if (vapidKeys === 1) {
    throw new ConfigError(['VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: set both, or neither to keep a generated pair']);
  }
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    isProduction: e.NODE_ENV === 'production',
    port: e.PORT,
    host: e.HOST,
    trustProxy: e.TRUST_PROXY ?? false,
    readiness: { maxEventLoopLagMs: e.READY_MAX_EVENT_LOOP_LAG_MS },
    shutdown: {
      // Outside production a restart (the dev server's watch, a test) need not wait for a proxy.
      drainDelayMs: e.SHUTDOWN_DRAIN_DELAY_MS ?? (e.NODE_ENV === 'production' ? 5_000 : 0),
      timeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    },
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    dataDir,
    // Outside the data directory, which a restore replaces: the erasures to apply again after one (decision 0062).
    erasureLog: path.resolve(e.ERASURE_LOG ?? `${dataDir}.erasures.log`),
    databaseUrl: e.DATABASE_URL,
    mail: {
      smtpUrl: e.SMTP_URL,
      from: e.MAIL_FROM,
      outboxDir: path.join(dataDir, 'outbox'),
    },
    auth: {
      requireEmailConfirmation: e.REQUIRE_EMAIL_CONFIRMATION,
      secret: e.AUTH_SECRET,
    },
    admin: { email: e.ADMIN_EMAIL.toLowerCase(), password: e.ADMIN_PASSWORD },
    ai: {
      // Both set, or Guru AI answers offline.
      modelServer:
        e.AI_BASE_URL && e.AI_MODEL
          ? { baseUrl: e.AI_BASE_URL, apiKey: e.AI_API_KEY, model: e.AI_MODEL, timeoutMs: e.AI_TIMEOUT_SECONDS * 1000 }
          : null,
    },
    jitsiDomain: e.JITSI_DOMAIN,
    storage: e.S3_BUCKET
      ? {
          kind: 's3' as const,
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT,
          region: e.S3_REGION,
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          forcePathStyle: e.S3_FORCE_PATH_STYLE,
        }
      : { kind: 'local' as const, dir: localUploadsDir(dataDir) },
    payments: {
      provider: e.PAYMENTS_PROVIDER ?? ('test' as const),
      commissionBasisPoints: e.PAYMENTS_COMMISSION_PERCENT ?? DEFAULT_COMMISSION_BASIS_POINTS,
      releaseAfterDays: e.PAYMENTS_RELEASE_AFTER_DAYS,
      reconcileIntervalMs: e.PAYMENTS_RECONCILE_INTERVAL_SECONDS * 1000,
      pauseBeforeRecord: e.NODE_ENV === 'test' && e.PAYMENTS_PAUSE_BEFORE_RECORD,
      stripe,
    },
    // Receipts leave out the address and VAT number the operator did not set.
    operator: {
      legalName: e.OPERATOR_LEGAL_NAME,
      address: e.OPERATOR_ADDRESS ?? null,
      vatNumber: e.OPERATOR_VAT_NUMBER ?? null,
    },
    redisUrl: e.REDIS_URL,
    metricsToken: e.METRICS_TOKEN,
    push: {
      keys:
        e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY
          ? { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY }
          : null,
      // Push services answer to a contact: the operator's address by default.
      subject: e.VAPID_SUBJECT ?? (e.PUBLIC_URL?.startsWith('https://') ? e.PUBLIC_URL : `mailto:${e.SUPPORT_EMAIL}`),
      testEndpointOrigin:
        e.NODE_ENV === 'test' && e.PUSH_TEST_ENDPOINT_ORIGIN ? new URL(e.PUSH_TEST_ENDPOINT_ORIGIN).origin : null,
    },
    // The whitelist of what the browser may see.
    publicSettings: {
      supportPhone: e.SUPPORT_PHONE,
      supportEmail: e.SUPPORT_EMAIL,
      whatsappNumber: e.WHATSAPP_NUMBER.replace(/^\+/, ''),
      jitsiDomain: e.JITSI_DOMAIN,
      payments: (e.PAYMENTS_PROVIDER ?? 'test') !== 'none',
      releaseAfterDays: e.PAYMENTS_RELEASE_AFTER_DAYS,
      commissionPercent: (e.PAYMENTS_COMMISSION_PERCENT ?? DEFAULT_COMMISSION_BASIS_POINTS) / 100,
    },
    logLevel: e.LOG_LEVEL,
  };
}
