import { Briefcase, MessageCircle, RotateCw, Search, Sparkles, UserSearch } from 'lucide-react';
import { Link } from 'react-router';
import { AI_USER_NAME } from '#shared/constants.ts';
import type { ChatRoomSummary } from '#shared/schemas/chat.ts';
import { messageTimeLabel } from '#shared/rules/date-labels.ts';
import { Avatar } from '#web/components/ui/avatar.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { errorMessage } from '#web/lib/api.ts';
import type { SessionUser } from '#web/lib/auth-client.ts';
import { usePublicSettings } from '#web/lib/settings.ts';
import { whatsappHref } from '#shared/public-settings.ts';
import { cn } from '#web/lib/utils.ts';
import { useRooms } from '../api.ts';
import { GuruAvatar } from './guru/guru-avatar.tsx';
import { ProfileDrawer } from './profile-drawer.tsx';
import { paths } from '#shared/paths.ts';

function roomPreview(room: ChatRoomSummary, userId: string) {
  const last = room.lastMessage;
  if (!last) return 'No messages yet';
  const text = last.content.trim() || (last.originalFilename ? `📎 ${last.originalFilename}` : '');
  return last.senderId === userId ? `You: ${text}` : text;
}

function RoleButtons({ user, onOpenGuru }: { user: SessionUser; onOpenGuru: () => void }) {
  const { settings } = usePublicSettings();
  if (user.role === 'teacher') {
    return (
      <div className="grid grid-cols-2 gap-2">
        <Button asChild variant="outline" size="sm">
          <Link to={paths.teacher.jobs.getHref()}>
            <Briefcase aria-hidden="true" />
            Jobs
          </Link>
        </Button>
        <Button asChild variant="outline" size="sm">
          <Link to={paths.search.students.getHref()}>
            <UserSearch aria-hidden="true" />
            Search the student
          </Link>
        </Button>
      </div>
    );
  }
  return (
    <div className="grid grid-cols-2 gap-2">
      <Button asChild variant="outline" size="sm">
        <Link to={paths.student.posts.getHref()}>
          <Search aria-hidden="true" />
          Find Expert
        </Link>
      </Button>
      <Button asChild variant="outline" size="sm">
        <Link to={paths.search.experts.getHref()}>
          <UserSearch aria-hidden="true" />
          Search expert with ID
        </Link>
      </Button>
      <Button asChild variant="outline" size="sm">
        <a href={whatsappHref(settings.whatsappNumber)} target="_blank" rel="noopener noreferrer">
          <MessageCircle aria-hidden="true" />
          Contact Us
        </a>
      </Button>
      <Button variant="outline" size="sm" onClick={onOpenGuru}>
        <Sparkles aria-hidden="true" />
        Guru AI
      </Button>
    </div>
  );
}

type ChatSidebarProps = {
  user: SessionUser;
  selectedRoomId: string | null;
  onSelect: (room: ChatRoomSummary) => void;
  /** Students only: the Guru AI conversation is open, and opening it. */
  isGuruSelected: boolean;
  onOpenGuru: () => void;
  className?: string;
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
  const list = rooms.data?.pages.flatMap((page) => page.rooms) ?? [];

  return (
    <aside aria-label="Chat rooms" className={cn('flex min-h-0 flex-col bg-background md:border-r', className)}>
      <div className="flex flex-col gap-3 border-b p-3">
        <div className="flex items-center gap-2">
          <ProfileDrawer user={user} />
          <h1 className="flex-1 truncate text-lg font-semibold">
            Virtual Help <span className="sr-only">Chat</span>
          </h1>
        </div>
        <RoleButtons user={user} onOpenGuru={onOpenGuru} />
      </div>

      <div className="min-h-0 flex-1 overflow-y-auto">
        {rooms.isPending ? (
          <ul aria-busy="true" aria-label="Loading chat rooms" className="flex flex-col">
            {Array.from({ length: 5 }, (_, index) => (
              <li key={index} className="flex items-center gap-3 px-3 py-3">
                <Skeleton className="size-10 rounded-full" />
                <span className="flex flex-1 flex-col gap-2">
                  <Skeleton className="h-4 w-1/2" />
                  <Skeleton className="h-3 w-3/4" />
                </span>
              </li>
            ))}
          </ul>
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
    </aside>
  );
}
