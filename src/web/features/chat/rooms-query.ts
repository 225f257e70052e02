import { infiniteQueryOptions, type QueryClient } from '@tanstack/react-query';
import type { RoomPage } from '#shared/schemas/chat.ts';
import { apiFetch } from '#web/lib/api.ts';
import type { Session } from '#web/lib/auth-client.ts';
import { queryClient, sessionQueryKey } from '#web/lib/query-client.ts';

// The chat's room list, apart from the rest of its API: the router asks for it as soon as the session is known
// (src/web/main.tsx), before the chat's own code has arrived, so it is part of the app's first download.

export const roomsQueryKey = ['chat', 'rooms'] as const;

async function fetchRooms({ cursor, signal }: { cursor?: string | null | undefined; signal?: AbortSignal }) {
  const query = cursor ? `?cursor=${encodeURIComponent(cursor)}` : '';
  const answer = apiFetch<RoomPage>(`/api/chat/rooms${query}`, { signal });
  const userId = queryClient.getQueryData<Session | null>(sessionQueryKey)?.user.id;
  if (cursor || !userId) return answer;
  // The first page is kept per person on the device, for a start without the network (docs/decisions/0063).
  // Its failure is answered below, once the module is here: not an unhandled rejection meanwhile.
  void answer.catch(() => undefined);
  const { answerOrKept } = await import('#web/lib/device-db.ts');
  return answerOrKept({ store: 'rooms', key: userId, answer });
}

export const roomsQueryOptions = infiniteQueryOptions({
  queryKey: roomsQueryKey,
  queryFn: ({ pageParam, signal }) => fetchRooms({ cursor: pageParam, signal }),
  initialPageParam: null as string | null,
  getNextPageParam: (page) => page.nextCursor,
  // SPEC.md §9: the chat-room cache lives 5 minutes; events keep it current meanwhile.
  staleTime: 5 * 60 * 1000,
  // Asked even when the browser says it is offline: the kept first page answers then.
  networkMode: 'offlineFirst',
});

/** Asks for the first page of rooms ahead of the chat's own code; a failure is the chat's to show. */
export function prefetchRooms(queryClient: QueryClient) {
  return queryClient.infiniteQuery(roomsQueryOptions).catch(() => undefined);
}
