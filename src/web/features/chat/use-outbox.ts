import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useEffectEvent, useMemo, useSyncExternalStore } from 'react';
import { toast } from '#web/lib/toast.ts';
import type { ModerationMatch } from '#shared/rules/moderation.ts';
import type { SendMessageInput } from '#shared/schemas/chat.ts';
import { errorMessage } from '#web/lib/api.ts';
import { useSession } from '#web/lib/auth-client.ts';
import { deviceDb } from '#web/lib/device-db.ts';
import { sendMessage, upsertMessage } from './api.ts';
import type { SendOutcome } from './components/composer.tsx';
import type { PendingMessage } from './components/message-bubble.tsx';
import { Outbox, type OutboxEntry, type OutboxStore } from './outbox.ts';

/** The outbox in IndexedDB; a browser that keeps nothing still sends (the queue lives on in memory). */
const deviceStore: OutboxStore = {
  load: async (userId) =>
    (await deviceDb.all<OutboxEntry>('outbox').catch(() => [])).filter((entry) => entry.userId === userId),
  save: (entry) => deviceDb.put('outbox', entry.input.clientId, entry),
  remove: (clientId) => deviceDb.delete('outbox', clientId),
};

/** Whoever shows a receiver's conversation says a refusal their way; nobody showing it: the toast. */
const failureHandlers = new Map<string, (error: unknown) => void>();
const sayNotSent = (error: unknown) => toast.error('Error sending message', { description: errorMessage(error) });

let shared: Outbox | null = null;

/**
 * The signed-in person's outbox, one per tab: what an earlier page load left unsent is sent as soon as it is made,
 * and what waits for the connection goes when the browser is back online (the socket's reconnection also resumes it:
 * use-chat-screen.ts).
 */
export function outboxOf(userId: string, queryClient: QueryClient) {
  if (shared?.userId === userId) return shared;
  const outbox = new Outbox({
    userId,
    store: deviceStore,
    send: sendMessage,
    isOnline: () => navigator.onLine,
    onStored: (message) => upsertMessage(queryClient, message),
    onFailed: (entry, error) => (failureHandlers.get(entry.input.receiverId) ?? sayNotSent)(error),
  });
  shared = outbox;
  void outbox.restore();
  return outbox;
}

if (typeof window !== 'undefined') window.addEventListener('online', () => void shared?.resume());

type OutboxOptions = {
  receiverId: string;
  /** After a message is stored (the moment to ask for notification permission). */
  onSent?: () => void;
  /** A refusal other than moderation; by default the toast "Error sending message" with the reason. */
  onError?: (error: unknown) => void;
};

/**
 * Messages on their way to one receiver: shown at once as pending bubbles, kept on the device and sent in order
 * (after a reload too), replaced by the stored message when acknowledged, and offered for "Retry" when refused.
 */
export function useOutbox({ receiverId, onSent, onError }: OutboxOptions) {
  const queryClient = useQueryClient();
  const { user } = useSession();
  const outbox = user ? outboxOf(user.id, queryClient) : null;
  const entries = useSyncExternalStore(
    (listener) => outbox?.subscribe(listener) ?? (() => {}),
    () => outbox?.current ?? noEntries,
  );
  const pending = useMemo(
    () =>
      entries
        .filter((entry) => entry.input.receiverId === receiverId && !entry.quiet)
        .map((entry): PendingMessage => ({
          clientId: entry.input.clientId,
          content: entry.input.content,
          attachmentName: entry.input.attachment?.originalFilename ?? null,
          createdAt: entry.createdAt,
          status: entry.status,
        })),
    [entries, receiverId],
  );

  const sayFailure = useEffectEvent((error: unknown) => (onError ?? sayNotSent)(error));
  useEffect(() => {
    const handler = (error: unknown) => sayFailure(error);
    failureHandlers.set(receiverId, handler);
    return () => {
      if (failureHandlers.get(receiverId) === handler) failureHandlers.delete(receiverId);
    };
  }, [receiverId]);

  /** `quiet`: no pending bubble, for a text the composer expects the server to refuse (it is sent all the same). */
  const send = async (
    input: { content: string; attachment?: { fileKey: string; originalFilename: string } },
    { quiet = false } = {},
  ): Promise<SendOutcome> => {
    if (!outbox) return { unsent: true };
    const payload: SendMessageInput = { clientId: crypto.randomUUID(), receiverId, ...input };
    const settled = await outbox.enqueue(payload, { quiet });
    if ('stored' in settled) {
      onSent?.();
      return null;
    }
    if ('blocked' in settled) {
      const matches = (settled.blocked.details?.matches as ModerationMatch[] | undefined) ?? [];
      return { blocked: { message: settled.blocked.message, matches } };
    }
    return { unsent: true };
  };

  const retry = (clientId: string) => void outbox?.retry(clientId);

  return { pending, send, retry };
}

const noEntries: readonly OutboxEntry[] = [];
