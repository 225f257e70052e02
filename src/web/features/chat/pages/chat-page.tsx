import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useState } from 'react';
import { AI_USER_ID } from '#shared/constants.ts';
import type { ChatRoomSummary } from '#shared/schemas/chat.ts';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { useSession, type SessionUser } from '#web/lib/auth-client.ts';
import { useSocketEvent } from '#web/lib/socket.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { offerPushOnce } from '#web/features/notifications/api.ts';
import { applyReceipt, findRoom, markRoom, upsertMessage, useRooms } from '../api.ts';
import { roomsQueryKey } from '../rooms-query.ts';
import {
  CHAT_PAGE_TITLE,
  ChatScreenLayout,
  chatSidebarClassName,
  conversationColumnClassName,
  NoConversationOpen,
} from '../components/chat-page-frame.tsx';
import { ChatSidebar } from '../components/chat-sidebar.tsx';
import { ConnectionStatus } from '../components/connection-status.tsx';
import { Conversation } from '../components/conversation.tsx';
import {
  useChatConnection,
  useDeliveredOnArrival,
  usePhonePanes,
  useReadReceipts,
  useRoomFromLink,
} from '../use-chat-screen.ts';

// Guru AI's conversation brings Markdown and KaTeX: loaded only when a student opens it.
const GuruConversation = lazy(async () => ({
  default: (await import('../components/guru/guru-conversation.tsx')).GuruConversation,
}));

export function ChatPage() {
  const { user } = useSession();
  useDocumentTitle(CHAT_PAGE_TITLE);
  // The route is guarded: a missing user only happens for a moment while signing out.
  if (!user) return null;
  return <ChatScreen user={user} />;
}

function ChatScreen({ user }: { user: SessionUser }) {
  const queryClient = useQueryClient();
  const storageKey = `vh.chat.partner.${user.id}`;
  const [partnerId, setPartnerId] = useState<string | null>(() => localStorage.getItem(storageKey));
  // The room opened from ?tutorId= until the list includes it.
  const [openedRoom, setOpenedRoom] = useState<ChatRoomSummary | null>(null);
  const rooms = useRooms();
  const room =
    (partnerId && findRoom(rooms.data, (candidate) => candidate.partner.id === partnerId)) ||
    (openedRoom?.partner.id === partnerId ? openedRoom : null);
  const roomId = room?.id ?? null;
  const isGuruOpen = partnerId === AI_USER_ID && user.role === 'student';
  useChatConnection(user.id);
  const scheduleRead = useReadReceipts(roomId);
  useDeliveredOnArrival(rooms.data, user.id);

  const selectPartner = useCallback(
    (nextPartnerId: string | null) => {
      setPartnerId(nextPartnerId);
      if (nextPartnerId) localStorage.setItem(storageKey, nextPartnerId);
      else localStorage.removeItem(storageKey);
    },
    [storageKey],
  );

  const tutorId = useRoomFromLink({
    onOpening: setPartnerId,
    onOpened: (opened) => {
      setOpenedRoom(opened);
      selectPartner(opened.partner.id);
    },
    onFailed: () => setPartnerId(null),
  });

  useSocketEvent('message:new', (message) => {
    upsertMessage(queryClient, message);
    if (message.senderId === user.id || !message.roomId) return;
    const isOpenAndSeen = message.roomId === roomId && document.visibilityState === 'visible';
    if (isOpenAndSeen) {
      scheduleRead(message.roomId);
      return;
    }
    // A hidden tab is told by a push from the server (its service worker shows it), not by the page.
    markRoom(message.roomId, 'delivered').catch(() => undefined);
  });
  useSocketEvent('message:status', ({ roomId: statusRoomId, status, upTo }) =>
    applyReceipt(queryClient, { roomId: statusRoomId, status, upTo, userId: user.id }),
  );
  useSocketEvent('room:updated', () => void queryClient.invalidateQueries({ queryKey: roomsQueryKey }));

  const onSent = useCallback(() => void offerPushOnce(), []);

  const closeConversation = useCallback(() => selectPartner(null), [selectPartner]);
  const { openFromList, goBack } = usePhonePanes({ selectPartner, closeConversation });
  const isConversationOpen = Boolean(room) || isGuruOpen;

  return (
    <ChatScreenLayout notice={<ConnectionStatus userId={user.id} />}>
      <ChatSidebar
        user={user}
        selectedRoomId={roomId}
        onSelect={(next) => openFromList(next.partner.id)}
        isGuruSelected={isGuruOpen}
        onOpenGuru={() => openFromList(AI_USER_ID)}
        className={chatSidebarClassName(isConversationOpen)}
      />
      <div className={conversationColumnClassName(isConversationOpen)}>
        {isGuruOpen ? (
          <Suspense
            fallback={
              <div className="flex flex-1 items-center justify-center">
                <Spinner label="Opening Guru AI" />
              </div>
            }
          >
            <GuruConversation user={user} onBack={goBack} />
          </Suspense>
        ) : room ? (
          <Conversation key={room.id} room={room} user={user} onBack={goBack} onSent={onSent} />
        ) : partnerId && (rooms.isPending || tutorId) ? null : (
          <NoConversationOpen />
        )}
      </div>
    </ChatScreenLayout>
  );
}
