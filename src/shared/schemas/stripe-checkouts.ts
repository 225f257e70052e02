import { z } from 'zod';
import { payCheckoutSchema } from './checkouts.ts';

/** What the browser needs to show Stripe's Payment Element for a checkout: the only Stripe key it ever sees. */
export const stripePaymentIntentSchema = z.object({
  clientSecret: z.string(),
  publishableKey: z.string(),
});
export type StripePaymentIntentView = z.infer<typeof stripePaymentIntentSchema>;

/** "I have paid": the browser confirmed the PaymentIntent; the amount and outcome are read from Stripe. */
export const stripePaidSchema = payCheckoutSchema.pick({ deadline: true });
export type StripePaidInput = z.input<typeof stripePaidSchema>;
