import { infiniteQueryOptions, type QueryClient } from '@tanstack/react-query';
import type { RoomPage } from '#shared/schemas/chat.ts';
import { apiFetch } from '#web/lib/api.ts';

// The chat's room list, apart from the rest of its API: the router asks for it as soon as the session is known
// (src/web/main.tsx), before the chat's own code has arrived, so it is part of the app's first download.

export const roomsQueryKey = ['chat', 'rooms'] as const;

function fetchRooms({ cursor, signal }: { cursor?: string | null | undefined; signal?: AbortSignal }) {
  const query = cursor ? `?cursor=${encodeURIComponent(cursor)}` : '';
  return apiFetch<RoomPage>(`/api/chat/rooms${query}`, { signal });
}

export const roomsQueryOptions = infiniteQueryOptions({
  queryKey: roomsQueryKey,
  queryFn: ({ pageParam, signal }) => fetchRooms({ cursor: pageParam, signal }),
  initialPageParam: null as string | null,
  getNextPageParam: (page) => page.nextCursor,
  // SPEC.md §9: the chat-room cache lives 5 minutes; events keep it current meanwhile.
  staleTime: 5 * 60 * 1000,
});

/** Asks for the first page of rooms ahead of the chat's own code; a failure is the chat's to show. */
export function prefetchRooms(queryClient: QueryClient) {
  return queryClient.infiniteQuery(roomsQueryOptions).catch(() => undefined);
}
