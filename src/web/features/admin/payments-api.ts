import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Adjustment,
  AdjustmentInput,
  AwaitingTransfers,
  FailedStripeTransfers,
  LedgerSearchAnswer,
  ReconciliationAnswer,
  RequestedPayouts,
} from '#shared/schemas/admin-payments.ts';
import { apiFetch } from '#web/lib/api.ts';

// The admin Payments section's queries.

/** Where the CSV of a ledger search downloads from. */
export const ledgerCsvHref = (q: string) => `/api/admin/payments/ledger.csv?q=${encodeURIComponent(q)}`;

/** The ledger of a job or user, once a search was typed (the server names a search it cannot read, 400). */
export function useLedgerSearch(q: string) {
  return useQuery({
    queryKey: ['admin', 'payments', 'ledger', q],
    queryFn: ({ signal }) =>
      apiFetch<LedgerSearchAnswer>(`/api/admin/payments/ledger?q=${encodeURIComponent(q)}`, { signal }),
    enabled: q !== '',
    retry: false,
  });
}

/** The provider's payments against the ledger's, compared when asked. */
export function useReconciliation() {
  return useQuery({
    queryKey: ['admin', 'payments', 'reconciliation'],
    queryFn: ({ signal }) => apiFetch<ReconciliationAnswer>('/api/admin/payments/reconciliation', { signal }),
    retry: false,
  });
}

const transfersKey = ['admin', 'payments', 'transfers'] as const;

/** Bank-transfer checkouts awaiting the student's transfer. */
export function useAwaitingTransfers() {
  return useQuery({
    queryKey: transfersKey,
    queryFn: ({ signal }) => apiFetch<AwaitingTransfers>('/api/admin/payments/transfers', { signal }),
    retry: false,
  });
}

const payoutsKey = ['admin', 'payments', 'payouts'] as const;

/** Payouts tutors requested under `manual`, waiting for the bank transfer. */
export function useRequestedPayouts() {
  return useQuery({
    queryKey: payoutsKey,
    queryFn: ({ signal }) => apiFetch<RequestedPayouts>('/api/admin/payments/payouts', { signal }),
    retry: false,
  });
}

/** Records a bank transfer with its reference: a student's payment of a checkout, or a tutor's payout sent. */
export function useRecordTransfer(kind: 'transfers' | 'payouts') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, note }: { id: string; note: string }) =>
      apiFetch<null>(`/api/admin/payments/${kind}/${id}/paid`, { method: 'POST', body: { note } }),
    onSettled: () =>
      Promise.all(
        [transfersKey, payoutsKey, ['admin', 'payments', 'ledger'], ['admin', 'stats'], ['admin', 'audit-log']].map(
          (queryKey) => queryClient.invalidateQueries({ queryKey }),
        ),
      ),
  });
}

const failedTransfersKey = ['admin', 'payments', 'failed-transfers'] as const;

/** Under Stripe: tutors' transfers Stripe refused or that failed every try, waiting for a Retry. */
export function useFailedStripeTransfers() {
  return useQuery({
    queryKey: failedTransfersKey,
    queryFn: ({ signal }) => apiFetch<FailedStripeTransfers>('/api/admin/payments/failed-transfers', { signal }),
    retry: false,
  });
}

/** Tries a failed transfer again (audited). */
export function useRetryStripeTransfer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiFetch<null>(`/api/admin/payments/failed-transfers/${id}/retry`, { method: 'POST', body: {} }),
    onSettled: () =>
      Promise.all(
        [failedTransfersKey, ['admin', 'audit-log']].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      ),
  });
}

/** Gives part or all of a released job's money back to its student (audited, once per job). */
export function useAdjustJob(requestId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AdjustmentInput) =>
      apiFetch<Adjustment>(`/api/admin/payments/jobs/${requestId}/adjustment`, { method: 'POST', body: input }),
    onSettled: () =>
      Promise.all(
        [
          ['admin', 'payments', 'ledger'],
          ['admin', 'stats'],
          ['admin', 'audit-log'],
        ].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      ),
  });
}
