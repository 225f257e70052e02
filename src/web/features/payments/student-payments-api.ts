import { infiniteQueryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { PaymentsPage, Receipt } from '#shared/schemas/payments.ts';
import { apiFetch } from '#web/lib/api.ts';

// The student's payments and the receipt of each.

export const studentPaymentsKeys = {
  list: ['payments', 'mine'] as const,
  receipt: (checkoutId: string) => ['payments', 'receipt', checkoutId] as const,
};

const paymentsQueryOptions = infiniteQueryOptions({
  queryKey: studentPaymentsKeys.list,
  queryFn: ({ pageParam, signal }) =>
    apiFetch<PaymentsPage>(`/api/payments${pageParam ? `?cursor=${encodeURIComponent(pageParam)}` : ''}`, { signal }),
  initialPageParam: null as string | null,
  getNextPageParam: (page) => page.nextCursor,
});

export const useStudentPayments = () => useInfiniteQuery(paymentsQueryOptions);

export function useReceipt(checkoutId: string) {
  return useQuery({
    queryKey: studentPaymentsKeys.receipt(checkoutId),
    queryFn: ({ signal }) => apiFetch<Receipt>(`/api/payments/${encodeURIComponent(checkoutId)}/receipt`, { signal }),
    retry: false,
  });
}
