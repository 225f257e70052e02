import { z } from 'zod';
import { payCheckoutSchema } from './checkouts.ts';

/** What the browser needs to show Stripe's Payment Element for a checkout: the only Stripe key it ever sees. */
export const stripePaymentIntentSchema = z.object({
  clientSecret: z.string(),
  publishableKey: z.string(),
});
export type StripePaymentIntentView = z.infer<typeof stripePaymentIntentSchema>;

/**
 * Starting to pay: an assignment without a deadline gets it now, before the card is confirmed, since the payment
 * may be recorded by Stripe's webhook rather than by the student's page.
 */
export const stripePaymentSchema = payCheckoutSchema.pick({ deadline: true });
export type StripePaymentInput = z.input<typeof stripePaymentSchema>;
