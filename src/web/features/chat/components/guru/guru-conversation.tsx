import { Eraser } from 'lucide-react';
import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from '#web/lib/toast.ts';
import { AI_USER_ID, AI_USER_NAME } from '#shared/constants.ts';
import { paths } from '#shared/paths.ts';
import { buildRequestDraft } from '#shared/rules/guru-request-draft.ts';
import type { ChatMessage } from '#shared/schemas/chat.ts';
import { guruMessages, parseGuruReply } from '#shared/schemas/guru.ts';
import { DropdownMenuItem } from '#web/components/ui/dropdown-menu.tsx';
import { ApiError } from '#web/lib/api.ts';
import type { SessionUser } from '#web/lib/auth-client.ts';
import { useSocketEvent } from '#web/lib/socket.ts';
import { useSubjects } from '#web/lib/subjects.ts';
import { useClearGuruChat, useGuruMessages } from '../../api.ts';
import { draftKey } from '../../use-draft.ts';
import { useOutbox } from '../../use-outbox.ts';
import { Composer } from '../composer.tsx';
import { ConversationShell } from '../conversation-shell.tsx';
import { BubbleShell } from '../message-bubble.tsx';
import { MessageList } from '../message-list.tsx';
import { GuruAvatar } from './guru-avatar.tsx';
import { GuruMarkdown, GuruReply } from './guru-reply.tsx';

// The conversation with Guru AI (loaded on demand, with the Markdown and KaTeX it needs): questions go as chat
// messages to the AI user; the reply is typed (guru:typing), may stream in (guru:delta), then arrives as a message.

const [botErrorTitle, botErrorDescription] = guruMessages.botError.split(' - ') as [string, string];
const showBotError = () => toast.error(botErrorTitle, { description: botErrorDescription });

function TypingIndicator() {
  return (
    <BubbleShell isOwn={false}>
      <span role="status" className="flex items-center gap-1 py-1" aria-label="Guru AI is typing">
        {['[animation-delay:0ms]', '[animation-delay:150ms]', '[animation-delay:300ms]'].map((delay) => (
          <span
            key={delay}
            aria-hidden="true"
            className={`size-2 animate-bounce rounded-full bg-muted-foreground/70 ${delay}`}
          />
        ))}
      </span>
    </BubbleShell>
  );
}

type GuruConversationProps = { user: SessionUser; onBack: () => void };

export function GuruConversation({ user, onBack }: GuruConversationProps) {
  const navigate = useNavigate();
  const messages = useGuruMessages();
  const clearChat = useClearGuruChat();
  const { data: subjects = [] } = useSubjects();
  const [isTyping, setTyping] = useState(false);
  const [streamed, setStreamed] = useState('');

  const { pending, send, retry } = useOutbox({
    receiverId: AI_USER_ID,
    // The limits' and the busy answer's messages are friendly as they are; anything else is SPEC.md's "Error from
    // Guru Bot".
    onError: (error) =>
      error instanceof ApiError && (error.status === 429 || error.status === 503)
        ? toast.warning(error.message, { id: 'guru-limit' })
        : showBotError(),
  });

  useSocketEvent('guru:typing', ({ isTyping: typing }) => {
    setTyping(typing);
    if (!typing) setStreamed('');
  });
  useSocketEvent('guru:delta', ({ text }) => setStreamed((current) => current + text));
  useSocketEvent('guru:error', showBotError);

  const askTutor = useCallback(
    (reply: string, earlier: readonly ChatMessage[]) => {
      const question = earlier.findLast((message) => message.senderId === user.id);
      const attachment = question?.attachment;
      const draft = buildRequestDraft({
        question: question?.content ?? '',
        reply,
        photo: attachment?.fileType.startsWith('image/')
          ? { url: attachment.url, originalFilename: attachment.originalFilename }
          : null,
        subjectNames: subjects.map((subject) => subject.name),
      });
      void navigate(paths.student.posts.getHref(), { state: { requestDraft: draft } });
    },
    [navigate, subjects, user.id],
  );

  const onClear = () =>
    clearChat.mutate(undefined, {
      onSuccess: () => toast.success(guruMessages.cleared),
      onError: () => toast.error(guruMessages.clearFailed),
    });

  return (
    <ConversationShell
      title={AI_USER_NAME}
      subtitle="Study assistant"
      avatar={<GuruAvatar />}
      menuItems={
        <DropdownMenuItem onSelect={onClear} disabled={clearChat.isPending}>
          <Eraser aria-hidden="true" />
          Clear chat
        </DropdownMenuItem>
      }
      onBack={onBack}
    >
      {(searchQuery) => (
        <>
          <MessageList
            query={messages}
            conversationId={AI_USER_ID}
            userId={user.id}
            displayName={user.username || user.email}
            searchQuery={searchQuery}
            pending={pending}
            onRetry={retry}
            emptyText="Ask Guru AI about your homework: equations, derivatives, percentages, or a photo of the problem."
            searchableText={(message) =>
              message.senderId === AI_USER_ID ? parseGuruReply(message.content).reply : message.content
            }
            renderPartnerMessage={(message, earlier) => (
              <GuruReply content={message.content} onAskTutor={(reply) => askTutor(reply, earlier)} />
            )}
            footer={
              streamed ? (
                <BubbleShell isOwn={false}>
                  <GuruMarkdown text={streamed} />
                </BubbleShell>
              ) : isTyping ? (
                <TypingIndicator />
              ) : null
            }
          />
          <Composer
            onSend={send}
            placeholder="Ask the AI a question..."
            isModerated={false}
            draftKey={draftKey(user.id, AI_USER_ID)}
          />
        </>
      )}
    </ConversationShell>
  );
}
