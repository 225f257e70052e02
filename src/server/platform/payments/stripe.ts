import Stripe from 'stripe';
import type { StripeSettings } from '../../config.ts';

// The Stripe API as the payments feature uses it (docs/decisions/0051): separate charges and transfers. The
// platform charges the student with a PaymentIntent, keeps the money on its balance, and transfers the tutor's
// share to their connected account on release. Every call that changes something carries the caller's idempotency
// key, derived from our own records, so a call repeated after a crash or a timeout does what the first one did (the
// SDK's own retry keys are random and would not survive a restart).

/** The API version every request names: Stripe answers in the shapes this code was written against. */
export const STRIPE_API_VERSION = '2026-10-28.endive' satisfies Stripe.LatestApiVersion;

/** How old a webhook's signature may be: Stripe's default, against replays of a captured request. */
export const STRIPE_WEBHOOK_TOLERANCE_SECONDS = 300;

/** What a PaymentIntent has come to, read from Stripe itself (never from the browser). */
export type StripeChargeState =
  | {
      status: 'succeeded';
      paymentIntentId: string;
      amountCents: number;
      chargeId: string;
      /** What Stripe kept of the charge, from its balance transaction. */
      feeCents: number;
      cardLast4: string | null;
    }
  | { status: 'pending'; paymentIntentId: string }
  | { status: 'failed'; paymentIntentId: string; message: string };

/**
 * Whether Stripe answered a call with a refusal (a 4xx, but not 429 "too many requests" or 409 "another request
 * with this key is running"): the request was read and nothing was made, and a repeat under the same key would
 * only be answered the same refusal.
 */
export function stripeRefused(error: unknown) {
  if (!(error instanceof Stripe.errors.StripeError)) return false;
  const status = error.statusCode ?? 0;
  return status >= 400 && status < 500 && status !== 409 && status !== 429;
}

/** How long one request to Stripe may take (the SDK's default is 80 s), and how often the SDK repeats it. */
const STRIPE_REQUEST_TIMEOUT_MS = 12_000;
const STRIPE_NETWORK_RETRIES = 2;

/**
 * The longest a gateway call can take, its repeats and the SDK's waits between them (at most 5 s each) included. A
 * row's lease must be longer than its calls (docs/decisions/0040): a call still under way when its lease lapses
 * could be given up while Stripe is still making it, and looked up before Stripe has it.
 */
const STRIPE_CALL_MAX_MS = (STRIPE_NETWORK_RETRIES + 1) * STRIPE_REQUEST_TIMEOUT_MS + STRIPE_NETWORK_RETRIES * 5_000;

/**
 * The lease of claimed work that calls Stripe: a claim makes at most three calls (a transfer is looked up, its charge
 * read, then made), and then records what they did.
 */
export const STRIPE_WORK_LEASE_MS = 3 * STRIPE_CALL_MAX_MS + 15_000;

/** A client of the Stripe API with the settings' key; `apiBase` (tests only) points it at a stand-in server. */
export function createStripeGateway(settings: StripeSettings) {
  const { apiBase } = settings;
  const stripe = new Stripe(settings.secretKey, {
    apiVersion: STRIPE_API_VERSION,
    maxNetworkRetries: STRIPE_NETWORK_RETRIES,
    timeout: STRIPE_REQUEST_TIMEOUT_MS,
    telemetry: false,
    ...(apiBase && {
      host: apiBase.hostname,
      port: apiBase.port || (apiBase.protocol === 'https:' ? 443 : 80),
      protocol: apiBase.protocol === 'https:' ? 'https' : 'http',
    }),
  });

  const chargeStateOf = (intent: Stripe.PaymentIntent): StripeChargeState => {
    const charge = typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
    const balance = typeof charge?.balance_transaction === 'object' ? charge.balance_transaction : null;
    // Stripe's fee is known once the charge's balance transaction is; until then the payment is not recorded.
    if (intent.status === 'succeeded' && charge && balance) {
      return {
        status: 'succeeded',
        paymentIntentId: intent.id,
        amountCents: intent.amount_received,
        chargeId: charge.id,
        feeCents: balance.fee,
        cardLast4: charge.payment_method_details?.card?.last4 ?? null,
      };
    }
    if (intent.status === 'canceled') {
      return { status: 'failed', paymentIntentId: intent.id, message: 'The payment was cancelled.' };
    }
    return { status: 'pending', paymentIntentId: intent.id };
  };

  return {
    /** The key the browser's Stripe.js is given: the only Stripe key the browser sees. */
    publishableKey: settings.publishableKey,

    /**
     * A PaymentIntent for the amount, captured as soon as the card is confirmed (a hold lasts only days, a job may
     * run longer); the browser confirms it with the client secret. The same key answers the same PaymentIntent.
     */
    async startCharge(input: { idempotencyKey: string; amountCents: number; transferGroup: string }) {
      const intent = await stripe.paymentIntents.create(
        {
          amount: input.amountCents,
          currency: 'usd',
          capture_method: 'automatic',
          automatic_payment_methods: { enabled: true },
          transfer_group: input.transferGroup,
        },
        { idempotencyKey: input.idempotencyKey },
      );
      if (!intent.client_secret) throw new Error(`Stripe gave PaymentIntent ${intent.id} no client secret`);
      return { paymentIntentId: intent.id, clientSecret: intent.client_secret };
    },

    /** Where the PaymentIntent stands now, as Stripe tells it. */
    async chargeState(paymentIntentId: string) {
      const intent = await stripe.paymentIntents.retrieve(paymentIntentId, {
        expand: ['latest_charge.balance_transaction'],
      });
      return chargeStateOf(intent);
    },

    /**
     * Gives some or all of a charge back to the card; the same key refunds once. The key goes in the refund's
     * metadata too, which outlasts Stripe's memory of keys (`refundMadeUnder`).
     */
    async refund(input: { idempotencyKey: string; paymentIntentId: string; amountCents: number }) {
      const refund = await stripe.refunds.create(
        {
          payment_intent: input.paymentIntentId,
          amount: input.amountCents,
          metadata: { idempotency_key: input.idempotencyKey },
        },
        { idempotencyKey: input.idempotencyKey },
      );
      return { refundId: refund.id };
    },

    /**
     * The refund of the PaymentIntent made under the key, if Stripe made one: looked up where a refund's outcome was
     * never learnt, before money goes back under another key.
     */
    async refundMadeUnder(input: { paymentIntentId: string; idempotencyKey: string }) {
      for await (const refund of stripe.refunds.list({ payment_intent: input.paymentIntentId, limit: 100 })) {
        const made = refund.status !== 'failed' && refund.status !== 'canceled';
        if (made && refund.metadata?.idempotency_key === input.idempotencyKey) return { refundId: refund.id };
      }
      return null;
    },

    /**
     * Moves a tutor's share of a charge to their connected account. `source_transaction` ties it to the charge, so
     * it may be made before the charge's money is available on the platform's balance.
     */
    async transfer(input: {
      idempotencyKey: string;
      amountCents: number;
      accountId: string;
      chargeId: string;
      transferGroup: string;
    }) {
      const transfer = await stripe.transfers.create(
        {
          amount: input.amountCents,
          currency: 'usd',
          destination: input.accountId,
          source_transaction: input.chargeId,
          transfer_group: input.transferGroup,
        },
        { idempotencyKey: input.idempotencyKey },
      );
      return { transferId: transfer.id, amountCents: transfer.amount };
    },

    /**
     * Takes part or all of a transfer back from the connected account to the platform's balance; the same key
     * reverses once. Stripe refuses it when the account's balance cannot cover it (paid out to the bank already).
     */
    async reverseTransfer(input: { idempotencyKey: string; transferId: string; amountCents: number }) {
      const reversal = await stripe.transfers.createReversal(
        input.transferId,
        { amount: input.amountCents },
        { idempotencyKey: input.idempotencyKey },
      );
      return { reversalId: reversal.id, amountCents: reversal.amount };
    },

    /**
     * The transfer already made to the account for a job (its `transfer_group`), if any: looked up before a call
     * under a new key, so a transfer an earlier key made is never made twice.
     */
    async transferMadeFor(input: { accountId: string; transferGroup: string }) {
      for await (const transfer of stripe.transfers.list({
        destination: input.accountId,
        transfer_group: input.transferGroup,
        limit: 100,
      })) {
        if (!transfer.reversed) return { transferId: transfer.id, amountCents: transfer.amount };
      }
      return null;
    },

    /**
     * A Connect Express account for a tutor, who completes Stripe's onboarding for it; the same key answers the same
     * account, so a repeated set-up makes one.
     */
    async createConnectedAccount(input: { idempotencyKey: string; tutorId: string }) {
      // Nothing of the tutor's is sent but our id for them: Stripe's onboarding asks them, so a repeat's parameters
      // never differ, and the id finds the account once the key has expired.
      const account = await stripe.accounts.create(
        { type: 'express', capabilities: { transfers: { requested: true } }, metadata: { tutor_id: input.tutorId } },
        { idempotencyKey: input.idempotencyKey },
      );
      return { accountId: account.id };
    },

    /** The platform's connected account made for the tutor (its `metadata.tutor_id`), every page searched. */
    async connectedAccountOf(tutorId: string) {
      for await (const account of stripe.accounts.list({ limit: 100 })) {
        if (account.metadata?.tutor_id === tutorId) return { accountId: account.id };
      }
      return null;
    },

    /**
     * A one-time address of Stripe's onboarding for the account. No idempotency key: a link expires within minutes
     * and a repeated key would answer the expired one; a new link changes nothing at Stripe.
     */
    async onboardingLink(input: { accountId: string; refreshUrl: string; returnUrl: string }) {
      const link = await stripe.accountLinks.create({
        account: input.accountId,
        refresh_url: input.refreshUrl,
        return_url: input.returnUrl,
        type: 'account_onboarding',
      });
      return { url: link.url };
    },

    /** Whether the connected account may be paid and what Stripe still needs, as Stripe tells it now. */
    async connectedAccountState(accountId: string) {
      const account = await stripe.accounts.retrieve(accountId);
      return {
        payoutsEnabled: account.payouts_enabled,
        chargesEnabled: account.charges_enabled,
        requirementsDue: account.requirements?.currently_due ?? [],
      };
    },

    /** The charge a PaymentIntent took, as Stripe tells it now (its id is a transfer's `source_transaction`). */
    async chargeOf(paymentIntentId: string) {
      const intent = await stripe.paymentIntents.retrieve(paymentIntentId);
      const chargeId = typeof intent.latest_charge === 'string' ? intent.latest_charge : intent.latest_charge?.id;
      if (intent.status !== 'succeeded' || !chargeId) throw new Error(`PaymentIntent ${paymentIntentId} has no charge`);
      return { chargeId };
    },

    /**
     * The succeeded PaymentIntents created since the time, every page of them, with their fees: the reconciliation's
     * view of the money Stripe holds (docs/decisions/0043).
     */
    async succeededCharges({ since }: { since: Date }) {
      const charges: Extract<StripeChargeState, { status: 'succeeded' }>[] = [];
      const created = new Map<string, Date>();
      const pages = stripe.paymentIntents.list({
        created: { gte: Math.floor(since.getTime() / 1000) },
        limit: 100,
        expand: ['data.latest_charge.balance_transaction'],
      });
      for await (const intent of pages) {
        const state = chargeStateOf(intent);
        if (state.status !== 'succeeded') continue;
        charges.push(state);
        created.set(intent.id, new Date(intent.created * 1000));
      }
      return charges.map((charge) => ({ ...charge, createdAt: created.get(charge.paymentIntentId)! }));
    },

    /**
     * A chargeback as Stripe tells it now: its PaymentIntent, amount, reason and status, and the fee of each of its
     * balance transactions (Stripe's dispute fee when it withdrew the money, negative when it gave the fee back).
     */
    async dispute(disputeId: string) {
      const dispute = await stripe.disputes.retrieve(disputeId);
      const paymentIntentId =
        typeof dispute.payment_intent === 'string' ? dispute.payment_intent : (dispute.payment_intent?.id ?? null);
      return {
        paymentIntentId,
        amountCents: dispute.amount,
        reason: dispute.reason,
        status: dispute.status,
        fees: dispute.balance_transactions.map((transaction) => ({
          balanceTransactionId: transaction.id,
          feeCents: transaction.fee,
        })),
      };
    },

    /** The event a webhook request carries, or null when its signature is wrong or older than the tolerance. */
    verifyEvent({ body, signature }: { body: string | Buffer; signature: string | undefined }) {
      if (!signature) return null;
      // The platform's endpoint, or the Connect endpoint at the same address (events on connected accounts).
      for (const secret of [settings.webhookSecret, settings.connectWebhookSecret]) {
        if (!secret) continue;
        try {
          return stripe.webhooks.constructEvent(body, signature, secret, STRIPE_WEBHOOK_TOLERANCE_SECONDS);
        } catch (error) {
          if (!(error instanceof Stripe.errors.StripeSignatureVerificationError)) throw error;
        }
      }
      return null;
    },
  };
}

export type StripeGateway = ReturnType<typeof createStripeGateway>;
