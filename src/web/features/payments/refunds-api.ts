import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AnswerRefundInput, AskForRefundInput, JobRefunds, RefundRequestView } from '#shared/schemas/refunds.ts';
import { apiFetch } from '#web/lib/api.ts';

// A job's refunds as its student and tutor see and act on them: ask, answer, withdraw, propose and agree to cancel.

/** Every job's refunds and payment state (`all`), or one job's. */
export const jobRefundsKeys = {
  all: ['refunds', 'job'] as const,
  job: (requestId: string) => [...jobRefundsKeys.all, requestId] as const,
};

export function useJobRefunds(requestId: string) {
  return useQuery({
    queryKey: jobRefundsKeys.job(requestId),
    queryFn: () => apiFetch<JobRefunds>(`/api/refunds/jobs/${encodeURIComponent(requestId)}`),
  });
}

/** Every change to a job's refunds answers the request as it now stands; the job's refunds are read again. */
function useRefundChange<Input>(requestId: string, send: (input: Input) => Promise<RefundRequestView>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSettled: () => queryClient.invalidateQueries({ queryKey: jobRefundsKeys.job(requestId) }),
  });
}

const job = (requestId: string) => `/api/refunds/jobs/${encodeURIComponent(requestId)}`;
const refund = (refundRequestId: string) => `/api/refunds/requests/${encodeURIComponent(refundRequestId)}`;

export const useAskForRefund = (requestId: string) =>
  useRefundChange(requestId, (input: AskForRefundInput) =>
    apiFetch<RefundRequestView>(job(requestId), { method: 'POST', body: input }),
  );

export const useAnswerRefund = (requestId: string) =>
  useRefundChange(requestId, ({ refundRequestId, ...input }: AnswerRefundInput & { refundRequestId: string }) =>
    apiFetch<RefundRequestView>(`${refund(refundRequestId)}/answer`, { method: 'POST', body: input }),
  );

export const useCancelJob = (requestId: string) =>
  useRefundChange(requestId, (how: 'withdraw' | 'cancellation') =>
    apiFetch<RefundRequestView>(`${job(requestId)}/${how}`, { method: 'POST', body: {} }),
  );

export const useAnswerCancellation = (requestId: string) =>
  useRefundChange(requestId, ({ refundRequestId, agree }: { refundRequestId: string; agree: boolean }) =>
    apiFetch<RefundRequestView>(`${refund(refundRequestId)}/cancellation`, { method: 'POST', body: { agree } }),
  );
