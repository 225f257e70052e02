import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Chargeback,
  Dispute,
  DisputeEvidence,
  RefundDecisionInput,
  RefundRequestView,
} from '#shared/schemas/refunds.ts';
import { apiFetch } from '#web/lib/api.ts';

// The disputes tab of the admin Payments section: refund requests waiting for an admin, their evidence, the decision;
// and chargebacks opened at Stripe.

const disputesKey = ['admin', 'payments', 'disputes'] as const;
const disputePath = (id: string) => `/api/admin/payments/disputes/${encodeURIComponent(id)}`;

export function useDisputes() {
  return useQuery({
    queryKey: disputesKey,
    queryFn: () => apiFetch<{ disputes: Dispute[]; chargebacks: Chargeback[] }>('/api/admin/payments/disputes'),
  });
}

/** A dispute's evidence, fetched when the admin opens it. */
export function useDisputeEvidence(id: string | null) {
  return useQuery({
    queryKey: [...disputesKey, id],
    queryFn: () => apiFetch<DisputeEvidence>(disputePath(id!)),
    enabled: id !== null,
  });
}

export function useDecideDispute() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...input }: RefundDecisionInput & { id: string }) =>
      apiFetch<RefundRequestView>(`${disputePath(id)}/decision`, { method: 'POST', body: input }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: disputesKey }),
  });
}
