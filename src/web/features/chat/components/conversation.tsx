import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, EllipsisVertical, Flag, Search } from 'lucide-react';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import type { ModerationMatch } from '#shared/rules/moderation.ts';
import type { ChatRoomSummary, SendMessageInput } from '#shared/schemas/chat.ts';
import { Avatar } from '#web/components/ui/avatar.tsx';
import { Button } from '#web/components/ui/button.tsx';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '#web/components/ui/dropdown-menu.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { ApiError, errorMessage } from '#web/lib/api.ts';
import type { SessionUser } from '#web/lib/auth-client.ts';
import { sendMessage, upsertMessage } from '../api.ts';
import { Composer, type SendOutcome } from './composer.tsx';
import type { PendingMessage } from './message-bubble.tsx';
import { MessageList } from './message-list.tsx';
import { ScheduleMeetingDialog } from './schedule-meeting-dialog.tsx';
import { paths } from '#shared/paths.ts';

type ConversationProps = {
  room: ChatRoomSummary;
  user: SessionUser;
  onBack: () => void;
  /** After the first message this user sends (the moment to ask for notification permission). */
  onSent: () => void;
};

export function Conversation({ room, user, onBack, onSent }: ConversationProps) {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<PendingMessage[]>([]);
  const inputs = useRef(new Map<string, SendMessageInput>());
  const [isSearching, setSearching] = useState(false);
  const [searchQuery, setSearchQuery] = useState('');
  const partner = room.partner;
  const displayName = user.username || user.email;

  const setStatus = (clientId: string, status: PendingMessage['status'] | null) =>
    setPending((current) =>
      status === null
        ? current.filter((message) => message.clientId !== clientId)
        : current.map((message) => (message.clientId === clientId ? { ...message, status } : message)),
    );

  const deliver = async (input: SendMessageInput): Promise<SendOutcome> => {
    try {
      const message = await sendMessage(input);
      upsertMessage(queryClient, message);
      setStatus(input.clientId, null);
      inputs.current.delete(input.clientId);
      onSent();
      return null;
    } catch (error) {
      if (error instanceof ApiError && error.code === 'MESSAGE_BLOCKED') {
        setStatus(input.clientId, null);
        inputs.current.delete(input.clientId);
        const matches = (error.details?.matches as ModerationMatch[] | undefined) ?? [];
        return { blocked: { message: error.message, matches } };
      }
      setStatus(input.clientId, 'failed');
      toast.error('Error sending message', { description: errorMessage(error) });
      return null;
    }
  };

  const onSend = (input: { content: string; attachment?: { fileKey: string; originalFilename: string } }) => {
    const clientId = crypto.randomUUID();
    const payload: SendMessageInput = { clientId, receiverId: partner.id, ...input };
    inputs.current.set(clientId, payload);
    setPending((current) => [
      ...current,
      {
        clientId,
        content: input.content,
        attachmentName: input.attachment?.originalFilename ?? null,
        createdAt: new Date().toISOString(),
        status: 'sending',
      },
    ]);
    return deliver(payload);
  };

  const retry = (clientId: string) => {
    const payload = inputs.current.get(clientId);
    if (!payload) return;
    setStatus(clientId, 'sending');
    void deliver(payload);
  };

  const closeSearch = () => {
    setSearching(false);
    setSearchQuery('');
  };

  return (
    <section
      aria-label={`Conversation with ${partner.username}`}
      className="flex min-h-0 flex-1 flex-col bg-background"
    >
      <header className="flex min-h-16 items-center gap-2 border-b px-2 py-2 sm:px-3">
        <Button variant="ghost" size="icon" className="md:hidden" aria-label="Back to chats" onClick={onBack}>
          <ArrowLeft aria-hidden="true" className="size-5" />
        </Button>
        {isSearching ? (
          <form role="search" className="flex flex-1 items-center gap-2" onSubmit={(event) => event.preventDefault()}>
            <Input
              type="search"
              autoFocus
              aria-label="Search messages"
              placeholder="Search messages"
              value={searchQuery}
              onChange={(event) => setSearchQuery(event.target.value)}
              onKeyDown={(event) => event.key === 'Escape' && closeSearch()}
            />
            <Button variant="ghost" onClick={closeSearch}>
              Cancel
            </Button>
          </form>
        ) : (
          <>
            <Avatar name={partner.username} src={partner.image} className="size-10 text-base" />
            <div className="min-w-0 flex-1">
              <h2 className="truncate font-semibold">{partner.username}</h2>
              <p className="text-xs text-muted-foreground">VH number: {partner.vhNumber}</p>
            </div>
            <Button variant="ghost" size="icon" aria-label="Search messages" onClick={() => setSearching(true)}>
              <Search aria-hidden="true" className="size-5" />
            </Button>
            <DropdownMenu>
              <DropdownMenuTrigger asChild>
                <Button variant="ghost" size="icon" aria-label="Conversation menu">
                  <EllipsisVertical aria-hidden="true" className="size-5" />
                </Button>
              </DropdownMenuTrigger>
              <DropdownMenuContent align="end">
                <DropdownMenuItem asChild>
                  <Link to={paths.reportUser.getHref(partner.id)}>
                    <Flag aria-hidden="true" />
                    Report user
                  </Link>
                </DropdownMenuItem>
              </DropdownMenuContent>
            </DropdownMenu>
          </>
        )}
      </header>
      <MessageList
        roomId={room.id}
        userId={user.id}
        displayName={displayName}
        searchQuery={searchQuery}
        pending={pending}
        onRetry={retry}
      />
      <Composer
        onSend={onSend}
        extra={
          user.role === 'teacher' ? (
            <ScheduleMeetingDialog roomId={room.id} partnerName={partner.username} />
          ) : undefined
        }
      />
    </section>
  );
}
