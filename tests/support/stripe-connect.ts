import { eq } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import { users } from '../../src/server/db/schema/auth.ts';
import { stripeConnectedAccounts, stripeDisputes, stripeTransfers } from '../../src/server/db/schema/stripe-connect.ts';
import { ledgerAccountBalance, postingCentsByKind } from '../../src/server/features/payments/service.ts';
import { call, signedInTeacher, type Caller } from './callers.ts';
import { createSessionCookie, createSubAdmin, createSubject } from './factories.ts';
import { startStripeFake, type StripeFake } from './stripe-fake.ts';
import { createStripePaidJob } from './stripe-job.ts';
import { createTestApp, type TestApp } from './test-app.ts';
import { eventually } from './time.ts';

// Stripe Connect as its tests drive it: the app under PAYMENTS_PROVIDER=stripe against the stand-in for Stripe, the
// tutors' connected accounts, the events Stripe sends, and looks at transfers, chargebacks and the ledger.

export type StripeConnectApp = { t: TestApp; fake: StripeFake; subjectId: string; paymentsAdmin: string };

/** The app and the stand-in, a subject to teach, and the cookie of an admin with the payments permission. */
export async function startStripeConnectApp() {
  const fake = await startStripeFake({ webhookSecret: 'whsec_connect' });
  const t = await createTestApp({
    PAYMENTS_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: 'sk_test_connect',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_connect',
    STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
    STRIPE_CONNECT_WEBHOOK_SECRET: 'whsec_connectedaccounts',
    STRIPE_API_BASE: fake.url,
    PAYMENTS_COMMISSION_PERCENT: '15',
  });
  const subjectId = (await createSubject(t.db, { name: 'Biology' })).id;
  const paymentsAdmin = (await createSessionCookie(t.db, (await createSubAdmin(t.db, ['payments'])).id)).header;
  return {
    t,
    fake,
    subjectId,
    paymentsAdmin,
    close: async () => {
      await t.close();
      await fake.close();
    },
  };
}

/**
 * The app of a test file, started before its tests and closed after them (`app` holds it from then on), with the
 * calls and looks its tests share.
 */
export function useStripeConnectApp() {
  const app = {} as StripeConnectApp;
  let close = async () => {};
  beforeAll(async () => {
    const started = await startStripeConnectApp();
    close = started.close;
    Object.assign(app, started);
  });
  afterAll(() => close());
  const adultTeacher = async () => {
    const { t, subjectId } = app;
    const tutor = await signedInTeacher(t, [subjectId]);
    await t.db.update(users).set({ adultConfirmedAt: new Date() }).where(eq(users.id, tutor.user.id));
    return tutor;
  };
  const setUp = (tutor: Caller | undefined) => call(app.t, tutor, 'POST', '/api/earnings/payout-setup');
  const accountOf = async (tutorId: string) =>
    (await app.t.db.select().from(stripeConnectedAccounts).where(eq(stripeConnectedAccounts.tutorId, tutorId)))[0];
  /** The id of the tutor's connected account, made by a set-up. */
  const accountIdOf = async (tutorId: string) => {
    const accountId = (await accountOf(tutorId))?.accountId;
    if (!accountId) throw new Error('the tutor has no connected account');
    return accountId;
  };
  const sendEvent = (event: { body: string; signature: string }) =>
    app.t.app.inject({
      method: 'POST',
      url: '/api/payments/stripe/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
      payload: event.body,
    });
  /** Stripe's account.updated, from the Connect endpoint (events on connected accounts), signed with its secret. */
  const accountUpdated = (accountId: string, id?: string) =>
    sendEvent(
      app.fake.signedEvent(
        { id, type: 'account.updated', object: { id: accountId, object: 'account' } },
        { secret: 'whsec_connectedaccounts' },
      ),
    );
  const disputeOf = async (id: string) =>
    (await app.t.db.select().from(stripeDisputes).where(eq(stripeDisputes.id, id)))[0];
  /** What a ledger posting moved, by account kind. */
  const postingOf = (idempotencyKey: string) => postingCentsByKind(app.t.db, idempotencyKey);

  return {
    app,
    adultTeacher,
    setUp,
    accountOf,
    accountIdOf,
    sendEvent,
    accountUpdated,
    disputeOf,
    postingOf,
    earnings: async (tutor: Caller) => (await call(app.t, tutor, 'GET', '/api/earnings')).json(),
    available: (tutorId: string) =>
      ledgerAccountBalance({ db: app.t.db, account: { kind: 'tutor_earnings_available', userId: tutorId } }),
    transferOf: async (requestId: string) =>
      (await app.t.db.select().from(stripeTransfers).where(eq(stripeTransfers.requestId, requestId)))[0],
    /** A chargeback on the job's charge that Stripe opens, then closes lost, told by its two events. */
    loseChargeback: async (paymentIntentId: string) => {
      const { fake } = app;
      const dispute = fake.openDispute(paymentIntentId);
      await sendEvent(fake.signedEvent({ type: 'charge.dispute.created', object: { id: dispute.id } }));
      await eventually(async () => (await disputeOf(dispute.id)) !== undefined);
      fake.closeDispute(dispute.id, 'lost');
      await sendEvent(fake.signedEvent({ type: 'charge.dispute.closed', object: { id: dispute.id } }));
      await eventually(async () => (await postingOf(`dispute:${dispute.id}`)).refunds !== undefined);
      return dispute.id;
    },
    /** The student marks the job completed, which releases its money. */
    complete: (job: { student: Caller; requestId: string }) =>
      call(app.t, job.student, 'POST', `/api/requests/${job.requestId}/complete`),
    /** A job of the tutor's in the file's subject, paid through Stripe (2000 cents unless said). */
    paidJob: (tutor: Caller, cents?: number) =>
      createStripePaidJob(app.t, app.fake, { subjectId: app.subjectId, tutor, cents }),
    /** A tutor whose payouts Stripe has enabled (onboarding finished, told by account.updated). */
    onboardedTeacher: async () => {
      const tutor = await adultTeacher();
      await setUp(tutor);
      const accountId = await accountIdOf(tutor.user.id);
      app.fake.updateAccount(accountId, { payouts_enabled: true });
      await accountUpdated(accountId);
      await eventually(async () => (await accountOf(tutor.user.id))!.payoutsEnabled);
      return tutor;
    },
  };
}
