import {
  infiniteQueryOptions,
  useInfiniteQuery,
  useMutation,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import type {
  ChatMessage,
  ChatRoomSummary,
  MessagePage,
  Receipt,
  ReceiptStatus,
  RoomPage,
  SendMessageInput,
  UploadedFile,
} from '#shared/schemas/chat.ts';
import { AI_USER_ID } from '#shared/constants.ts';
import { ApiError, apiFetch } from '#web/lib/api.ts';
import { CONNECTION_ERROR_MESSAGE } from '#web/page-contract/connection-error.ts';
import { roomsQueryKey, roomsQueryOptions } from './rooms-query.ts';

// Chat: rooms, message pages, sending with retries, receipts, uploads and downloads.

/** Every chat query: rooms, message pages and the Guru AI conversation. */
export const chatQueryKey = ['chat'] as const;
const messagesQueryKey = (roomId: string) => ['chat', 'messages', roomId] as const;
/** The Guru AI conversation has no room: its pages have a key of their own. */
const guruMessagesQueryKey = ['chat', 'guru'] as const;

export function useRooms() {
  return useInfiniteQuery(roomsQueryOptions);
}

function fetchMessages({ roomId, before, signal }: { roomId: string; before?: string | null; signal?: AbortSignal }) {
  const query = before ? `?before=${encodeURIComponent(before)}` : '';
  return apiFetch<MessagePage>(`/api/chat/rooms/${encodeURIComponent(roomId)}/messages${query}`, { signal });
}

/** Pages newest first; each page's messages oldest first. */
const messagesQueryOptions = (roomId: string) =>
  infiniteQueryOptions({
    queryKey: messagesQueryKey(roomId),
    queryFn: ({ pageParam, signal }) => fetchMessages({ roomId, before: pageParam, signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    staleTime: Infinity,
  });

export function useMessages(roomId: string) {
  return useInfiniteQuery(messagesQueryOptions(roomId));
}

const guruMessagesQueryOptions = infiniteQueryOptions({
  queryKey: guruMessagesQueryKey,
  queryFn: ({ pageParam, signal }) => {
    const query = pageParam ? `?before=${encodeURIComponent(pageParam)}` : '';
    return apiFetch<MessagePage>(`/api/guru/messages${query}`, { signal });
  },
  initialPageParam: null as string | null,
  getNextPageParam: (page) => page.nextCursor,
  staleTime: Infinity,
});

export function useGuruMessages() {
  return useInfiniteQuery(guruMessagesQueryOptions);
}

/** Clear chat: deletes the Guru AI conversation on the server, then empties its cache. */
export function useClearGuruChat() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<void>('/api/guru/messages', { method: 'DELETE' }),
    onSuccess: () =>
      queryClient.setQueryData<InfiniteData<MessagePage>>(guruMessagesQueryKey, {
        pages: [{ messages: [], nextCursor: null }],
        pageParams: [null],
      }),
  });
}

/** The cache a message belongs to: its room's, or the Guru AI conversation's; null for neither. */
const conversationKeyOf = (message: ChatMessage) =>
  message.roomId
    ? messagesQueryKey(message.roomId)
    : message.senderId === AI_USER_ID || message.receiverId === AI_USER_ID
      ? guruMessagesQueryKey
      : null;

/** Every loaded message of a room, oldest first. */
export function flattenMessages(data: InfiniteData<MessagePage> | undefined) {
  if (!data) return [];
  return data.pages.toReversed().flatMap((page) => page.messages);
}

/** Puts a stored message in its room's cache: replaces the copy with the same id or clientId, else appends it. */
export function upsertMessage(queryClient: QueryClient, message: ChatMessage) {
  const key = conversationKeyOf(message);
  if (!key) return;
  queryClient.setQueryData<InfiniteData<MessagePage>>(key, (data) => {
    if (!data) return data;
    const isThisMessage = (m: ChatMessage) => m.id === message.id || m.clientId === message.clientId;
    const found = data.pages.some((page) => page.messages.some(isThisMessage));
    const pages = data.pages.map((page) => {
      const index = page.messages.findIndex(isThisMessage);
      if (index === -1) return page;
      const messages = [...page.messages];
      // A receipt may have arrived before this copy: never go back from read to unread.
      const old = messages[index]!;
      messages[index] = {
        ...message,
        isDelivered: message.isDelivered || old.isDelivered,
        isRead: message.isRead || old.isRead,
      };
      return { ...page, messages };
    });
    if (found) return { ...data, pages };
    const [newest, ...older] = data.pages;
    if (!newest) return data;
    return { ...data, pages: [{ ...newest, messages: [...newest.messages, message] }, ...older] };
  });
}

/** A receipt from the partner: own messages up to `upTo` get one check (delivered) or two (read). */
export function applyReceipt(
  queryClient: QueryClient,
  { roomId, status, upTo, userId }: { roomId: string; status: ReceiptStatus; upTo: string; userId: string },
) {
  const limit = new Date(upTo).getTime();
  queryClient.setQueryData<InfiniteData<MessagePage>>(messagesQueryKey(roomId), (data) => {
    if (!data) return data;
    return {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        messages: page.messages.map((message) =>
          message.senderId === userId && new Date(message.createdAt).getTime() <= limit
            ? { ...message, isDelivered: true, isRead: message.isRead || status === 'read' }
            : message,
        ),
      })),
    };
  });
}

/** Sets a room's unread count to 0 in the list (after marking it read). */
export function clearUnread(queryClient: QueryClient, roomId: string) {
  queryClient.setQueryData<InfiniteData<RoomPage>>(roomsQueryKey, (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            rooms: page.rooms.map((room) => (room.id === roomId ? { ...room, unreadCount: 0 } : room)),
          })),
        }
      : data,
  );
}

export function findRoom(data: InfiniteData<RoomPage> | undefined, predicate: (room: ChatRoomSummary) => boolean) {
  return data?.pages.flatMap((page) => page.rooms).find(predicate);
}

const RETRY_DELAYS_MS = [500, 1000, 2000, 4000, 8000];

/** Worth sending again with the same clientId: no answer, or the server failed (5xx, and 429 unless told not to). */
const isRetryable = (error: unknown, retryWhenLimited: boolean) =>
  error instanceof ApiError &&
  (error.status === 0 || error.status >= 500 || (error.status === 429 && retryWhenLimited));

/**
 * POST /api/chat/messages, sent again with the same clientId until the server acknowledges it (the server stores
 * it once). Gives up after a few tries so the bubble can offer "Retry"; rejects with ApiError. Questions to Guru AI
 * are not retried on 429: its per-minute limit is a message for the student, not a passing overload.
 */
export async function sendMessage(input: SendMessageInput) {
  const retryWhenLimited = input.receiverId !== AI_USER_ID;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await apiFetch<ChatMessage>('/api/chat/messages', { method: 'POST', body: input });
    } catch (error) {
      const delay = RETRY_DELAYS_MS[attempt];
      if (!isRetryable(error, retryWhenLimited) || delay === undefined) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

export function markRoom(roomId: string, status: ReceiptStatus) {
  return apiFetch<Receipt>(`/api/chat/rooms/${encodeURIComponent(roomId)}/${status}`, { method: 'POST', body: {} });
}

export function openRoom(partnerId: string) {
  return apiFetch<{ room: ChatRoomSummary; created: boolean }>('/api/chat/rooms', {
    method: 'POST',
    body: { partnerId },
  });
}

export function useOpenRoom() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: openRoom,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: roomsQueryKey }),
  });
}

/** POST /api/chat/uploads with progress (fetch cannot report upload progress; XMLHttpRequest can). */
export function uploadChatFile(file: File, onProgress: (percent: number) => void, signal?: AbortSignal) {
  return new Promise<UploadedFile>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/chat/uploads');
    xhr.withCredentials = true;
    xhr.setRequestHeader('accept', 'application/json');
    xhr.responseType = 'json';
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      const body = xhr.response as
        (Partial<UploadedFile> & { code?: string; message?: string; fields?: Record<string, string> }) | null;
      if (xhr.status >= 200 && xhr.status < 300 && body) {
        resolve(body as UploadedFile);
        return;
      }
      reject(
        new ApiError({
          status: xhr.status,
          code: body?.code ?? `HTTP_${xhr.status}`,
          message:
            body?.fields?.file ?? body?.message ?? (xhr.status === 413 ? 'The upload is too large.' : 'Upload failed'),
          fields: body?.fields,
        }),
      );
    };
    xhr.onerror = () => reject(new ApiError({ status: 0, code: 'NETWORK_ERROR', message: CONNECTION_ERROR_MESSAGE }));
    xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort());
    const form = new FormData();
    form.append('file', file);
    xhr.send(form);
  });
}
