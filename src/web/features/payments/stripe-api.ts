import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CheckoutView } from '#shared/schemas/checkouts.ts';
import type { StripePaymentInput, StripePaymentIntentView } from '#shared/schemas/stripe-checkouts.ts';
import { apiFetch } from '#web/lib/api.ts';
import { paymentsKeys } from './api.ts';

const checkoutUrl = (checkoutId: string) => `/api/checkouts/${encodeURIComponent(checkoutId)}`;

/** The checkout's PaymentIntent, made once by the server for the checkout's own amount: its client secret and key. */
export function useStartStripePayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ checkoutId, input }: { checkoutId: string; input: StripePaymentInput }) =>
      apiFetch<StripePaymentIntentView>(`${checkoutUrl(checkoutId)}/stripe-payment`, { method: 'POST', body: input }),
    // A deadline given here is the checkout's now: its summary shows it.
    onSuccess: (_started, { checkoutId, input }) => {
      if (input.deadline) void queryClient.invalidateQueries({ queryKey: paymentsKeys.checkout(checkoutId) });
    },
  });
}

/** "I have paid": the server asks Stripe and answers the paid checkout (still awaiting payment while Stripe is processing). */
export function useConfirmStripePaid() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (checkoutId: string) =>
      apiFetch<CheckoutView>(`${checkoutUrl(checkoutId)}/stripe-paid`, { method: 'POST', body: {} }),
    onSuccess: (checkout) => queryClient.setQueryData(paymentsKeys.checkout(checkout.id), checkout),
  });
}
