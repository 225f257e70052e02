import { useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { toast } from 'sonner';
import type { RoomPage } from '#shared/schemas/chat.ts';
import { connectSocket, getSocket } from '#web/lib/socket.ts';
import { clearUnread, markRoom } from './api.ts';

// The chat screen's side effects, one named hook each.

/** The receiver marks a room read at most this often while messages stream in. */
const READ_DEBOUNCE_MS = 300;

/** One socket while signed in (the top bar's bell opens the same one), with a notice while it cannot connect. */
export function useChatConnection(userId: string) {
  useEffect(() => {
    const socket = connectSocket(userId) ?? getSocket();
    if (!socket) return;
    const onError = () =>
      toast.error('Connection error', {
        id: 'chat-connection-error',
        description: 'Could not connect to the server. Please check your internet connection.',
      });
    const onConnect = () => toast.dismiss('chat-connection-error');
    socket.on('connect_error', onError);
    socket.on('connect', onConnect);
    return () => {
      socket.off('connect_error', onError);
      socket.off('connect', onConnect);
    };
  }, [userId]);
}

/**
 * Read receipts: one POST per burst of messages. The open room is marked read when it opens and whenever the tab
 * is seen again; the returned function marks a room read after the next quiet moment.
 */
export function useReadReceipts(openRoomId: string | null) {
  const queryClient = useQueryClient();
  const readTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const scheduleRead = useCallback(
    (id: string) => {
      clearTimeout(readTimer.current);
      readTimer.current = setTimeout(() => {
        markRoom(id, 'read')
          .then(() => clearUnread(queryClient, id))
          .catch(() =>
            toast.error('Error updating message status', {
              id: 'chat-read-error',
              description: 'There was a problem marking messages as read. Please try again.',
            }),
          );
      }, READ_DEBOUNCE_MS);
    },
    [queryClient],
  );
  useEffect(() => () => clearTimeout(readTimer.current), []);

  useEffect(() => {
    if (!openRoomId) return;
    if (document.visibilityState === 'visible') scheduleRead(openRoomId);
    const onVisible = () => document.visibilityState === 'visible' && scheduleRead(openRoomId);
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [openRoomId, scheduleRead]);
  return scheduleRead;
}

/** Messages that arrived while this user was away are delivered now (once per room and page load). */
export function useDeliveredOnArrival(rooms: InfiniteData<RoomPage> | undefined, userId: string) {
  const deliveredRooms = useRef(new Set<string>());
  useEffect(() => {
    for (const page of rooms?.pages ?? []) {
      for (const candidate of page.rooms) {
        const last = candidate.lastMessage;
        if (!last || last.senderId === userId || last.isDelivered || deliveredRooms.current.has(candidate.id)) continue;
        deliveredRooms.current.add(candidate.id);
        markRoom(candidate.id, 'delivered').catch(() => undefined);
      }
    }
  }, [rooms, userId]);
}
