import { Briefcase, Menu, MessageCircle, MessagesSquare, Search, Sparkles, UserSearch } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { Role } from '#shared/constants.ts';
import { paths } from '#shared/paths.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { cn } from '#web/lib/utils.ts';

// /chat's frames, one per role (app/route-handle.ts), and the parts of the page they share: part of the app's first
// download, so it holds nothing the page alone needs.

export const CHAT_PAGE_TITLE = 'Chat';

/**
 * The chat's screen: the room list beside (on a phone, instead of) the open conversation, under a notice of the
 * connection's state.
 */
export function ChatScreenLayout({ children, notice }: { children: ReactNode; notice?: ReactNode }) {
  return (
    <div className="flex h-[calc(100dvh-4rem)] min-h-[26rem] w-full flex-col overflow-hidden border-b">
      {notice}
      <div className="flex min-h-0 flex-1">{children}</div>
    </div>
  );
}

/** The room list's column, shown on a phone only while no conversation is open. */
export const chatSidebarClassName = (isConversationOpen: boolean) =>
  cn('w-full md:w-80 md:shrink-0 lg:w-96', isConversationOpen ? 'max-md:hidden' : 'flex');

/** The conversation's column, shown on a phone only while one is open. */
export const conversationColumnClassName = (isConversationOpen: boolean) =>
  cn('min-w-0 flex-1 flex-col', isConversationOpen ? 'flex' : 'hidden md:flex');

/**
 * The buttons above the rooms, by role. `contactHref`: WhatsApp, from the server's settings (a frame, which cannot
 * know them, shows the button without a destination); `onOpenGuru`: opens the students' Guru AI conversation.
 */
export function RoleButtons({
  role,
  contactHref,
  onOpenGuru,
}: {
  role: Role;
  contactHref?: string;
  onOpenGuru?: () => void;
}) {
  if (role === 'teacher') {
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
        <a href={contactHref} target="_blank" rel="noopener noreferrer">
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

/** The top of the room list: the profile menu's button, the heading, and the role's buttons. */
export function ChatSidebarHeader({ profileMenu, children }: { profileMenu: ReactNode; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-3 border-b p-3">
      <div className="flex items-center gap-2">
        {profileMenu}
        <h1 className="flex-1 truncate text-lg font-semibold">
          Virtual Help <span className="sr-only">Chat</span>
        </h1>
      </div>
      {children}
    </div>
  );
}

/** Grey rows where the rooms will be. */
export function RoomListSkeleton() {
  return (
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
  );
}

/** The conversation's column while none is open. */
export function NoConversationOpen() {
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-3 p-6 text-center text-muted-foreground">
      <MessagesSquare aria-hidden="true" className="size-12 text-primary/60" />
      <p className="text-lg font-medium">Select a chatroom to start messaging</p>
    </div>
  );
}

/** The room list's column around its header and its list. */
export function ChatSidebarColumn({ className, children }: { className: string; children: ReactNode }) {
  return (
    <aside aria-label="Chat rooms" className={cn('flex min-h-0 flex-col bg-background md:border-r', className)}>
      {children}
    </aside>
  );
}

/** The chat before its rooms, and who is asking, are known: the role's buttons and the rooms grey. */
export function ChatPageFrame({ role }: { role: Role }) {
  useDocumentTitle(CHAT_PAGE_TITLE);
  return (
    <ChatScreenLayout>
      <ChatSidebarColumn className={chatSidebarClassName(false)}>
        <ChatSidebarHeader
          profileMenu={
            <Button variant="ghost" size="icon" aria-label="Open profile menu">
              <Menu aria-hidden="true" className="size-5" />
            </Button>
          }
        >
          <RoleButtons role={role} />
        </ChatSidebarHeader>
        <div className="min-h-0 flex-1 overflow-y-auto">
          <RoomListSkeleton />
        </div>
      </ChatSidebarColumn>
      {/* Empty: the page may open the conversation it had open last (or ?tutorId='s) rather than say none is. */}
      <div className={conversationColumnClassName(false)} />
    </ChatScreenLayout>
  );
}
