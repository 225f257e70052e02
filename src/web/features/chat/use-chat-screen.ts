import { useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useCallback, useEffect, useEffectEvent, useRef } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { toast } from '#web/lib/toast.ts';
import type { ChatRoomSummary, RoomPage } from '#shared/schemas/chat.ts';
import { paths } from '#shared/paths.ts';
import { errorMessage } from '#web/lib/api.ts';
import { connectSocket, getSocket } from '#web/lib/socket.ts';
import { clearUnread, markRoom, openRoom } from './api.ts';
import { roomsQueryKey } from './rooms-query.ts';
import { outboxOf } from './use-outbox.ts';

// The chat screen's side effects, one named hook each.

/** The receiver marks a room read at most this often while messages stream in. */
const READ_DEBOUNCE_MS = 300;

/**
 * One socket while signed in (the top bar's bell opens the same one), with a notice while it cannot connect although
 * the browser is online (offline, the screen says so calmly: components/connection-status.tsx). Each connection
 * sends what the outbox kept waiting.
 */
export function useChatConnection(userId: string) {
  const queryClient = useQueryClient();
  useEffect(() => {
    const outbox = outboxOf(userId, queryClient);
    const socket = connectSocket(userId) ?? getSocket();
    if (!socket) return;
    const onError = () => {
      if (!navigator.onLine) return;
      toast.error('Connection error', {
        id: 'chat-connection-error',
        description: 'Could not connect to the server. Please check your internet connection.',
      });
    };
    const onConnect = () => {
      toast.dismiss('chat-connection-error');
      void outbox.resume();
    };
    socket.on('connect_error', onError);
    socket.on('connect', onConnect);
    return () => {
      socket.off('connect_error', onError);
      socket.off('connect', onConnect);
    };
  }, [userId, queryClient]);
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

type ChatNavigationState = { tutorId?: string; name?: string; avatar?: string; chatPane?: string } | null;

/**
 * Opens a chat directly from a link: ?tutorId= (after accepting a bid) or navigation state { tutorId }. The
 * partner is shown at once, the room once the server has it; the address goes back to plain /chat so that a
 * reload does not open it again. Returns the partner being opened, if any.
 */
export function useRoomFromLink({
  onOpening,
  onOpened,
  onFailed,
}: {
  onOpening: (partnerId: string) => void;
  onOpened: (room: ChatRoomSummary) => void;
  onFailed: () => void;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const tutorId = searchParams.get('tutorId') ?? (location.state as ChatNavigationState)?.tutorId ?? null;
  const openedFor = useRef<string | null>(null);
  const opening = useEffectEvent(onOpening);
  const opened = useEffectEvent(onOpened);
  const failed = useEffectEvent(onFailed);

  useEffect(() => {
    if (!tutorId || openedFor.current === tutorId) return;
    openedFor.current = tutorId;
    opening(tutorId);
    openRoom(tutorId)
      .then(async ({ room }) => {
        opened(room);
        // A first list fetch still in flight started before the room existed: drop it, then fetch again.
        await queryClient.cancelQueries({ queryKey: roomsQueryKey });
        await queryClient.invalidateQueries({ queryKey: roomsQueryKey });
      })
      .catch((error: unknown) => {
        failed();
        toast.error('Error creating chat room', { description: errorMessage(error) });
      });
    void navigate(paths.chat.getHref(), { replace: true, state: null });
  }, [tutorId, navigate, queryClient]);

  return tutorId;
}

/**
 * On a phone the list and the conversation are two panes: opening a conversation from the list adds a history
 * entry, so the browser's back button returns to the list and stays on /chat.
 */
export function usePhonePanes({
  selectPartner,
  closeConversation,
}: {
  selectPartner: (partnerId: string) => void;
  closeConversation: () => void;
}) {
  const navigate = useNavigate();
  const location = useLocation();
  const pane = (location.state as ChatNavigationState)?.chatPane ?? null;
  const previousPane = useRef(pane);
  useEffect(() => {
    if (previousPane.current === 'conversation' && pane !== 'conversation') closeConversation();
    previousPane.current = pane;
  }, [pane, closeConversation]);

  const openFromList = (partnerId: string) => {
    selectPartner(partnerId);
    if (window.matchMedia('(max-width: 767px)').matches && pane !== 'conversation') {
      void navigate(paths.chat.getHref(), { state: { chatPane: 'conversation' } });
    }
  };
  const goBack = () => {
    if (pane === 'conversation') void navigate(-1);
    else closeConversation();
  };
  return { openFromList, goBack };
}
