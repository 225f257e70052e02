import { describe, expect, it } from 'vitest';
import { CARD_DECLINES, CARD_PROBLEMS } from '#shared/rules/test-cards.ts';
import { createTestPaymentProvider } from './test-provider.ts';

const provider = createTestPaymentProvider({ secret: 'test-secret', now: () => new Date('2026-11-26T12:00:00Z') });
const card = (number: string) => ({ number, expiryMonth: 12, expiryYear: 2030, cvc: '123' });

describe('the test payment provider', () => {
  it('answers a repeated key with the same payment, refund and payout, and different keys with different ones', async () => {
    const first = await provider.createPayment({ idempotencyKey: 'checkout:1', amountCents: 2_000 });
    expect(await provider.createPayment({ idempotencyKey: 'checkout:1', amountCents: 2_000 })).toEqual(first);
    expect(await provider.createPayment({ idempotencyKey: 'checkout:2', amountCents: 2_000 })).not.toEqual(first);
    // Another process knows the same ids: nothing is kept in memory.
    const other = createTestPaymentProvider({ secret: 'test-secret' });
    expect(await other.createPayment({ idempotencyKey: 'checkout:1', amountCents: 2_000 })).toEqual(first);
    const refund = { idempotencyKey: 'refund:1', paymentId: first.paymentId, amountCents: 500 };
    expect(await provider.refund(refund)).toEqual(await other.refund(refund));
    const payout = { idempotencyKey: 'payout:1', payeeId: 'tutor', amountCents: 1_700 };
    expect((await provider.payout(payout)).payoutId).toMatch(/^test_payout_/);
  });

  it('charges the good test card less its fee, and declines or refuses the others in plain words', async () => {
    const { paymentId } = await provider.createPayment({ idempotencyKey: 'checkout:3', amountCents: 2_000 });
    const confirm = (number: string) => provider.confirmPayment({ paymentId, amountCents: 2_000, card: card(number) });
    expect(await confirm('4242 4242 4242 4242')).toEqual({
      status: 'succeeded',
      paymentId,
      amountCents: 2_000,
      feeCents: 88,
    });
    expect(await confirm('4000 0000 0000 0002')).toEqual({
      status: 'declined',
      paymentId,
      message: CARD_DECLINES.declined,
    });
    expect(await confirm('4242 4242 4242 4241')).toEqual({
      status: 'invalid',
      paymentId,
      field: 'number',
      message: CARD_PROBLEMS.number,
    });
  });

  it('believes an event only with its own signature', () => {
    const event = { id: 'evt_1', type: 'payout.paid' as const, payoutId: 'test_payout_1', amountCents: 1_700 };
    const signed = provider.signEvent(event);
    expect(provider.verifyEvent(signed)).toEqual(event);
    expect(provider.verifyEvent({ ...signed, signature: undefined })).toBeNull();
    expect(provider.verifyEvent({ ...signed, signature: '0'.repeat(signed.signature.length) })).toBeNull();
    expect(
      provider.verifyEvent({ body: signed.body.replace('1700', '170000'), signature: signed.signature }),
    ).toBeNull();
    const otherSecret = createTestPaymentProvider({ secret: 'another-secret' });
    expect(otherSecret.verifyEvent(signed)).toBeNull();
  });
});
