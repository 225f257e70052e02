import { QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from './api.ts';

export const sessionQueryKey = ['auth', 'session'] as const;

function isClientError(error: unknown) {
  return error instanceof ApiError && error.status >= 400 && error.status < 500;
}

export const queryClient = new QueryClient({
  queryCache: new QueryCache({
    onError(error, query) {
      // Any 401 means the session is gone (signed out elsewhere, revoked): the top bar follows at once.
      if (error instanceof ApiError && error.status === 401 && query.queryKey[0] !== sessionQueryKey[0]) {
        queryClient.setQueryData(sessionQueryKey, null);
      }
    },
  }),
  defaultOptions: {
    queries: {
      // SPEC.md §9: retry 1, no refetch on window focus. A 4xx answer will not change on retry.
      retry: (failureCount, error) => failureCount < 1 && !isClientError(error),
      refetchOnWindowFocus: false,
    },
    mutations: {
      retry: false,
    },
  },
});
