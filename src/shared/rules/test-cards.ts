import { shareOfCents } from './commission.ts';

// The `test` payment provider's cards: the well-known test numbers, each with the outcome a
// real card would have, so every path of a checkout can be tried with no real money moving.

export const CARD_DECLINES = {
  declined: 'Your card was declined.',
  insufficientFunds: 'Your card has insufficient funds.',
  expired: 'Your card has expired.',
  incorrectCvc: "Your card's security code is incorrect.",
  processingError: 'An error occurred while processing your card. Try again in a little bit.',
} as const;

export const CARD_PROBLEMS = {
  number: 'Your card number is incorrect.',
  notATestCard: 'This is test mode: use a test card, such as 4242 4242 4242 4242.',
  expiry: "Your card's expiration date is incomplete or in the past.",
  cvc: "Your card's security code is incomplete.",
} as const;

/** The test numbers and what paying with each does. */
export const TEST_CARDS: Record<
  string,
  { outcome: 'succeeded' } | { outcome: 'declined'; reason: keyof typeof CARD_DECLINES }
> = {
  '4242424242424242': { outcome: 'succeeded' },
  '5555555555554444': { outcome: 'succeeded' },
  '4000000000000002': { outcome: 'declined', reason: 'declined' },
  '4000000000009995': { outcome: 'declined', reason: 'insufficientFunds' },
  '4000000000000069': { outcome: 'declined', reason: 'expired' },
  '4000000000000127': { outcome: 'declined', reason: 'incorrectCvc' },
  '4000000000000119': { outcome: 'declined', reason: 'processingError' },
};

/** The digits of a typed card number, with the spaces and dashes people type left out. */
export const cardDigits = (typed: string) => typed.replace(/[\s-]/g, '');

/** The Luhn checksum every card number carries: catches a mistyped digit or two swapped neighbours. */
export function passesLuhn(digits: string) {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export type TestCard = { number: string; expiryMonth: number; expiryYear: number; cvc: string };

/**
 * What the `test` provider does with a card: a problem with what was typed (the form says so and nothing is
 * charged), or the test number's outcome. `now` decides whether the expiry date has passed.
 */
export function testCardOutcome(card: TestCard, now: Date) {
  const digits = cardDigits(card.number);
  if (!passesLuhn(digits))
    return { outcome: 'invalid' as const, field: 'number' as const, message: CARD_PROBLEMS.number };
  const lastMonth = now.getUTCFullYear() * 12 + now.getUTCMonth() + 1;
  const validMonth = Number.isInteger(card.expiryMonth) && card.expiryMonth >= 1 && card.expiryMonth <= 12;
  if (!validMonth || !Number.isInteger(card.expiryYear) || card.expiryYear * 12 + card.expiryMonth < lastMonth) {
    return { outcome: 'invalid' as const, field: 'expiry' as const, message: CARD_PROBLEMS.expiry };
  }
  if (!/^\d{3,4}$/.test(card.cvc))
    return { outcome: 'invalid' as const, field: 'cvc' as const, message: CARD_PROBLEMS.cvc };
  const known = TEST_CARDS[digits];
  if (!known) return { outcome: 'invalid' as const, field: 'number' as const, message: CARD_PROBLEMS.notATestCard };
  if (known.outcome === 'succeeded') return known;
  return { outcome: 'declined' as const, reason: known.reason, message: CARD_DECLINES[known.reason] };
}

/** What the `test` provider keeps of a payment, as card processors do: 2.9 % rounded half up, plus 30 cents. */
export const testProviderFeeCents = (amountCents: number) =>
  Math.min(amountCents, shareOfCents({ cents: amountCents, basisPoints: 290 }) + 30);
