import { ArrowDown, RotateCw } from 'lucide-react';
import { Fragment, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { differenceInCalendarDays } from 'date-fns';
import { dateSeparatorLabel } from '#shared/rules/date-labels.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import type { ChatMessage, MessagePage } from '#shared/schemas/chat.ts';
import { flattenMessages } from '../api.ts';
import { MessageBubble, PendingBubble, type PendingMessage } from './message-bubble.tsx';

/** SPEC.md §9: the scroll-to-bottom button shows when more than 100 px from the bottom. */
const BOTTOM_THRESHOLD_PX = 100;
/** Older messages load when the view comes this close to the top. */
const TOP_THRESHOLD_PX = 120;

type MessageListProps = {
  /** The conversation's pages (a room's, or Guru AI's). */
  query: UseInfiniteQueryResult<InfiniteData<MessagePage>>;
  /** Changes when another conversation opens: the view starts again at its newest message. */
  conversationId: string;
  userId: string;
  displayName: string;
  searchQuery: string;
  pending: PendingMessage[];
  onRetry: (clientId: string) => void;
  /** The body of a partner's message instead of its plain text (Guru AI's replies), given the messages before it. */
  renderPartnerMessage?: ((message: ChatMessage, earlier: readonly ChatMessage[]) => ReactNode) | undefined;
  /** The text the message search looks in; the content by default. */
  searchableText?: (message: ChatMessage) => string;
  /** Shown after the last message (Guru AI typing, or its reply as it streams in). */
  footer?: ReactNode;
  emptyText?: string;
};

export function MessageList({
  query,
  conversationId,
  userId,
  displayName,
  searchQuery,
  pending,
  onRetry,
  renderPartnerMessage,
  searchableText = (message) => message.content,
  footer,
  emptyText = 'No messages yet. Say hello!',
}: MessageListProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const [isAwayFromBottom, setAwayFromBottom] = useState(false);
  // Distance from the bottom before older messages were prepended, to put the view back where it was.
  const restoreFromBottom = useRef<number | null>(null);
  const wasNearBottom = useRef(true);
  const lastKey = useRef<string | null>(null);

  const all = flattenMessages(query.data);
  const pendingShown = pending.filter((local) => !all.some((message) => message.clientId === local.clientId));
  const needle = searchQuery.trim().toLowerCase();
  const messages = needle ? all.filter((message) => searchableText(message).toLowerCase().includes(needle)) : all;
  const lastMessage = all.at(-1);
  const newestKey = pendingShown.at(-1)?.clientId ?? lastMessage?.id ?? null;
  const pageCount = query.data?.pages.length ?? 0;

  const distanceFromBottom = () => {
    const element = scrollRef.current;
    return element ? element.scrollHeight - element.scrollTop - element.clientHeight : 0;
  };
  const scrollToBottom = (behavior: ScrollBehavior = 'auto') => {
    const element = scrollRef.current;
    if (element) element.scrollTo({ top: element.scrollHeight, behavior });
  };

  // Older page arrived: keep the same messages under the reader's eyes.
  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (!element || restoreFromBottom.current === null) return;
    element.scrollTop = element.scrollHeight - element.clientHeight - restoreFromBottom.current;
    restoreFromBottom.current = null;
  }, [pageCount]);

  // A new message at the end: follow it when the reader was near the bottom or sent it.
  useLayoutEffect(() => {
    if (!newestKey || newestKey === lastKey.current) return;
    const isFirst = lastKey.current === null;
    lastKey.current = newestKey;
    const isOwn = pendingShown.length > 0 || lastMessage?.senderId === userId;
    if (isFirst || wasNearBottom.current || isOwn) scrollToBottom();
  });

  // Content that grows later (images loading) keeps a reader at the bottom there.
  const listRef = useRef<HTMLOListElement>(null);
  const hasList = messages.length + pendingShown.length > 0;
  useEffect(() => {
    const list = listRef.current;
    if (!list || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (wasNearBottom.current && restoreFromBottom.current === null) scrollToBottom();
    });
    observer.observe(list);
    return () => observer.disconnect();
  }, [hasList, query.isPending]);

  // Opening another room starts at its newest message.
  useEffect(() => {
    lastKey.current = null;
    wasNearBottom.current = true;
  }, [conversationId]);

  const onScroll = () => {
    const element = scrollRef.current;
    if (!element) return;
    const distance = distanceFromBottom();
    wasNearBottom.current = distance <= BOTTOM_THRESHOLD_PX;
    setAwayFromBottom(distance > BOTTOM_THRESHOLD_PX);
    if (element.scrollTop < TOP_THRESHOLD_PX && query.hasNextPage && !query.isFetchingNextPage) {
      restoreFromBottom.current = distance;
      void query.fetchNextPage();
    }
  };

  if (query.isPending) {
    return (
      <div role="status" aria-busy="true" aria-label="Loading messages" className="flex flex-1 flex-col gap-3 p-4">
        <Skeleton className="h-10 w-1/2" />
        <Skeleton className="h-10 w-2/5 self-end" />
        <Skeleton className="h-16 w-3/5" />
      </div>
    );
  }
  if (query.isError) {
    return (
      <div role="alert" className="flex flex-1 flex-col items-center justify-center gap-3 p-6 text-center">
        <p className="font-semibold">Error fetching messages</p>
        <Button variant="outline" size="sm" onClick={() => void query.refetch()}>
          <RotateCw aria-hidden="true" />
          Retry
        </Button>
      </div>
    );
  }

  return (
    <div className="relative flex min-h-0 flex-1 flex-col">
      <div
        ref={scrollRef}
        onScroll={onScroll}
        className="min-h-0 flex-1 overflow-y-auto px-3 py-4 focus-visible:-outline-offset-2 sm:px-5"
        data-testid="message-scroller"
        // Reachable by Tab, so that the arrow keys scroll the history of a conversation that has nothing to press.
        role="region"
        aria-label="Message history"
        tabIndex={0}
      >
        {query.isFetchingNextPage && (
          <div className="flex justify-center pb-3">
            <Spinner label="Loading older messages" />
          </div>
        )}
        {messages.length === 0 && pendingShown.length === 0 && !footer ? (
          <p className="py-10 text-center text-sm text-muted-foreground">
            {needle ? 'No messages match your search.' : emptyText}
          </p>
        ) : (
          <ol ref={listRef} aria-label="Messages" className="flex flex-col gap-2">
            {messages.map((message, index) => {
              const previous = messages[index - 1];
              const newDay =
                !previous || differenceInCalendarDays(new Date(message.createdAt), new Date(previous.createdAt)) !== 0;
              return (
                <Fragment key={message.id}>
                  {newDay && <DateSeparator date={message.createdAt} />}
                  <MessageBubble
                    message={message}
                    isOwn={message.senderId === userId}
                    searchQuery={searchQuery}
                    displayName={displayName}
                    userId={userId}
                    body={
                      message.senderId !== userId && renderPartnerMessage
                        ? renderPartnerMessage(message, all.slice(0, all.indexOf(message)))
                        : undefined
                    }
                  />
                </Fragment>
              );
            })}
            {!needle &&
              pendingShown.map((local) => (
                <PendingBubble key={local.clientId} message={local} onRetry={() => onRetry(local.clientId)} />
              ))}
            {!needle && footer}
          </ol>
        )}
      </div>
      {isAwayFromBottom && (
        <Button
          size="icon"
          variant="secondary"
          className="absolute right-4 bottom-4 rounded-full shadow-md"
          aria-label="Scroll to latest messages"
          onClick={() => scrollToBottom('smooth')}
        >
          <ArrowDown aria-hidden="true" />
        </Button>
      )}
    </div>
  );
}

function DateSeparator({ date }: { date: string }) {
  return (
    <li className="my-2 flex items-center gap-3 text-xs font-medium text-muted-foreground">
      <span className="h-px flex-1 bg-border" />
      {dateSeparatorLabel(date)}
      <span className="h-px flex-1 bg-border" />
    </li>
  );
}
