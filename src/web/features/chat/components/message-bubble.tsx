import { Check, CheckCheck, Clock } from 'lucide-react';
import type { ReactNode } from 'react';
import { messageTimeLabel } from '#shared/rules/date-labels.ts';
import type { ChatMessage } from '#shared/schemas/chat.ts';
import { cn } from '#web/lib/utils.ts';
import { AttachmentCard } from './attachment-card.tsx';
import { MeetingCard } from '#web/features/meetings/embeds.ts';

/** A message not yet acknowledged by the server, shown at once (optimistic). */
export type PendingMessage = {
  clientId: string;
  content: string;
  attachmentName: string | null;
  createdAt: string;
  /** `waiting`: kept on this device until the connection returns (features/chat/outbox.ts). */
  status: 'sending' | 'waiting' | 'failed';
};

/** The text with every case-insensitive occurrence of `query` in <mark> (as text nodes: never HTML). */
export function highlight(text: string, query: string): ReactNode {
  const needle = query.trim().toLowerCase();
  if (!needle) return text;
  const parts: ReactNode[] = [];
  const lower = text.toLowerCase();
  let from = 0;
  for (let index = lower.indexOf(needle); index !== -1; index = lower.indexOf(needle, from)) {
    if (index > from) parts.push(text.slice(from, index));
    parts.push(
      <mark key={index} className="rounded-sm bg-yellow-200 text-slate-950">
        {text.slice(index, index + needle.length)}
      </mark>,
    );
    from = index + needle.length;
  }
  parts.push(text.slice(from));
  return parts;
}

function Receipt({ message }: { message: Pick<ChatMessage, 'isDelivered' | 'isRead'> }) {
  if (message.isRead) {
    return (
      <span role="img" aria-label="Read" title="Read" className="inline-flex text-sky-200">
        <CheckCheck aria-hidden="true" className="size-4" />
      </span>
    );
  }
  if (message.isDelivered) {
    return (
      <span role="img" aria-label="Delivered" title="Delivered" className="inline-flex">
        <Check aria-hidden="true" className="size-4" />
      </span>
    );
  }
  return <span className="sr-only">Sent</span>;
}

type MessageBubbleProps = {
  message: ChatMessage;
  isOwn: boolean;
  searchQuery: string;
  displayName: string;
  userId: string;
  /** Replaces the plain text (Guru AI's replies render their own way). */
  body?: ReactNode;
};

export function MessageBubble({ message, isOwn, searchQuery, displayName, userId, body }: MessageBubbleProps) {
  return (
    <BubbleShell isOwn={isOwn} messageId={message.id}>
      {message.meeting && <MeetingCard meeting={message.meeting} displayName={displayName} userId={userId} />}
      {message.attachment && <AttachmentCard attachment={message.attachment} isOwn={isOwn} />}
      {message.isFileRemoved && <p className="text-sm italic opacity-80">File removed</p>}
      {body ??
        (message.content && !message.meeting && (
          <p className="text-[0.9375rem] leading-6 break-words whitespace-pre-wrap">
            {highlight(message.content, searchQuery)}
          </p>
        ))}
      <span
        className={cn(
          'flex items-center justify-end gap-1 text-xs',
          isOwn ? 'text-primary-foreground/80' : 'text-muted-foreground',
        )}
      >
        <time dateTime={message.createdAt} title={new Date(message.createdAt).toLocaleString()}>
          {messageTimeLabel(message.createdAt)}
        </time>
        {isOwn && <Receipt message={message} />}
      </span>
    </BubbleShell>
  );
}

export function PendingBubble({ message, onRetry }: { message: PendingMessage; onRetry: () => void }) {
  return (
    <BubbleShell isOwn>
      {message.attachmentName && <p className="text-sm font-medium">📎 {message.attachmentName}</p>}
      {message.content && (
        <p className="text-[0.9375rem] leading-6 break-words whitespace-pre-wrap">{message.content}</p>
      )}
      <span className="flex items-center justify-end gap-1 text-xs text-primary-foreground/80">
        {message.status === 'sending' ? (
          <span role="img" aria-label="Sending…" className="inline-flex">
            <Clock aria-hidden="true" className="size-3.5" />
          </span>
        ) : message.status === 'waiting' ? (
          <span className="inline-flex items-center gap-1">
            <Clock aria-hidden="true" className="size-3.5" />
            Waiting to send
          </span>
        ) : (
          <button type="button" onClick={onRetry} className="cursor-pointer font-semibold underline underline-offset-2">
            Not sent — Retry
          </button>
        )}
      </span>
    </BubbleShell>
  );
}

export function BubbleShell({
  isOwn,
  messageId,
  children,
}: {
  isOwn: boolean;
  messageId?: string;
  children: ReactNode;
}) {
  return (
    <li className={cn('flex', isOwn ? 'justify-end' : 'justify-start')} data-message-id={messageId}>
      <div
        className={cn(
          'flex max-w-[85%] flex-col gap-1 rounded-2xl px-3 py-2 shadow-xs sm:max-w-[70%]',
          isOwn ? 'rounded-br-sm bg-primary text-primary-foreground' : 'rounded-bl-sm bg-muted text-foreground',
        )}
      >
        {children}
      </div>
    </li>
  );
}
