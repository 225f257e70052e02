import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Subject } from '#shared/schemas/profiles.ts';
import { apiFetch } from './api.ts';

// The subject catalogue, shared by registration (teachers' specializations) and the profile page.

function fetchSubjects({ signal }: { signal?: AbortSignal } = {}) {
  return apiFetch<{ subjects: Subject[] }>('/api/subjects', { signal }).then((data) => data.subjects);
}

const subjectsQueryOptions = queryOptions({
  queryKey: ['subjects'],
  queryFn: ({ signal }) => fetchSubjects({ signal }),
  // The catalogue changes with a deployment, not while someone fills in a form.
  staleTime: 30 * 60 * 1000,
});

export function useSubjects() {
  return useQuery(subjectsQueryOptions);
}

/** Category names in catalogue order (the server sorts by category, then name). */
export function categoriesOf(subjects: readonly Subject[]) {
  return [...new Set(subjects.map((subject) => subject.category))];
}
