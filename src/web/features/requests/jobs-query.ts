import { infiniteQueryOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
import type { RequestType } from '#shared/constants.ts';
import type { JobsPage } from '#shared/schemas/requests.ts';
import { apiFetch } from '#web/lib/api.ts';
import type { SessionUser } from '#web/lib/auth-client.ts';

// The teachers' job list and their subjects (its filter), apart from the rest of the requests API: the router asks
// for both as soon as a teacher's session is known (src/web/main.tsx), before the jobs page's own code has arrived,
// so they are part of the app's first download.

/** Long enough for the page, opened right after the prefetch, to show its answers rather than ask again. */
const PREFETCH_FRESH_MS = 10 * 1000;

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
    // A new job (job:new, heard by the notification bell on every page), a bid and a change of subjects mark the list
    // stale at once.
    staleTime: PREFETCH_FRESH_MS,
  });

export const teacherSubjectsQueryKey = ['requests', 'teacher-subjects'] as const;

/** The signed-in teacher's subjects: with more than one, the jobs page filters by subject. */
export const teacherSubjectsQueryOptions = queryOptions({
  queryKey: teacherSubjectsQueryKey,
  queryFn: ({ signal }) =>
    apiFetch<{ specializations: { id: string; name: string; category: string }[] }>('/api/profile', { signal }).then(
      (profile) => profile.specializations,
    ),
  staleTime: PREFETCH_FRESH_MS,
});

/**
 * Asks a teacher's first page of jobs (all subjects, all types) and their subjects ahead of the page's code; a
 * failure is the page's to show.
 */
export function prefetchJobs(queryClient: QueryClient, user: SessionUser) {
  if (user.role !== 'teacher') return Promise.resolve();
  return Promise.all([
    queryClient.infiniteQuery(jobsQueryOptions({})),
    queryClient.query(teacherSubjectsQueryOptions),
  ]).catch(() => undefined);
}
