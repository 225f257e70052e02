import { useQuery } from '@tanstack/react-query';
import type { VhSearchAnswer, VhSearchKind } from '#shared/schemas/search.ts';
import { apiFetch } from '#web/lib/api.ts';

const searchQueryKey = (kind: VhSearchKind, vh: string) => ['search', kind, vh] as const;

/** The people of this kind with VH number `vh` (null: nothing searched yet). */
export function useVhSearch(kind: VhSearchKind, vh: string | null) {
  return useQuery({
    queryKey: searchQueryKey(kind, vh ?? ''),
    queryFn: ({ signal }) =>
      apiFetch<VhSearchAnswer>(`/api/search/${kind}?vh=${encodeURIComponent(vh ?? '')}`, { signal }),
    enabled: vh !== null,
    // Each search counts against the user's limit: no refetch on focus or reconnect.
    staleTime: 60_000,
    retry: false,
    refetchOnWindowFocus: false,
  });
}
