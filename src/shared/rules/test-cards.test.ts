import { describe, expect, it } from 'vitest';
import {
  CARD_DECLINES,
  CARD_PROBLEMS,
  passesLuhn,
  TEST_CARDS,
  testCardOutcome,
  testProviderFeeCents,
} from './test-cards.ts';

const now = new Date('2026-11-26T12:00:00Z');
const card = (number: string, overrides: Partial<Parameters<typeof testCardOutcome>[0]> = {}) =>
  testCardOutcome({ number, expiryMonth: 12, expiryYear: 2030, cvc: '123', ...overrides }, now);

describe('the test provider’s cards', () => {
  it('charges 4242 4242 4242 4242, typed with spaces or dashes', () => {
    expect(card('4242 4242 4242 4242')).toEqual({ outcome: 'succeeded' });
    expect(card('4242-4242-4242-4242')).toEqual({ outcome: 'succeeded' });
  });

  it.each([
    ['4000 0000 0000 0002', 'declined'],
    ['4000 0000 0000 9995', 'insufficientFunds'],
    ['4000 0000 0000 0069', 'expired'],
    ['4000 0000 0000 0127', 'incorrectCvc'],
    ['4000 0000 0000 0119', 'processingError'],
  ] as const)('declines %s: %s', (number, reason) => {
    expect(card(number)).toEqual({ outcome: 'declined', reason, message: CARD_DECLINES[reason] });
  });

  it('says which field is wrong before charging anything', () => {
    expect(card('4242 4242 4242 4241')).toMatchObject({ field: 'number', message: CARD_PROBLEMS.number });
    expect(card('4242')).toMatchObject({ field: 'number', message: CARD_PROBLEMS.number });
    // A real card's number passes the checksum, but this is test mode.
    expect(card('4111 1111 1111 1111')).toMatchObject({ field: 'number', message: CARD_PROBLEMS.notATestCard });
    expect(card('4242424242424242', { expiryMonth: 10, expiryYear: 2026 })).toMatchObject({ field: 'expiry' });
    expect(card('4242424242424242', { expiryMonth: 13 })).toMatchObject({ field: 'expiry' });
    expect(card('4242424242424242', { cvc: '12' })).toMatchObject({ field: 'cvc', message: CARD_PROBLEMS.cvc });
    // A card is good until the end of its expiry month.
    expect(card('4242424242424242', { expiryMonth: 11, expiryYear: 2026 })).toEqual({ outcome: 'succeeded' });
  });

  it('lists only numbers that pass the checksum', () => {
    for (const number of Object.keys(TEST_CARDS)) expect(passesLuhn(number)).toBe(true);
  });

  it('keeps 2.9 % and 30 cents of a payment as its fee, never more than the payment', () => {
    // 2.9 % of $20.00 is 58 cents.
    expect(testProviderFeeCents(2_000)).toBe(88);
    // 2.9 % of $10.05 is 29.145 cents: 29.
    expect(testProviderFeeCents(1_005)).toBe(59);
    expect(testProviderFeeCents(20)).toBe(20);
  });
});
