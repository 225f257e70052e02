import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type {
  AcceptBidResponse,
  Bid,
  CreateRequestFields,
  MyRequestsPage,
  Offer,
  PlaceBidInput,
  RequestCard,
  RequestDetail,
} from '#shared/schemas/requests.ts';
import { apiFetch } from '#web/lib/api.ts';
import {
  jobsQueryKeys,
  jobsQueryOptions,
  teacherSubjectsQueryKey,
  teacherSubjectsQueryOptions,
  type JobsFilter,
} from './jobs-query.ts';

export const requestsKeys = {
  all: ['requests'] as const,
  mineAll: ['requests', 'mine'] as const,
  mine: (status: 'live' | 'expired') => ['requests', 'mine', status] as const,
  detail: (id: string) => ['requests', 'detail', id] as const,
  offers: (id: string) => ['requests', 'offers', id] as const,
  jobsAll: jobsQueryKeys.all,
  teacherSubjects: teacherSubjectsQueryKey,
};

// My Requests.

function fetchMyRequests({
  status,
  cursor,
  signal,
}: {
  status: 'live' | 'expired';
  cursor?: string | null;
  signal?: AbortSignal;
}) {
  const query = new URLSearchParams({ status });
  if (cursor) query.set('cursor', cursor);
  return apiFetch<MyRequestsPage>(`/api/requests/mine?${query}`, { signal });
}

const myRequestsQueryOptions = (status: 'live' | 'expired') =>
  infiniteQueryOptions({
    queryKey: requestsKeys.mine(status),
    queryFn: ({ pageParam, signal }) => fetchMyRequests({ status, cursor: pageParam, signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });

export function useMyRequests(status: 'live' | 'expired') {
  return useInfiniteQuery(myRequestsQueryOptions(status));
}

/**
 * A request: JSON, or multipart when files are attached (field "attachments"). `idempotencyKey` is one per filled-in
 * form, so a second click or a retry after a lost answer finds the first request instead of posting another.
 */
export function createRequest({
  fields,
  files = [],
  idempotencyKey,
}: {
  fields: CreateRequestFields;
  files?: File[];
  idempotencyKey: string;
}) {
  let body: unknown = fields;
  if (files.length > 0) {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) {
      form.append(key, String(value));
    }
    for (const file of files) form.append('attachments', file);
    body = form;
  }
  return apiFetch<{ request: RequestCard; notifiedCount: number }>('/api/requests', {
    method: 'POST',
    body,
    headers: { 'idempotency-key': idempotencyKey },
  });
}

export function useCreateRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createRequest,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: requestsKeys.all }),
  });
}

// Offers.

const requestDetailQueryOptions = (id: string) =>
  queryOptions({
    queryKey: requestsKeys.detail(id),
    queryFn: ({ signal }) => apiFetch<RequestDetail>(`/api/requests/${encodeURIComponent(id)}`, { signal }),
  });

const offersQueryOptions = (id: string) =>
  queryOptions({
    queryKey: requestsKeys.offers(id),
    queryFn: ({ signal }) =>
      apiFetch<{ offers: Offer[] }>(`/api/requests/${encodeURIComponent(id)}/bids`, { signal }).then(
        (data) => data.offers,
      ),
  });

export function useRequestDetail(id: string) {
  return useQuery(requestDetailQueryOptions(id));
}

export function useOffers(id: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...offersQueryOptions(id), enabled });
}

export function acceptBid({ requestId, bidId }: { requestId: string; bidId: string }) {
  return apiFetch<AcceptBidResponse>(
    `/api/requests/${encodeURIComponent(requestId)}/bids/${encodeURIComponent(bidId)}/accept`,
    { method: 'POST', body: {} },
  );
}

export function useAcceptBid() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acceptBid,
    onSettled: (_data, _error, { requestId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: requestsKeys.detail(requestId) }),
        queryClient.invalidateQueries({ queryKey: requestsKeys.offers(requestId) }),
        queryClient.invalidateQueries({ queryKey: requestsKeys.mineAll }),
      ]),
  });
}

// Finished jobs: the tutor marks an accepted request delivered; the student marks it completed.

export function completeJob(requestId: string) {
  return apiFetch<{ requestId: string; completedAt: string }>(
    `/api/requests/${encodeURIComponent(requestId)}/complete`,
    { method: 'POST', body: {} },
  );
}

export function markJobDelivered(requestId: string) {
  return apiFetch<{ requestId: string; deliveredAt: string }>(
    `/api/requests/${encodeURIComponent(requestId)}/delivered`,
    { method: 'POST', body: {} },
  );
}

/** `onChanged` refreshes what else shows the job (the chat's job bar); the request's own queries refresh here. */
export function useCompleteJob({ onChanged }: { onChanged?: () => Promise<unknown> } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: completeJob,
    onSettled: (_data, _error, requestId) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: requestsKeys.detail(requestId) }),
        queryClient.invalidateQueries({ queryKey: requestsKeys.mineAll }),
        onChanged?.(),
      ]),
  });
}

/** `onChanged` refreshes what shows the job (the chat's job bar). */
export function useMarkJobDelivered({ onChanged }: { onChanged?: () => Promise<unknown> } = {}) {
  return useMutation({ mutationFn: markJobDelivered, onSettled: () => onChanged?.() });
}

/** Opens a declined or unanswered direct request to every tutor of its subject. */
export function useOpenToAllTutors() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (requestId: string) =>
      apiFetch<RequestDetail>(`/api/requests/${encodeURIComponent(requestId)}/open-to-all`, { method: 'POST' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: requestsKeys.all }),
  });
}

// Jobs.

/** The tutor declines a request sent to them, with an optional reason for the student. */
export function useDeclineDirectRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ requestId, reason }: { requestId: string; reason: string }) =>
      apiFetch<null>(`/api/jobs/${encodeURIComponent(requestId)}/decline`, { method: 'POST', body: { reason } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: requestsKeys.jobsAll }),
  });
}

export function useJobs(filter: JobsFilter) {
  return useInfiniteQuery(jobsQueryOptions(filter));
}

export function placeBid({ requestId, input }: { requestId: string; input: PlaceBidInput }) {
  return apiFetch<Bid>(`/api/jobs/${encodeURIComponent(requestId)}/bids`, { method: 'POST', body: input });
}

export function usePlaceBid() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: placeBid,
    onSettled: () => queryClient.invalidateQueries({ queryKey: requestsKeys.jobsAll }),
  });
}

export function useTeacherSubjects() {
  return useQuery(teacherSubjectsQueryOptions);
}
