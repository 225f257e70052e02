import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { testCardOutcome, testProviderFeeCents } from '#shared/rules/test-cards.ts';
import type { PaymentProvider, ProviderEvent } from './provider.ts';

/**
 * The `test` provider: the test cards' outcomes, no real money. It keeps nothing: each id is derived from its
 * idempotency key, so a repeated call answers as the first did, across restarts and server processes. Its events
 * are signed with `secret` (HMAC-SHA256), as a real provider signs its webhooks.
 */
export function createTestPaymentProvider({ secret, now = () => new Date() }: { secret: string; now?: () => Date }) {
  const idFor = (kind: string, key: string) =>
    `test_${kind}_${createHash('sha256').update(`${kind}:${key}`).digest('hex').slice(0, 24)}`;
  const signatureOf = (body: string) => createHmac('sha256', secret).update(body).digest('hex');

  const provider: PaymentProvider = {
    async createPayment({ idempotencyKey }) {
      return { paymentId: idFor('pay', idempotencyKey) };
    },
    async confirmPayment({ paymentId, amountCents, card }) {
      const outcome = testCardOutcome(card, now());
      if (outcome.outcome === 'invalid') {
        return { status: 'invalid', paymentId, field: outcome.field, message: outcome.message };
      }
      if (outcome.outcome === 'declined') return { status: 'declined', paymentId, message: outcome.message };
      return { status: 'succeeded', paymentId, amountCents, feeCents: testProviderFeeCents(amountCents) };
    },
    async refund({ idempotencyKey }) {
      return { refundId: idFor('refund', idempotencyKey) };
    },
    async payout({ idempotencyKey }) {
      return { payoutId: idFor('payout', idempotencyKey) };
    },
    verifyEvent({ body, signature }) {
      const expected = Buffer.from(signatureOf(body));
      const given = Buffer.from(signature ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      return JSON.parse(body) as ProviderEvent;
    },
  };
  return {
    ...provider,
    /** An event as the provider would send it: its body and signature. */
    signEvent(event: ProviderEvent) {
      const body = JSON.stringify(event);
      return { body, signature: signatureOf(body) };
    },
  };
}
