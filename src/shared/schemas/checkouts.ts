import { z } from 'zod';
import { CHECKOUT_PROVIDERS, CHECKOUT_STATUSES, REQUEST_TYPES } from '../constants.ts';
import { CARD_PROBLEMS } from '../rules/test-cards.ts';
import { requiredText } from './text-fields.ts';

// A checkout: paying for an offer at accept (docs/decisions/0041). The browser names the checkout and the card,
// never an amount: the server reads the cents from the bid.

const isoDate = z.iso.datetime({ offset: true });

export const checkoutMessages = {
  name: 'Enter the name on the card.',
  deadlineRequired: 'Set the assignment’s deadline before you pay: the refund rule depends on it.',
  deadline: 'Please enter a valid deadline',
  deadlinePast: 'Deadline must be in the future',
} as const;

/** The card form as typed: the number with or without spaces, the expiry as MM/YY, the CVC and the holder's name. */
export const cardSchema = z.object({
  number: requiredText(CARD_PROBLEMS.number, 30, CARD_PROBLEMS.number),
  expiry: z
    .string({ error: CARD_PROBLEMS.expiry })
    .trim()
    .regex(/^(0[1-9]|1[0-2])\s*\/\s*(\d{2})$/, CARD_PROBLEMS.expiry),
  cvc: z
    .string({ error: CARD_PROBLEMS.cvc })
    .trim()
    .regex(/^\d{3,4}$/, CARD_PROBLEMS.cvc),
  name: requiredText(checkoutMessages.name, 100, checkoutMessages.name),
});
export type CardInput = z.input<typeof cardSchema>;

/** MM/YY as the month and the four-digit year. */
export function readExpiry(expiry: string) {
  const [month = '', year = ''] = expiry.split('/').map((part) => part.trim());
  return { expiryMonth: Number(month), expiryYear: 2000 + Number(year) };
}

export const payCheckoutSchema = z.object({
  card: cardSchema,
  /** Only for an assignment without a deadline: set with the payment, as the refund rule needs one. */
  deadline: isoDate
    .refine((value) => new Date(value).getTime() > Date.now(), checkoutMessages.deadlinePast)
    .optional()
    .meta({ description: 'ISO 8601; required for an assignment that has no deadline yet' }),
});
export type PayCheckoutInput = z.input<typeof payCheckoutSchema>;

export const checkoutSchema = z.object({
  id: z.uuid(),
  requestId: z.uuid(),
  bidId: z.uuid(),
  /** What the student pays: the offer's cents. */
  amountCents: z.int(),
  provider: z.enum(CHECKOUT_PROVIDERS),
  /** An awaiting checkout past its hold reads as lapsed before the periodic job has marked it. */
  status: z.enum(CHECKOUT_STATUSES),
  expiresAt: isoDate,
  paidAt: isoDate.nullable(),
  createdAt: isoDate,
  tutor: z.object({ id: z.uuid(), username: z.string(), image: z.string().nullable() }),
  request: z.object({
    type: z.enum(REQUEST_TYPES),
    subjectName: z.string(),
    deadline: isoDate.nullable(),
  }),
});
export type CheckoutView = z.infer<typeof checkoutSchema>;
