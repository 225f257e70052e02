import { z } from 'zod';
import { JOB_PAYMENT_STATES } from '../constants.ts';
import { cursorSchema } from './cursor.ts';

// The student's side of payments: each job they paid for, and its receipt.

const isoDate = z.iso.datetime({ offset: true });
const person = z.object({ id: z.uuid(), username: z.string(), vhNumber: z.number().int() });

export const paymentsQuerySchema = z.object({ cursor: cursorSchema.optional() });
export const paymentParamsSchema = z.object({ id: z.uuid() });

/** One paid job (its checkout) as the student's Payments page lists it. */
export const paymentSchema = z.object({
  /** The checkout's id, which names the payment's receipt. */
  id: z.uuid(),
  requestId: z.uuid(),
  /** The subject and the request's topic (or its type). */
  job: z.string(),
  tutor: person,
  amountCents: z.number().int(),
  paidAt: isoDate,
  state: z.enum(JOB_PAYMENT_STATES),
});

export const paymentsPageSchema = z.object({ items: z.array(paymentSchema), nextCursor: cursorSchema.nullable() });

/** Who takes the money, as receipts name them (the address and VAT number only when the operator set them). */
export const operatorSchema = z.object({
  legalName: z.string(),
  address: z.string().nullable(),
  vatNumber: z.string().nullable(),
});

export const paymentMethodSchema = z.discriminatedUnion('kind', [
  /** A test card (no money moved); `last4` is null when a payment was completed by the reconciliation. */
  z.object({ kind: z.literal('test_card'), last4: z.string().nullable() }),
  z.object({ kind: z.literal('bank_transfer'), reference: z.string().nullable() }),
  /** A card charged through Stripe; `last4` is null when Stripe did not tell it (a payment method without one). */
  z.object({ kind: z.literal('card'), last4: z.string().nullable() }),
]);

export const receiptSchema = z.object({
  /** Numbered in the order of payment. */
  receiptNumber: z.string(),
  paidAt: isoDate,
  operator: operatorSchema,
  payer: person.extend({ email: z.string() }),
  tutor: person,
  job: z.object({ requestId: z.uuid(), title: z.string() }),
  amountCents: z.number().int(),
  method: paymentMethodSchema,
  state: z.enum(JOB_PAYMENT_STATES),
  /** The refunds of this payment the provider confirmed, oldest first. */
  refunds: z.array(
    z.object({ id: z.uuid(), amountCents: z.number().int(), refundedAt: isoDate, reference: z.string().nullable() }),
  ),
  /** What the student was paid back in all, and what the payment comes to after it. */
  refundedCents: z.number().int(),
  netCents: z.number().int(),
});

export type Payment = z.infer<typeof paymentSchema>;
export type PaymentsPage = z.infer<typeof paymentsPageSchema>;
export type Operator = z.infer<typeof operatorSchema>;
export type PaymentMethod = z.infer<typeof paymentMethodSchema>;
export type Receipt = z.infer<typeof receiptSchema>;

/** How a payment was made, in words, for the receipt and its mail. */
export function paymentMethodText(method: PaymentMethod) {
  switch (method.kind) {
    case 'test_card':
      return `Test card${method.last4 ? ` ending in ${method.last4}` : ''} (test mode: no real money moved)`;
    case 'bank_transfer':
      return `Bank transfer${method.reference ? `, reference ${method.reference}` : ''}`;
    case 'card':
      return method.last4 ? `Card ending in ${method.last4}` : 'Card';
  }
}

/** "000042": how screens and mails print a receipt number. */
export const formatReceiptNumber = (receiptNumber: number) => String(receiptNumber).padStart(6, '0');
