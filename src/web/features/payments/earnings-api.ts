import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Earnings, Payout, PayoutSetup } from '#shared/schemas/earnings.ts';
import { apiFetch } from '#web/lib/api.ts';

// The tutor's earnings and payouts.

export const earningsKeys = { all: ['earnings'] as const };

export function useEarnings() {
  return useQuery({
    queryKey: earningsKeys.all,
    queryFn: ({ signal }) => apiFetch<Earnings>('/api/earnings', { signal }),
  });
}

export function useConfirmAdult() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiFetch<{ adultConfirmedAt: string }>('/api/earnings/adult-confirmation', {
        method: 'POST',
        body: { confirmed: true },
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: earningsKeys.all }),
  });
}

/** Pays out the whole available balance; `idempotencyKey` is one per press, so a retry pays once. */
export function useRequestPayout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (idempotencyKey: string) =>
      apiFetch<Payout>('/api/earnings/payouts', {
        method: 'POST',
        headers: { 'idempotency-key': idempotencyKey },
        body: {},
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: earningsKeys.all }),
  });
}

/** Under Stripe: the address of Stripe's onboarding for the tutor's account (made on the first press). */
export function useStartPayoutSetup() {
  return useMutation({
    mutationFn: () => apiFetch<{ url: string }>('/api/earnings/payout-setup', { method: 'POST', body: {} }),
  });
}

/** Under Stripe: the tutor's payout set-up asked of Stripe now, as they come back from its onboarding. */
export function useCheckPayoutSetup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<PayoutSetup>('/api/earnings/payout-setup?from=onboarding'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: earningsKeys.all }),
  });
}
