import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeFake, type StripeFake } from '../../../../tests/support/stripe-fake.ts';
import { parseConfig } from '../../config.ts';
import { createStripeGateway, STRIPE_API_VERSION, type StripeGateway } from './stripe.ts';

const SECRET_KEY = 'sk_test_fakeSecret123';

describe('the Stripe gateway, against a stand-in for api.stripe.com', () => {
  let fake: StripeFake;
  let stripe: StripeGateway;
  beforeAll(async () => {
    fake = await startStripeFake({ webhookSecret: 'whsec_testSecret' });
    const settings = parseConfig({
      NODE_ENV: 'test',
      PAYMENTS_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_PUBLISHABLE_KEY: 'pk_test_fakePublishable',
      STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
      STRIPE_API_BASE: fake.url,
    }).payments.stripe!;
    stripe = createStripeGateway(settings);
  });
  afterAll(() => fake.close());

  it('starts a charge of the amount, captured at once, grouped by the job, under the key it is given', async () => {
    const first = await stripe.startCharge({
      idempotencyKey: 'charge:co_1',
      amountCents: 4_250,
      transferGroup: 'job_1',
    });
    const again = await stripe.startCharge({
      idempotencyKey: 'charge:co_1',
      amountCents: 4_250,
      transferGroup: 'job_1',
    });

    expect(again).toEqual(first);
    expect(first.clientSecret).toMatch(new RegExp(`^${first.paymentIntentId}_secret_`));
    const sent = fake.requestsTo('POST', '/v1/payment_intents');
    expect(sent).toHaveLength(2);
    for (const request of sent) {
      expect(request).toMatchObject({
        idempotencyKey: 'charge:co_1',
        stripeVersion: STRIPE_API_VERSION,
        authorization: `Bearer ${SECRET_KEY}`,
      });
      expect(request.form).toEqual({
        amount: '4250',
        currency: 'usd',
        capture_method: 'automatic',
        'automatic_payment_methods[enabled]': 'true',
        transfer_group: 'job_1',
      });
    }
  });

  it('reads the outcome from Stripe: pending until the card holder confirms, then the amount received and its charge', async () => {
    const { paymentIntentId } = await stripe.startCharge({
      idempotencyKey: 'charge:co_2',
      amountCents: 1_000,
      transferGroup: 'job_2',
    });
    expect(await stripe.chargeState(paymentIntentId)).toEqual({ status: 'pending', paymentIntentId });

    const confirmed = fake.succeed(paymentIntentId);
    expect(await stripe.chargeState(paymentIntentId)).toEqual({
      status: 'succeeded',
      paymentIntentId,
      amountCents: 1_000,
      chargeId: confirmed.latest_charge,
      feeCents: 59,
      cardLast4: '4242',
    });
    expect(fake.requestsTo('GET', `/v1/payment_intents/${paymentIntentId}`).at(-1)!.form).toEqual({
      'expand[0]': 'latest_charge.balance_transaction',
    });
    await expect(stripe.chargeState('pi_unknown')).rejects.toThrow(/No such object/);
  });

  it('retries a call Stripe failed under the same key, so it happens once', async () => {
    fake.failNext('/v1/payment_intents', { status: 500 });
    const before = fake.requestsTo('POST', '/v1/payment_intents').length;
    const { paymentIntentId } = await stripe.startCharge({
      idempotencyKey: 'charge:co_3',
      amountCents: 500,
      transferGroup: 'job_3',
    });

    const tries = fake.requestsTo('POST', '/v1/payment_intents').slice(before);
    expect(tries.map((request) => request.idempotencyKey)).toEqual(['charge:co_3', 'charge:co_3']);
    expect(fake.object(paymentIntentId)).toMatchObject({ amount: 500 });
  });

  it('refunds a charge once per key, and never more than was received', async () => {
    const { paymentIntentId } = await stripe.startCharge({
      idempotencyKey: 'charge:co_4',
      amountCents: 2_000,
      transferGroup: 'job_4',
    });
    fake.succeed(paymentIntentId);

    const refund = await stripe.refund({ idempotencyKey: 'refund:r_1', paymentIntentId, amountCents: 1_500 });
    expect(await stripe.refund({ idempotencyKey: 'refund:r_1', paymentIntentId, amountCents: 1_500 })).toEqual(refund);
    expect(fake.object(paymentIntentId)).toMatchObject({ amount_refunded: 1_500 });
    expect(fake.requestsTo('POST', '/v1/refunds').at(-1)).toMatchObject({
      idempotencyKey: 'refund:r_1',
      form: { payment_intent: paymentIntentId, amount: '1500', 'metadata[idempotency_key]': 'refund:r_1' },
    });

    await expect(stripe.refund({ idempotencyKey: 'refund:r_2', paymentIntentId, amountCents: 1_000 })).rejects.toThrow(
      /greater than the unrefunded amount/,
    );
    expect(fake.object(paymentIntentId)).toMatchObject({ amount_refunded: 1_500 });
    // Found again by its key, which Stripe keeps with the refund; a key it refused made none.
    expect(await stripe.refundMadeUnder({ paymentIntentId, idempotencyKey: 'refund:r_1' })).toEqual(refund);
    expect(await stripe.refundMadeUnder({ paymentIntentId, idempotencyKey: 'refund:r_2' })).toBeNull();
  });

  it("transfers a tutor's share from the charge to their account; a refused transfer made again under its key happens once", async () => {
    const { paymentIntentId } = await stripe.startCharge({
      idempotencyKey: 'charge:co_5',
      amountCents: 3_000,
      transferGroup: 'job_5',
    });
    const chargeId = String(fake.succeed(paymentIntentId).latest_charge);
    const transfer = {
      idempotencyKey: 'transfer:job_5',
      amountCents: 2_550,
      accountId: 'acct_tutor',
      chargeId,
      transferGroup: 'job_5',
    };

    fake.failNext('/v1/transfers', { status: 400, message: 'Your destination account needs to have payouts enabled.' });
    await expect(stripe.transfer(transfer)).rejects.toThrow(/payouts enabled/);
    const made = await stripe.transfer(transfer);
    expect(made).toEqual({ transferId: expect.stringMatching(/^tr_/), amountCents: 2_550 });
    expect(await stripe.transfer(transfer)).toEqual(made);

    expect(fake.requestsTo('POST', '/v1/transfers').map((request) => request.idempotencyKey)).toEqual([
      'transfer:job_5',
      'transfer:job_5',
      'transfer:job_5',
    ]);
    expect(fake.requestsTo('POST', '/v1/transfers').at(-1)!.form).toEqual({
      amount: '2550',
      currency: 'usd',
      destination: 'acct_tutor',
      source_transaction: chargeId,
      transfer_group: 'job_5',
    });
    expect(fake.object(made.transferId)).toMatchObject({ amount: 2_550, destination: 'acct_tutor' });
  });

  it('believes a webhook only with a fresh signature over the exact body', () => {
    const { body, signature } = fake.signedEvent({
      id: 'evt_1',
      type: 'payment_intent.succeeded',
      object: { id: 'pi_1', object: 'payment_intent' },
    });
    expect(stripe.verifyEvent({ body, signature })).toMatchObject({ id: 'evt_1', type: 'payment_intent.succeeded' });
    expect(stripe.verifyEvent({ body: Buffer.from(body), signature })).toMatchObject({ id: 'evt_1' });

    expect(stripe.verifyEvent({ body: body.replace('pi_1', 'pi_2'), signature })).toBeNull();
    expect(stripe.verifyEvent({ body, signature: undefined })).toBeNull();
    expect(stripe.verifyEvent({ body, signature: 't=1,v1=00' })).toBeNull();
    const old = fake.signedEvent(
      { type: 'payment_intent.succeeded', object: { id: 'pi_1' } },
      { timestamp: Math.floor(Date.now() / 1000) - 301 },
    );
    expect(stripe.verifyEvent(old)).toBeNull();
    const recent = fake.signedEvent(
      { type: 'payment_intent.succeeded', object: { id: 'pi_1' } },
      { timestamp: Math.floor(Date.now() / 1000) - 200 },
    );
    expect(stripe.verifyEvent(recent)).not.toBeNull();
  });
});
