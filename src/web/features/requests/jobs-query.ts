import { infiniteQueryOptions, type QueryClient } from '@tanstack/react-query';
import type { RequestType } from '#shared/constants.ts';
import type { JobsPage } from '#shared/schemas/requests.ts';
import { apiFetch } from '#web/lib/api.ts';
import type { SessionUser } from '#web/lib/auth-client.ts';

// The teachers' job list, apart from the rest of the requests API: the router asks for its first page as soon as a
// teacher's session is known (src/web/main.tsx), before the jobs page's own code has arrived, so it is part of the
// app's first download.

export type JobsFilter = { subjectId?: string | undefined; type?: RequestType | undefined };

export const jobsQueryKeys = {
  all: ['jobs'] as const,
  filtered: (filter: JobsFilter) => ['jobs', filter] as const,
};

function fetchJobs({ subjectId, type, cursor, signal }: JobsFilter & { cursor?: string | null; signal?: AbortSignal }) {
  const query = new URLSearchParams();
  if (subjectId) query.set('subjectId', subjectId);
  if (type) query.set('type', type);
  if (cursor) query.set('cursor', cursor);
  return apiFetch<JobsPage>(`/api/jobs?${query}`, { signal });
}

export const jobsQueryOptions = (filter: JobsFilter) =>
  infiniteQueryOptions({
    queryKey: jobsQueryKeys.filtered(filter),
    queryFn: ({ pageParam, signal }) => fetchJobs({ ...filter, cursor: pageParam, signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    // Fresh for a few seconds, so that the page opened right after its prefetch shows that answer rather than asking
    // again. A new job (job:new, heard by the notification bell on every page), a bid and a change of subjects mark
    // the list stale at once.
    staleTime: 10 * 1000,
  });

/** Asks a teacher's first page of jobs (all subjects, all types) ahead of the page's code; a failure is the page's. */
export function prefetchJobs(queryClient: QueryClient, user: SessionUser) {
  if (user.role !== 'teacher') return Promise.resolve();
  return queryClient.infiniteQuery(jobsQueryOptions({})).catch(() => undefined);
}
