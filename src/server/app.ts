import path from 'node:path';
import { constants as zlibConstants } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import compress from '@fastify/compress';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import type { Config } from './config.ts';
import { databaseSourceFor, openDatabase, type DatabaseHandle } from './db/client.ts';
import { createAuth, SESSION_COOKIE_NAME, sessionCookieOf, sessionResolverFor } from './features/auth/auth.ts';
import { adminRoutes } from './features/admin/routes.ts';
import { completeThroughRecord, paymentListerFor, startPaymentReconciliation } from './features/payments/service.ts';
import { acceptPaidOfferFor } from './features/payments/paid-offer.ts';
import { hasAdminRole, isSuperAdmin, recordSecondFactorChange } from './features/admin/service.ts';
import { accountsRoutes, authRoutes } from './features/auth/routes.ts';
import { dataExportWork, expiredDataExportsJob } from './features/account/export/service.ts';
import { accountErasureWork, replayErasureLog } from './features/account/erasure.ts';
import { accountRoutes } from './features/account/routes.ts';
import { sessionLifetimeJob } from './features/auth/session-lifetime.ts';
import { createModeration } from './features/moderation/service.ts';
import { orphanUploadsJob } from './features/chat/orphan-uploads.ts';
import { chatRoutes } from './features/chat/routes.ts';
import { createAssistant } from './features/guru/assistant.ts';
import { expiredQuestionTurnsJob } from './features/guru/question-turns.ts';
import { guruRoutes } from './features/guru/routes.ts';
import { healthRoutes } from './features/health/routes.ts';
import { mailAddressOf, meetingRemindersJob } from './features/meetings/service.ts';
import { meetingsRoutes } from './features/meetings/routes.ts';
import { pagesRoutes } from './features/pages/routes.ts';
import { refundRoutes } from './features/payments/refund-routes.ts';
import {
  adjustmentWork,
  checkoutLapseJob,
  deliveredJobsReleaseJob,
  payoutWork,
  refundWork,
  stripeTransferWork,
  suspendedTutorsJobsJob,
  unansweredRefundRequestsJob,
  type Payouts,
  type RefundContext,
} from './features/payments/service.ts';
import { profilesRoutes } from './features/profiles/routes.ts';
import { pushRoutes } from './features/push/routes.ts';
import { notificationsRoutes } from './features/notifications/routes.ts';
import { unsubscribeUrl } from './features/notifications/unsubscribe.ts';
import { requestsRoutes } from './features/requests/routes.ts';
import { reportsRoutes } from './features/reports/routes.ts';
import { searchRoutes } from './features/search/routes.ts';
import { tutorsRoutes } from './features/tutors/routes.ts';
import { savedTutorsRoutes } from './features/tutors/saved-routes.ts';
import { publicPageAt } from './features/tutors/service.ts';
import { seoRoutes } from './features/seo/routes.ts';
import { closeRefundedJob, directAnswerJob, requestExpiryJob } from './features/requests/service.ts';
import { paymentsRoutes } from './features/payments/routes.ts';
import { earningsRoutes } from './features/payments/earnings-routes.ts';
import { createStripeGateway } from './platform/payments/stripe.ts';
import { createTestPaymentProvider } from './platform/payments/test-provider.ts';
import { contentSecurityDirectives } from './http/content-security.ts';
import { openApiOptions } from './http/openapi.ts';
import { createSessionCache, registerSession, toHeaders } from './http/session.ts';
import { readWebBuild, registerSpa } from './http/spa.ts';
import { registerStorableTextRule } from './http/storable-text.ts';
import { registerLostDatabaseAnswer } from './http/lost-database.ts';
import { devMailboxRoutes, warnOfDevOutboxBeyondLoopback } from './platform/mail/dev-mailbox.ts';
import { createMailer, type DevMailListener } from './platform/mail/mailer.ts';
import {
  DEFAULT_MAIL_OUTBOX_TIMING,
  pendingMailCount,
  startMailOutbox,
  type MailOutboxTiming,
} from './platform/mail/outbox.ts';
import { runClaimedWorkWhileUp, startClaimedWork } from './platform/jobs/claimed-work.ts';
import { startIntervalJobs } from './platform/jobs/interval-jobs.ts';
import { expiredUsageCountersJob } from './platform/limits/usage-limits.ts';
import { createMetrics, registerMetrics } from './platform/metrics/metrics.ts';
import { createRealtime, type Realtime } from './platform/realtime/realtime.ts';
import { createStorage } from './platform/storage/storage.ts';
import { registerReadiness } from './http/readiness.ts';
import { createHttpServer } from './http/http-server.ts';
import { resolveAuthSecret } from './system/auth-secret.ts';
import { registerUploads } from './platform/storage/incoming-files.ts';

export type AppDependencies = {
  /** An open database; when omitted the app opens one from the config and closes it on shutdown. */
  database?: DatabaseHandle;
  /** Where the built web app lives; defaults to dist/web. */
  webDir?: string;
  /** How often the mail outbox polls and how long its first retry waits; tests shorten both. */
  mailOutbox?: Partial<MailOutboxTiming>;
  /** Where log lines go (default stdout); tests read them. */
  logStream?: { write(line: string): void };
  /** Told of each mail written to the dev outbox; the server process prints its links to the terminal. */
  onDevMail?: DevMailListener;
  /** How often each socket's session is looked up again; tests shorten it. */
  socketSessionCheckMs?: number;
};

const isSource = import.meta.url.endsWith('.ts');
const defaultWebDir = fileURLToPath(new URL(isSource ? '../../dist/web' : '../web', import.meta.url));

declare module 'fastify' {
  interface FastifyInstance {
    /** Pushes events to signed-in users' sockets; features receive it as a plugin option. */
    realtime: Realtime;
  }
}

export async function buildApp(config: Config, dependencies: AppDependencies = {}) {
  const app = createHttpServer(config, dependencies);

  const database = dependencies.database ?? (await openDatabase(databaseSourceFor(config)));
  if (!dependencies.database) app.addHook('onClose', () => database.close());
  database.pool.on('error', (error) => app.log.error({ err: error }, 'a database connection failed'));
  registerLostDatabaseAnswer(app, database);
  const { db } = database;
  const metrics = createMetrics({ pool: database.pool });
  registerMetrics(app, metrics, config.metricsToken);
  metrics.gauge('mail_outbox_pending', 'Mail waiting in the outbox to be sent', () => pendingMailCount(db));
  // A session that ends (sign-out, reset, revocation) ends its open sockets on every node at once.
  const endSessionSockets = (sessionId: string) => app.realtime.endSession(sessionId);
  const authSecret = resolveAuthSecret(config);
  const auth = createAuth({
    config,
    db,
    secret: authSecret,
    onSessionEnded: endSessionSockets,
    secondFactor: {
      mayUse: (userId) => hasAdminRole(db, userId),
      mustKeep: (userId) => isSuperAdmin(db, userId),
      record: ({ userId, action }) => recordSecondFactorChange(db, { adminId: userId, action }),
    },
  });
  const storage = createStorage(config.storage, app.log);
  // Erasures a restored backup predates are applied again before anything else runs (decision 0062): this is the
  // first hook of the app's start, so no worker started by a later one sends a restored mail to an erased address or
  // works on an erased account's records, and no request is served, before it is done.
  const erasures = { db, storage, erasureLog: config.erasureLog };
  app.addHook('onReady', async () => {
    const replayed = await replayErasureLog(erasures);
    if (replayed > 0) app.log.warn({ replayed }, 'erased accounts found in the database again were erased again');
  });
  const mailer = createMailer(
    config.mail,
    (unsubscribe) => unsubscribeUrl(config.publicUrl, authSecret, unsubscribe),
    dependencies.onDevMail,
  );
  let outbox: ReturnType<typeof startMailOutbox> | undefined;
  app.addHook('onReady', async () => {
    outbox = startMailOutbox({ db, mailer, log: app.log, ...DEFAULT_MAIL_OUTBOX_TIMING, ...dependencies.mailOutbox });
  });
  app.addHook('onClose', async () => {
    await outbox?.stop();
    mailer.close();
  });
  const stripe = config.payments.stripe ? createStripeGateway(config.payments.stripe) : null;
  // Decided refunds are made at once by the request that decides them; this makes any that could not be (a crash, a
  // provider error) once their claim lapses.
  const refunds: RefundContext = {
    publicUrl: config.publicUrl,
    operator: config.operator,
    commissionBasisPoints: config.payments.commissionBasisPoints,
    log: app.log,
    closeRefundedJob,
    stripe,
  };
  runClaimedWorkWhileUp(app, { db, work: refundWork({ db, ctx: refunds }), intervalMs: 60_000, log: app.log });
  runClaimedWorkWhileUp(app, { db, work: adjustmentWork({ db, ctx: refunds }), intervalMs: 60_000, log: app.log });
  // Released shares transferred to tutors' Stripe accounts (docs/decisions/0053): every minute, and at once when a
  // tutor's payouts are enabled or an admin retries a failed one. Any node's work takes a transfer made due, so the
  // node that changed it waking its own is enough.
  const stripeTransfers = stripe
    ? runClaimedWorkWhileUp(app, { db, work: stripeTransferWork({ db, stripe }), intervalMs: 60_000, log: app.log })
    : null;
  const wakeStripeTransfers = () => stripeTransfers?.wake();
  // Periodic database jobs (one node at a time runs each, see interval-jobs.ts).
  let intervalJobs: ReturnType<typeof startIntervalJobs> | undefined;
  app.addHook('onReady', async () => {
    intervalJobs = startIntervalJobs({
      db,
      log: app.log,
      jobs: [
        requestExpiryJob,
        directAnswerJob({ publicUrl: config.publicUrl, realtime }),
        checkoutLapseJob,
        sessionLifetimeJob(endSessionSockets),
        orphanUploadsJob(storage),
        expiredDataExportsJob(storage),
        expiredUsageCountersJob,
        expiredQuestionTurnsJob,
        unansweredRefundRequestsJob,
        suspendedTutorsJobsJob,
        deliveredJobsReleaseJob(config.payments),
        meetingRemindersJob({
          realtime,
          ctx: { publicUrl: config.publicUrl, organizerEmail: mailAddressOf(config.mail.from) },
        }),
      ],
      onRun: (job, outcome) => metrics.jobRuns.inc({ job, outcome }),
    });
  });
  app.addHook('onClose', async () => {
    await intervalJobs?.stop();
  });
  // Payouts: the test provider pays them; under `manual` an admin records each bank transfer; Stripe pays out itself.
  const payouts: Payouts = {
    provider: config.payments.provider === 'none' ? 'test' : config.payments.provider,
    pay: config.payments.provider === 'test' ? createTestPaymentProvider({ secret: authSecret }) : null,
    publicUrl: config.publicUrl,
    operator: config.operator,
  };
  let payoutWorker: ReturnType<typeof startClaimedWork> | undefined;
  app.addHook('onReady', async () => {
    if (payouts.pay) {
      const work = payoutWork({ ...payouts, pay: payouts.pay });
      payoutWorker = startClaimedWork({ db, work, intervalMs: 60_000, log: app.log });
    }
  });
  app.addHook('onClose', async () => {
    await payoutWorker?.stop();
  });

  const webBuild = readWebBuild(dependencies.webDir ?? defaultWebDir, config.publicSettings);
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: contentSecurityDirectives({
        inlineScriptHashes: webBuild.inlineScriptHashes,
        https: config.publicUrl.startsWith('https://'),
        stripe: config.payments.provider === 'stripe',
      }),
    },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(rateLimit, { global: false });
  // JSON and pages over 1 KB go compressed; quick settings, since this runs on every answer (assets come
  // compressed from the build instead, see spa.ts).
  await app.register(compress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
  });
  // Only routes with `multipartOptions` take multipart (see content-types.ts); their files arrive on disk as Uploads.
  await registerUploads(app, { dir: path.join(config.dataDir, 'incoming-uploads') });
  registerStorableTextRule(app);
  await app.register(swagger, openApiOptions({ publicUrl: config.publicUrl, sessionCookieName: SESSION_COOKIE_NAME }));
  const sessions = createSessionCache(sessionResolverFor(auth), sessionCookieOf);
  registerSession(app, sessions.resolve);
  const realtime = await createRealtime({
    server: app.server,
    resolveSession: sessions.resolve,
    allowedOrigins: [config.publicUrl],
    config,
    database,
    log: app.log,
    sessionCheckMs: dependencies.socketSessionCheckMs,
  });
  app.decorate('realtime', realtime);
  realtime.onSessionEnded(sessions.forget);
  realtime.onFanOutBack(sessions.forgetAll);
  metrics.gauge(
    'socketio_sockets_connected',
    'Sockets connected to this process',
    () => realtime.io.engine.clientsCount,
  );
  app.addHook('onClose', () => realtime.close());
  app.addHook('preClose', () => realtime.reconnectElsewhere()); // else closing waits for every open socket

  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  const readiness = registerReadiness(app, config.readiness);
  await app.register(healthRoutes, { db, storage, realtimeFanOut: () => realtime.fanOut(), readiness });
  await app.register(authRoutes, {
    auth,
    db,
    secret: authSecret,
    secureCookies: config.publicUrl.startsWith('https://'),
  });
  await app.register(pagesRoutes, { db, config });
  await app.register(accountsRoutes, { db, auth, config, storage });
  const dataExports = runClaimedWorkWhileUp(app, {
    db,
    work: dataExportWork({ db, storage, publicUrl: config.publicUrl }),
    intervalMs: 60_000,
    log: app.log,
  });
  runClaimedWorkWhileUp(app, { db, work: accountErasureWork(erasures), intervalMs: 60 * 60_000, log: app.log });
  const accountOptions = {
    db,
    realtime,
    storage,
    publicUrl: config.publicUrl,
    erasureLog: config.erasureLog,
    onExportRequested: dataExports.wake,
  };
  await app.register(accountRoutes, accountOptions);
  await app.register(searchRoutes, { db });
  await app.register(reportsRoutes, { db });
  // One moderation for every text users show each other: chat, requests, bids, file names, profiles, reviews.
  const moderation = createModeration({ db, ownOrigins: [config.publicUrl] });
  await app.register(profilesRoutes, { db, storage, moderation });
  // The provider's own records, which the reconciliation compares with the ledger (none for manual and none).
  const paymentLister = paymentListerFor(config.payments.provider, db, stripe);
  // Accepts the offer of a checkout paid other than by the student's card: reconciled, or a recorded bank transfer.
  const acceptPaidOffer = acceptPaidOfferFor({ realtime, publicUrl: config.publicUrl, operator: config.operator });
  await app.register(adminRoutes, {
    db,
    realtime,
    moderation,
    refunds,
    paymentLister,
    acceptPaidOffer,
    takesPayments: config.publicSettings.payments,
    wakeStripeTransfers,
  });
  await app.register(requestsRoutes, {
    db,
    storage,
    realtime,
    moderation,
    publicUrl: config.publicUrl,
    paymentsProvider: config.payments.provider,
    commissionBasisPoints: config.payments.commissionBasisPoints,
  });
  await app.register(paymentsRoutes, {
    db,
    realtime,
    publicUrl: config.publicUrl,
    takesPayments: config.payments.provider !== 'none',
    operator: config.operator,
    pauseBeforeRecord: config.payments.pauseBeforeRecord,
    stripe,
    wakeStripeTransfers,
  });
  // The reconciliation with the provider, on every node (docs/decisions/0043).
  let reconciliation: ReturnType<typeof startPaymentReconciliation> | undefined;
  let mismatchesFound = 0;
  metrics.gauge(
    'payments_reconciliation_mismatches',
    "Payments the provider and the ledger disagree on, at this node's last reconciliation",
    () => mismatchesFound,
  );
  app.addHook('onReady', async () => {
    if (!paymentLister) return;
    reconciliation = startPaymentReconciliation({
      db,
      lister: paymentLister,
      completePayment: completeThroughRecord(db, acceptPaidOffer),
      intervalMs: config.payments.reconcileIntervalMs,
      log: app.log,
      onRun: ({ report, completed }) => {
        mismatchesFound = report.mismatches.length;
        metrics.paymentsReconciled.inc(completed);
        if (completed > 0) app.log.warn({ completed }, 'recorded provider payments whose record had been lost');
        if (report.mismatches.length > 0) {
          app.log.error({ mismatches: report.mismatches }, 'payments differ between the provider and the ledger');
        }
      },
    });
  });
  app.addHook('onClose', async () => {
    await reconciliation?.stop();
  });
  await app.register(tutorsRoutes, { db, realtime, moderation, publicUrl: config.publicUrl });
  await app.register(savedTutorsRoutes, { db });
  await app.register(seoRoutes, { db, publicUrl: config.publicUrl });
  await app.register(notificationsRoutes, { db, authSecret });
  await app.register(earningsRoutes, {
    db,
    commissionBasisPoints: config.payments.commissionBasisPoints,
    payouts,
  });
  const assistant = createAssistant({ db, realtime, storage, moderation, config: config.ai, log: app.log });
  app.addHook('onClose', () => assistant.close());
  await app.register(chatRoutes, {
    db,
    pool: database.pool,
    storage,
    realtime,
    moderation,
    assistant,
    onMessageSent: () => metrics.messagesSent.inc(),
  });
  await app.register(meetingsRoutes, { db, realtime, moderation, config });
  await app.register(pushRoutes, { db, realtime, config });
  await app.register(guruRoutes, { db });
  await app.register(refundRoutes, { db, ctx: refunds });
  if (!config.isProduction) {
    await app.register(devMailboxRoutes, { dir: config.mail.outboxDir, smtpConfigured: Boolean(config.mail.smtpUrl) });
    if (!config.mail.smtpUrl) warnOfDevOutboxBeyondLoopback(app);
  }

  await registerSpa(app, webBuild, {
    hasSessionCookie: (request) => Boolean(sessionCookieOf(toHeaders(request.headers))),
    sessionRole: async (request) => (await request.getSessionUser())?.role ?? null,
    publicPageAt: (pagePath) => publicPageAt({ db, publicUrl: config.publicUrl, pagePath }),
  });
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
