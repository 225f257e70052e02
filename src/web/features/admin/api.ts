import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminAccess, AdminStats } from '#shared/schemas/admin.ts';
import { ApiError, apiFetch } from '#web/lib/api.ts';

/** The signed-in user's admin role, or null when they have none (403). The server checks it again on every call. */
export const adminAccessQueryOptions = queryOptions({
  queryKey: ['admin', 'me'],
  queryFn: async ({ signal }) => {
    try {
      return await apiFetch<AdminAccess>('/api/admin/me', { signal });
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return null;
      throw error;
    }
  },
  retry: false,
});

export function useAdminAccess(enabled: boolean) {
  return useQuery({ ...adminAccessQueryOptions, enabled });
}

export function useAdminStats() {
  return useQuery({
    queryKey: ['admin', 'stats'],
    queryFn: ({ signal }) => apiFetch<AdminStats>('/api/admin/stats', { signal }),
    retry: false,
  });
}
