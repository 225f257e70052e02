import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/** A request as the fake received it: form fields flat, as the SDK encodes them (`metadata[job]`). */
export type StripeFakeRequest = {
  method: string;
  path: string;
  form: Record<string, string>;
  idempotencyKey: string | undefined;
  stripeVersion: string | undefined;
  authorization: string | undefined;
};

type Answer = { status: number; body: unknown };

/** Stripe's dispute fee in the US, taken from the platform's balance when a chargeback opens. */
const DISPUTE_FEE_CENTS = 1_500;

/** Stripe's test cards the fake knows (its documentation's numbers): charged, declined, or asking for 3-D Secure. */
const TEST_CARDS: Record<string, 'charged' | 'declined' | 'authenticate'> = {
  '4242424242424242': 'charged',
  '4000000000000002': 'declined',
  '4000002760003184': 'authenticate',
};
type StoredObject = Record<string, unknown> & { id: string };

/**
 * An HTTP stand-in for api.stripe.com, on a free loopback port, for the endpoints the payments code calls: the real
 * SDK talks to it (`STRIPE_API_BASE`). It keeps every request so tests assert form bodies, idempotency keys and the
 * API version; answers a repeated idempotency key with the first answer, and a key reused with other parameters
 * with Stripe's 400; and fails the next calls to a path when told (`failNext`), saving nothing as a Stripe outage
 * does, or losing only the answer. `succeed` plays the card holder confirming a PaymentIntent in the browser.
 */
export async function startStripeFake({ webhookSecret = 'whsec_fake' }: { webhookSecret?: string } = {}) {
  const requests: StripeFakeRequest[] = [];
  const objects = new Map<string, StoredObject>();
  const answered = new Map<string, { form: string; answer: Answer }>();
  const failures: Array<{
    path: string;
    method: string | undefined;
    status: number;
    message: string;
    afterSaving: boolean;
  }> = [];
  let counter = 0;
  const nextId = (prefix: string) => `${prefix}_fake${String(++counter).padStart(6, '0')}`;
  /** Where Stripe sends the account's events (`deliverEventsTo`); none until a test names it. */
  let webhookUrl: string | null = null;
  /** Connected accounts Stripe refuses transfers to, with its message (`refuseTransfersTo`). */
  const refusedDestinations = new Map<string, string>();
  /** Each connected account's balance in cents: transfers add to it, `payOut` empties it, reversals take from it. */
  const balances = new Map<string, number>();
  /** How many of the next good cards confirmed stay `processing` (`processNext`). */
  let slowConfirms = 0;

  const store = (object: StoredObject) => {
    objects.set(object.id, object);
    return object;
  };
  const notFound = (id: string): Answer => ({
    status: 404,
    body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such object: '${id}'` } },
  });
  const invalid = (message: string): Answer => ({
    status: 400,
    body: { error: { type: 'invalid_request_error', message } },
  });
  const cardError = (code: string, message: string): Answer => ({
    status: 402,
    body: { error: { type: 'card_error', code, message } },
  });
  const amountOf = (form: Record<string, string>) => {
    const amount = Number(form.amount);
    return Number.isSafeInteger(amount) && amount > 0 ? amount : null;
  };

  /**
   * A page of the stored objects of a kind that pass the filter, newest first as Stripe lists them; `starting_after`
   * pages on from an id, `limit` says how many.
   */
  const listOf = (
    kind: string,
    form: Record<string, string>,
    passes: (object: StoredObject) => boolean = () => true,
  ): Answer => {
    const limit = Number(form.limit ?? 10);
    const all = [...objects.values()].filter((object) => object.object === kind && passes(object)).reverse();
    const start = form.starting_after ? all.findIndex((object) => object.id === form.starting_after) + 1 : 0;
    return {
      status: 200,
      body: {
        object: 'list',
        url: `/v1/${kind}s`,
        has_more: start + limit < all.length,
        data: all.slice(start, start + limit),
      },
    };
  };

  /** A PaymentIntent with its charge and the charge's balance transaction in place of their ids. */
  const withChargeExpanded = (intent: StoredObject) => {
    const charge = typeof intent.latest_charge === 'string' ? objects.get(intent.latest_charge) : undefined;
    if (!charge) return intent;
    return {
      ...intent,
      latest_charge: { ...charge, balance_transaction: objects.get(String(charge.balance_transaction)) },
    };
  };

  const routes: Array<{
    method: string;
    pattern: RegExp;
    handle: (form: Record<string, string>, id?: string) => Answer;
  }> = [
    {
      method: 'POST',
      pattern: /^\/v1\/payment_intents$/,
      handle(form) {
        const amount = amountOf(form);
        if (amount === null) return invalid('Invalid positive integer: amount');
        const id = nextId('pi');
        return {
          status: 200,
          body: store({
            id,
            object: 'payment_intent',
            amount,
            amount_received: 0,
            currency: form.currency,
            capture_method: form.capture_method ?? 'automatic',
            status: 'requires_payment_method',
            client_secret: `${id}_secret_fake`,
            created: Math.floor(Date.now() / 1000),
            transfer_group: form.transfer_group ?? null,
            latest_charge: null,
            metadata: {},
          }),
        };
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/payment_intents\/([^/]+)$/,
      handle(form, id = '') {
        const intent = objects.get(id);
        if (intent?.object !== 'payment_intent') return notFound(id);
        const expanded = Object.entries(form).some(
          ([name, value]) => name.startsWith('expand[') && value === 'latest_charge.balance_transaction',
        );
        return { status: 200, body: expanded ? withChargeExpanded(intent) : intent };
      },
    },
    {
      // Stripe.js confirming with the publishable key and the client secret, as the Payment Element does.
      method: 'POST',
      pattern: /^\/v1\/payment_intents\/([^/]+)\/confirm$/,
      handle(form, id = '') {
        const intent = objects.get(id);
        if (intent?.object !== 'payment_intent' || form.client_secret !== intent.client_secret) return notFound(id);
        if (!form.key?.startsWith('pk_')) return invalid('A publishable key confirms a PaymentIntent.');
        if (intent.status === 'succeeded') return invalid('This PaymentIntent has already succeeded.');
        const card = (form['payment_method_data[card][number]'] ?? '').replaceAll(' ', '');
        const outcome = TEST_CARDS[card];
        if (!outcome) return cardError('incorrect_number', 'Your card number is incorrect.');
        if (outcome === 'declined') {
          Object.assign(intent, { status: 'requires_payment_method' });
          return cardError('card_declined', 'Your card was declined.');
        }
        if (outcome === 'authenticate') {
          Object.assign(intent, {
            status: 'requires_action',
            next_action: {
              type: 'redirect_to_url',
              redirect_to_url: {
                url: `https://hooks.stripe.com/3d_secure_2/authenticate/${intent.id}?return_url=${encodeURIComponent(form.return_url ?? '')}`,
                return_url: form.return_url ?? null,
              },
            },
          });
          return { status: 200, body: intent };
        }
        if (slowConfirms > 0) {
          slowConfirms--;
          return { status: 200, body: Object.assign(intent, { status: 'processing' }) };
        }
        return { status: 200, body: charge(intent) };
      },
    },
    {
      method: 'POST',
      pattern: /^\/v1\/refunds$/,
      handle(form) {
        const intent = objects.get(form.payment_intent ?? '');
        if (intent?.object !== 'payment_intent') return notFound(form.payment_intent ?? '');
        const amount = amountOf(form) ?? Number(intent.amount_received);
        const refunded = Number(intent.amount_refunded ?? 0);
        if (intent.status !== 'succeeded' || refunded + amount > Number(intent.amount_received)) {
          return invalid('Refund amount is greater than the unrefunded amount of the charge.');
        }
        intent.amount_refunded = refunded + amount;
        const refund = {
          id: nextId('re'),
          object: 'refund',
          amount,
          payment_intent: intent.id,
          metadata: metadataOf(form),
          status: 'succeeded',
        };
        return { status: 200, body: store(refund) };
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/refunds$/,
      handle: (form) =>
        listOf('refund', form, (refund) => !form.payment_intent || refund.payment_intent === form.payment_intent),
    },
    {
      // Newest first, as Stripe lists; `starting_after` pages on from an id, `created[gte]` filters.
      method: 'GET',
      pattern: /^\/v1\/payment_intents$/,
      handle(form) {
        const since = Number(form['created[gte]'] ?? 0);
        const list = listOf('payment_intent', form, (intent) => Number(intent.created) >= since);
        if (!Object.values(form).includes('data.latest_charge.balance_transaction')) return list;
        const page = list.body as { data: StoredObject[] };
        return { ...list, body: { ...page, data: page.data.map(withChargeExpanded) } };
      },
    },
    {
      method: 'POST',
      pattern: /^\/v1\/accounts$/,
      handle(form) {
        if (form.type !== 'express') return invalid('Only Express accounts are made here.');
        const account = {
          id: nextId('acct'),
          object: 'account',
          type: 'express',
          email: form.email ?? null,
          metadata: metadataOf(form),
          payouts_enabled: false,
          charges_enabled: false,
          requirements: { currently_due: ['external_account', 'individual.dob.day'] },
        };
        return { status: 200, body: store(account) };
      },
    },
    {
      // The platform's connected accounts, newest first; `starting_after` pages on from an id.
      method: 'GET',
      pattern: /^\/v1\/accounts$/,
      handle: (form) => listOf('account', form),
    },
    {
      method: 'GET',
      pattern: /^\/v1\/accounts\/([^/]+)$/,
      handle(_form, id = '') {
        const account = objects.get(id);
        return account?.object === 'account' ? { status: 200, body: account } : notFound(id);
      },
    },
    {
      method: 'POST',
      pattern: /^\/v1\/account_links$/,
      handle(form) {
        if (objects.get(form.account ?? '')?.object !== 'account') return notFound(form.account ?? '');
        if (!form.refresh_url || !form.return_url) return invalid('Missing required param: return_url.');
        return {
          status: 200,
          body: {
            object: 'account_link',
            url: `https://connect.stripe.fake/setup/${form.account}`,
            expires_at: Math.floor(Date.now() / 1000) + 300,
          },
        };
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/disputes\/([^/]+)$/,
      handle(_form, id = '') {
        const dispute = objects.get(id);
        return dispute?.object === 'dispute' ? { status: 200, body: dispute } : notFound(id);
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/transfers$/,
      handle: (form) =>
        listOf(
          'transfer',
          form,
          (transfer) =>
            (!form.destination || transfer.destination === form.destination) &&
            (!form.transfer_group || transfer.transfer_group === form.transfer_group),
        ),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/transfers$/,
      handle(form) {
        const amount = amountOf(form);
        if (amount === null) return invalid('Invalid positive integer: amount');
        const refusal = refusedDestinations.get(form.destination ?? '');
        if (refusal) return invalid(refusal);
        const transfer = {
          id: nextId('tr'),
          object: 'transfer',
          amount,
          currency: form.currency,
          destination: form.destination,
          source_transaction: form.source_transaction ?? null,
          transfer_group: form.transfer_group ?? null,
          reversed: false,
          amount_reversed: 0,
        };
        balances.set(String(form.destination), (balances.get(String(form.destination)) ?? 0) + amount);
        return { status: 200, body: store(transfer) };
      },
    },
    {
      // Taken from the connected account's balance: refused, as Stripe refuses it, when the balance cannot cover it.
      method: 'POST',
      pattern: /^\/v1\/transfers\/([^/]+)\/reversals$/,
      handle(form, id = '') {
        const transfer = objects.get(id);
        if (transfer?.object !== 'transfer') return notFound(id);
        const reversedSoFar = Number(transfer.amount_reversed ?? 0);
        const amount = amountOf(form) ?? Number(transfer.amount) - reversedSoFar;
        if (reversedSoFar + amount > Number(transfer.amount)) {
          return invalid(`You have already reversed this transfer, or the amount exceeds what is left of it.`);
        }
        const destination = String(transfer.destination);
        const balance = balances.get(destination) ?? 0;
        if (amount > balance) {
          return {
            status: 400,
            body: {
              error: {
                type: 'invalid_request_error',
                code: 'balance_insufficient',
                message: 'Insufficient funds in the destination account to reverse this transfer.',
              },
            },
          };
        }
        balances.set(destination, balance - amount);
        transfer.amount_reversed = reversedSoFar + amount;
        transfer.reversed = transfer.amount_reversed === transfer.amount;
        const reversal = { id: nextId('trr'), object: 'transfer_reversal', amount, transfer: transfer.id };
        return { status: 200, body: store(reversal) };
      },
    },
  ];

  /** A movement of the platform's balance, with what Stripe kept (a negative fee is one it gave back). */
  const balanceTransaction = (amount: number, fee: number, type: string) =>
    store({ id: nextId('txn'), object: 'balance_transaction', amount, fee, net: amount - fee, type });

  /** The card is charged: the PaymentIntent succeeds with its charge and Stripe's fee, and the event is sent. */
  const charge = (intent: StoredObject) => {
    const amount = Number(intent.amount);
    // Stripe's card pricing in the US: 2.9 % + 30¢.
    const balanceTransaction = store({
      id: nextId('txn'),
      object: 'balance_transaction',
      amount,
      fee: Math.round(amount * 0.029) + 30,
    });
    const charged = store({
      id: nextId('ch'),
      object: 'charge',
      amount,
      payment_intent: intent.id,
      balance_transaction: balanceTransaction.id,
      payment_method_details: { type: 'card', card: { last4: '4242' } },
    });
    Object.assign(intent, {
      status: 'succeeded',
      amount_received: intent.amount,
      latest_charge: charged.id,
      next_action: null,
    });
    if (webhookUrl) void sendEvent(webhookUrl, { type: 'payment_intent.succeeded', object: intent });
    return intent;
  };
  /** Posts a signed event to the endpoint as Stripe does, after the answer that caused it; a refusal is the app's. */
  const sendEvent = async (url: string, event: { type: string; object: unknown }) => {
    const { body, signature } = signEvent(event);
    await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      body,
    }).catch(() => undefined);
  };
  const signEvent = (
    event: { id?: string; type: string; object: unknown },
    { timestamp = Math.floor(Date.now() / 1000), secret = webhookSecret } = {},
  ) => {
    const body = JSON.stringify({
      id: event.id ?? nextId('evt'),
      object: 'event',
      api_version: null,
      created: timestamp,
      type: event.type,
      data: { object: event.object },
    });
    return {
      body,
      signature: Stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp }),
    };
  };

  const readBody = async (request: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  };
  const send = (response: ServerResponse, { status, body }: Answer) => {
    response.writeHead(status, { 'content-type': 'application/json', 'request-id': nextId('req') });
    response.end(JSON.stringify(body));
  };

  /** The `metadata[name]` fields of a form, as an object. */
  const metadataOf = (form: Record<string, string>) =>
    Object.fromEntries(
      Object.entries(form).flatMap(([name, value]) => {
        const key = /^metadata\[(.+)\]$/.exec(name)?.[1];
        return key ? [[key, value]] : [];
      }),
    );

  const failureAnswer = ({ status, message }: { status: number; message: string }): Answer => ({
    status,
    body: { error: { type: 'api_error', message } },
  });

  /** What Stripe answers a request, saved under its idempotency key as Stripe saves it. */
  const answerOf = ({
    method,
    path,
    form,
    raw,
    idempotencyKey,
  }: {
    method: string;
    path: string;
    form: Record<string, string>;
    raw: string;
    idempotencyKey: string | undefined;
  }): Answer => {
    const stored = idempotencyKey && method === 'POST' ? answered.get(idempotencyKey) : undefined;
    if (stored) {
      if (stored.form === raw) return stored.answer;
      return {
        status: 400,
        body: {
          error: {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with.`,
          },
        },
      };
    }
    for (const route of routes) {
      const match = route.method === method ? route.pattern.exec(path) : null;
      if (!match) continue;
      const answer = route.handle(form, match[1]);
      if (idempotencyKey && method === 'POST') answered.set(idempotencyKey, { form: raw, answer });
      return answer;
    }
    return invalid(`Unrecognized request URL (${method}: ${path}).`);
  };

  const server = createServer((request, response) => {
    void readBody(request).then((raw) => {
      const url = new URL(request.url ?? '/', 'http://stripe.fake');
      const method = request.method ?? 'GET';
      const form = Object.fromEntries(new URLSearchParams(method === 'GET' ? url.search : raw));
      const header = (name: string) => {
        const value = request.headers[name];
        return Array.isArray(value) ? value[0] : value;
      };
      const idempotencyKey = header('idempotency-key');
      requests.push({
        method,
        path: url.pathname,
        form,
        idempotencyKey,
        stripeVersion: header('stripe-version'),
        authorization: header('authorization'),
      });

      const failureIndex = failures.findIndex(
        (failure) => failure.path === url.pathname && (!failure.method || failure.method === method),
      );
      const failure = failureIndex >= 0 ? failures.splice(failureIndex, 1)[0]! : null;
      if (failure?.afterSaving === false) return send(response, failureAnswer(failure));
      const answer = answerOf({ method, path: url.pathname, form, raw, idempotencyKey });
      send(response, failure ? failureAnswer(failure) : answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    /** The address to give STRIPE_API_BASE. */
    url: `http://127.0.0.1:${port}`,
    webhookSecret,
    requests,
    /** The requests to one path, in order. */
    requestsTo: (method: string, path: string) =>
      requests.filter((request) => request.method === method && request.path === path),
    object: (id: string) => objects.get(id),
    /**
     * The next call to the path (by `method` alone, when named) fails with the status (5xx: the SDK retries it under
     * the same key). `afterSaving`: it is made and saved all the same, and only its answer is lost, as when the
     * connection drops on the way back.
     */
    failNext(
      path: string,
      {
        method,
        status = 500,
        times = 1,
        message = 'An error occurred.',
        afterSaving = false,
      }: { method?: string; status?: number; times?: number; message?: string; afterSaving?: boolean } = {},
    ) {
      for (let n = 0; n < times; n++) failures.push({ path, method, status, message, afterSaving });
    },
    /** The failures still to come are dropped: Stripe answers again. */
    stopFailing() {
      failures.length = 0;
    },
    /**
     * Stripe refuses transfers to the account (400, saved under the call's key as Stripe saves it) until told
     * otherwise (`null`).
     */
    refuseTransfersTo(accountId: string, message: string | null) {
      if (message === null) refusedDestinations.delete(accountId);
      else refusedDestinations.set(accountId, message);
    },
    /** Stripe pays the connected account's balance out to the tutor's bank, as its schedule does: nothing is left. */
    payOut(accountId: string) {
      balances.set(accountId, 0);
    },
    /** The card holder confirms the PaymentIntent in the browser and the card is charged. */
    succeed(paymentIntentId: string) {
      const intent = objects.get(paymentIntentId);
      if (intent?.object !== 'payment_intent') throw new Error(`No PaymentIntent ${paymentIntentId}`);
      return charge(intent);
    },
    /**
     * The card holder's bank answers 3-D Secure for a PaymentIntent that asked for it: the card is charged, or the
     * PaymentIntent wants a payment method again.
     */
    authenticate(paymentIntentId: string, approved: boolean) {
      const intent = objects.get(paymentIntentId);
      if (intent?.status !== 'requires_action')
        throw new Error(`PaymentIntent ${paymentIntentId} awaits no 3-D Secure`);
      if (approved) return charge(intent);
      return Object.assign(intent, { status: 'requires_payment_method', next_action: null });
    },
    /** The next good card confirmed stays `processing`, as a slow bank leaves it, until `succeed` charges it. */
    processNext() {
      slowConfirms++;
    },
    /** From now on a charged card sends its signed `payment_intent.succeeded` to this webhook endpoint. */
    deliverEventsTo(url: string) {
      webhookUrl = url;
    },
    /** Stripe forgets an idempotency key, as it does after 24 hours: a repeat with it is a new request. */
    expireIdempotencyKey(key: string) {
      answered.delete(key);
    },
    /** The tutor finishes (or Stripe reopens) onboarding: the account's state changes as Stripe would tell it. */
    updateAccount(accountId: string, state: { payouts_enabled: boolean; charges_enabled?: boolean }) {
      const account = objects.get(accountId);
      if (account?.object !== 'account') throw new Error(`No account ${accountId}`);
      Object.assign(account, {
        charges_enabled: state.payouts_enabled,
        ...state,
        requirements: { currently_due: state.payouts_enabled ? [] : ['external_account'] },
      });
      return account;
    },
    /**
     * The card holder's bank opens a chargeback on the PaymentIntent's charge: Stripe withdraws the amount and its
     * dispute fee from the platform's balance, in one balance transaction of the dispute.
     */
    openDispute(paymentIntentId: string, { reason = 'product_not_received', feeCents = DISPUTE_FEE_CENTS } = {}) {
      const intent = objects.get(paymentIntentId);
      if (intent?.object !== 'payment_intent') throw new Error(`No PaymentIntent ${paymentIntentId}`);
      const amount = Number(intent.amount_received);
      return store({
        id: nextId('dp'),
        object: 'dispute',
        amount,
        charge: intent.latest_charge,
        payment_intent: intent.id,
        reason,
        status: 'needs_response',
        balance_transactions: [balanceTransaction(-amount, feeCents, 'dispute')],
      });
    },
    /**
     * The chargeback is decided: `won` the platform keeps the money (Stripe reinstates the amount and, unless told
     * otherwise, its fee, in a second balance transaction), `lost` the card holder gets it back.
     */
    closeDispute(disputeId: string, status: 'won' | 'lost', { feeReturned = true } = {}) {
      const dispute = objects.get(disputeId);
      if (dispute?.object !== 'dispute') throw new Error(`No dispute ${disputeId}`);
      dispute.status = status;
      if (status === 'won') {
        const [withdrawal] = dispute.balance_transactions as { fee: number }[];
        const returned = feeReturned ? -withdrawal!.fee : 0;
        (dispute.balance_transactions as unknown[]).push(
          balanceTransaction(Number(dispute.amount), returned, 'dispute_reversal'),
        );
      }
      return dispute;
    },
    /** A webhook request as Stripe sends it: the event's body and its `Stripe-Signature` header. */
    signedEvent: signEvent,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type StripeFake = Awaited<ReturnType<typeof startStripeFake>>;
