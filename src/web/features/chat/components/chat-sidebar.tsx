import { RotateCw } from 'lucide-react';
import { AI_USER_NAME } from '#shared/constants.ts';
import type { ChatRoomSummary } from '#shared/schemas/chat.ts';
import { messageTimeLabel } from '#shared/rules/date-labels.ts';
import { Avatar } from '#web/components/ui/avatar.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { errorMessage } from '#web/lib/api.ts';
import type { SessionUser } from '#web/lib/auth-client.ts';
import { usePublicSettings } from '#web/lib/settings.ts';
import { whatsappHref } from '#shared/public-settings.ts';
import { cn } from '#web/lib/utils.ts';
import { useRooms } from '../api.ts';
import { GuruAvatar } from './guru/guru-avatar.tsx';
import { ChatSidebarColumn, ChatSidebarHeader, RoleButtons, RoomListSkeleton } from './chat-page-frame.tsx';
import { ProfileDrawer } from './profile-drawer.tsx';

function roomPreview(room: ChatRoomSummary, userId: string) {
  const last = room.lastMessage;
  if (!last) return 'No messages yet';
  const text = last.content.trim() || (last.originalFilename ? `📎 ${last.originalFilename}` : '');
  return last.senderId === userId ? `You: ${text}` : text;
}

type ChatSidebarProps = {
  user: SessionUser;
  selectedRoomId: string | null;
  onSelect: (room: ChatRoomSummary) => void;
  /** Students only: the Guru AI conversation is open, and opening it. */
  isGuruSelected: boolean;
  onOpenGuru: () => void;
  className: string;
};

const rowClassName = (isSelected: boolean) =>
  cn(
    'flex w-full cursor-pointer items-center gap-3 px-3 py-3 text-left transition-colors hover:bg-accent',
    isSelected && 'bg-primary-soft hover:bg-primary-soft',
  );

/** Students' first row: the conversation with Guru AI, which is not a room. */
function GuruRow({ isSelected, onOpen }: { isSelected: boolean; onOpen: () => void }) {
  return (
    <li>
      <button
        type="button"
        onClick={onOpen}
        aria-current={isSelected ? 'true' : undefined}
        className={rowClassName(isSelected)}
      >
        <GuruAvatar />
        <span className="flex min-w-0 flex-1 flex-col gap-0.5">
          <span className="truncate font-medium">{AI_USER_NAME}</span>
          <span className="truncate text-sm text-muted-foreground">Your study assistant</span>
        </span>
      </button>
    </li>
  );
}

export function ChatSidebar({
  user,
  selectedRoomId,
  onSelect,
  isGuruSelected,
  onOpenGuru,
  className,
}: ChatSidebarProps) {
  const isStudent = user.role === 'student';
  const rooms = useRooms();
  const { settings } = usePublicSettings();
  const list = rooms.data?.pages.flatMap((page) => page.rooms) ?? [];

  return (
    <ChatSidebarColumn className={className}>
      <ChatSidebarHeader profileMenu={<ProfileDrawer user={user} />}>
        <RoleButtons role={user.role} contactHref={whatsappHref(settings.whatsappNumber)} onOpenGuru={onOpenGuru} />
      </ChatSidebarHeader>

      <div className="min-h-0 flex-1 overflow-y-auto">
        {rooms.isPending ? (
          <RoomListSkeleton />
        ) : rooms.isError ? (
          <div role="alert" className="flex flex-col items-center gap-3 p-6 text-center text-sm">
            <p className="font-semibold">Error fetching chat rooms</p>
            <p className="text-muted-foreground">{errorMessage(rooms.error)}</p>
            <Button variant="outline" size="sm" onClick={() => void rooms.refetch()}>
              <RotateCw aria-hidden="true" />
              Retry
            </Button>
          </div>
        ) : (
          <ul className="flex flex-col">
            {isStudent && <GuruRow isSelected={isGuruSelected} onOpen={onOpenGuru} />}
            {list.map((room) => {
              const isSelected = room.id === selectedRoomId;
              return (
                <li key={room.id}>
                  <button
                    type="button"
                    onClick={() => onSelect(room)}
                    aria-current={isSelected ? 'true' : undefined}
                    className={rowClassName(isSelected)}
                  >
                    <Avatar name={room.partner.username} src={room.partner.image} className="size-10 text-base" />
                    <span className="flex min-w-0 flex-1 flex-col gap-0.5">
                      <span className="flex items-baseline justify-between gap-2">
                        <span className="truncate font-medium">{room.partner.username}</span>
                        <span className="shrink-0 text-xs text-muted-foreground">
                          {messageTimeLabel(room.lastMessageAt)}
                        </span>
                      </span>
                      <span className="flex items-center justify-between gap-2">
                        <span className="truncate text-sm text-muted-foreground">{roomPreview(room, user.id)}</span>
                        {room.unreadCount > 0 && (
                          <span className="inline-flex h-5 min-w-5 shrink-0 items-center justify-center rounded-full bg-primary px-1.5 text-xs font-semibold text-primary-foreground">
                            {room.unreadCount > 99 ? '99+' : room.unreadCount}
                            <span className="sr-only"> unread</span>
                          </span>
                        )}
                      </span>
                    </span>
                  </button>
                </li>
              );
            })}
          </ul>
        )}
        {rooms.isSuccess && list.length === 0 && (
          <p className="p-6 text-center text-sm text-muted-foreground">No conversations yet</p>
        )}
        {rooms.hasNextPage && (
          <div className="p-3">
            <Button
              variant="ghost"
              size="sm"
              className="w-full"
              loading={rooms.isFetchingNextPage}
              onClick={() => void rooms.fetchNextPage()}
            >
              Load more
            </Button>
          </div>
        )}
      </div>
    </ChatSidebarColumn>
  );
}
