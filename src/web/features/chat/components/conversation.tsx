import { Flag } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '#shared/paths.ts';
import type { ChatRoomSummary } from '#shared/schemas/chat.ts';
import { TutorTrustLink } from '#web/components/tutor-trust.tsx';
import { Avatar } from '#web/components/ui/avatar.tsx';
import { DropdownMenuItem } from '#web/components/ui/dropdown-menu.tsx';
import type { SessionUser } from '#web/lib/auth-client.ts';
import { useMessages } from '../api.ts';
import { draftKey } from '../use-draft.ts';
import { useOutbox } from '../use-outbox.ts';
import { Composer } from './composer.tsx';
import { JobBar } from './job-bar.tsx';
import { ConversationShell } from './conversation-shell.tsx';
import { MessageList } from './message-list.tsx';
import { ScheduleMeetingDialog } from '#web/features/meetings/embeds.ts';

type ConversationProps = {
  room: ChatRoomSummary;
  user: SessionUser;
  onBack: () => void;
  /** After the first message this user sends (the moment to ask for notification permission). */
  onSent: () => void;
};

export function Conversation({ room, user, onBack, onSent }: ConversationProps) {
  const partner = room.partner;
  const messages = useMessages(room.id);
  const { pending, send, retry } = useOutbox({ receiverId: partner.id, onSent });

  return (
    <ConversationShell
      title={partner.username}
      subtitle={
        <>
          <p>VH number: {partner.vhNumber}</p>
          {partner.role === 'teacher' && <TutorTrustLink tutorId={partner.id} trust={partner} className="text-xs" />}
        </>
      }
      avatar={<Avatar name={partner.username} src={partner.image} className="size-10 text-base" />}
      menuItems={
        <DropdownMenuItem asChild>
          <Link to={paths.reportUser.getHref(partner.id)}>
            <Flag aria-hidden="true" />
            Report user
          </Link>
        </DropdownMenuItem>
      }
      onBack={onBack}
    >
      {(searchQuery) => (
        <>
          <JobBar user={user} partnerId={partner.id} partnerName={partner.username} />
          <MessageList
            query={messages}
            conversationId={room.id}
            userId={user.id}
            displayName={user.username || user.email}
            searchQuery={searchQuery}
            pending={pending}
            onRetry={retry}
          />
          <Composer
            onSend={send}
            draftKey={draftKey(user.id, partner.id)}
            extra={
              user.role === 'teacher' ? (
                <ScheduleMeetingDialog roomId={room.id} partnerName={partner.username} />
              ) : undefined
            }
          />
        </>
      )}
    </ConversationShell>
  );
}
