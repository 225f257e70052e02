import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CheckoutView, PayCheckoutInput } from '#shared/schemas/checkouts.ts';
import { apiFetch } from '#web/lib/api.ts';

export const paymentsKeys = {
  checkout: (checkoutId: string) => ['payments', 'checkout', checkoutId] as const,
};

const checkoutUrl = (checkoutId: string) => `/api/checkouts/${encodeURIComponent(checkoutId)}`;

export function useCheckout(checkoutId: string) {
  return useQuery({
    queryKey: paymentsKeys.checkout(checkoutId),
    queryFn: ({ signal }) => apiFetch<CheckoutView>(checkoutUrl(checkoutId), { signal }),
    retry: false,
  });
}

/** A pay or cancel answers the checkout as it now is: the screen shows that at once. */
function useCheckoutAction<Input>(action: (checkoutId: string, input: Input) => Promise<CheckoutView>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ checkoutId, input }: { checkoutId: string; input: Input }) => action(checkoutId, input),
    onSuccess: (checkout) => queryClient.setQueryData(paymentsKeys.checkout(checkout.id), checkout),
  });
}

export const usePayCheckout = () =>
  useCheckoutAction((checkoutId, input: PayCheckoutInput) =>
    apiFetch<CheckoutView>(`${checkoutUrl(checkoutId)}/pay`, { method: 'POST', body: input }),
  );

export const useCancelCheckout = () =>
  useCheckoutAction((checkoutId, _input: null) =>
    apiFetch<CheckoutView>(`${checkoutUrl(checkoutId)}/cancel`, { method: 'POST', body: {} }),
  );

/** A job's payment state and refunds, which the chat's job bar reads again when the job changes. */
export { jobRefundsKeys } from './refunds-api.ts';
