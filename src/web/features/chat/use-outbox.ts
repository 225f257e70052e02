import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { toast } from '#web/lib/toast.ts';
import type { ModerationMatch } from '#shared/rules/moderation.ts';
import type { SendMessageInput } from '#shared/schemas/chat.ts';
import { ApiError, errorMessage } from '#web/lib/api.ts';
import { sendMessage, upsertMessage } from './api.ts';
import type { SendOutcome } from './components/composer.tsx';
import type { PendingMessage } from './components/message-bubble.tsx';

type OutboxOptions = {
  receiverId: string;
  /** After a message is stored (the moment to ask for notification permission). */
  onSent?: () => void;
  /** A refusal other than moderation; by default the toast "Error sending message" with the reason. */
  onError?: (error: unknown) => void;
};

/**
 * Messages on their way to one receiver: shown at once as pending bubbles, sent with retries, replaced by the stored
 * message when acknowledged, and offered for "Retry" when they fail.
 */
export function useOutbox({ receiverId, onSent, onError }: OutboxOptions) {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<PendingMessage[]>([]);
  const inputs = useRef(new Map<string, SendMessageInput>());

  const setStatus = (clientId: string, status: PendingMessage['status'] | null) =>
    setPending((current) =>
      status === null
        ? current.filter((message) => message.clientId !== clientId)
        : current.map((message) => (message.clientId === clientId ? { ...message, status } : message)),
    );

  const deliver = async (input: SendMessageInput, quiet = false): Promise<SendOutcome> => {
    try {
      const message = await sendMessage(input);
      upsertMessage(queryClient, message);
      setStatus(input.clientId, null);
      inputs.current.delete(input.clientId);
      onSent?.();
      return null;
    } catch (error) {
      if (error instanceof ApiError && error.code === 'MESSAGE_BLOCKED') {
        setStatus(input.clientId, null);
        inputs.current.delete(input.clientId);
        const matches = (error.details?.matches as ModerationMatch[] | undefined) ?? [];
        return { blocked: { message: error.message, matches } };
      }
      // A quiet send was refused before it left: the composer has said why, and there is nothing to retry.
      if (quiet) {
        inputs.current.delete(input.clientId);
        return { unsent: true };
      }
      setStatus(input.clientId, 'failed');
      if (onError) onError(error);
      else toast.error('Error sending message', { description: errorMessage(error) });
      return null;
    }
  };

  /** `quiet`: no pending bubble, for a text the composer expects the server to refuse (it is sent all the same). */
  const send = (
    input: { content: string; attachment?: { fileKey: string; originalFilename: string } },
    { quiet = false } = {},
  ) => {
    const clientId = crypto.randomUUID();
    const payload: SendMessageInput = { clientId, receiverId, ...input };
    inputs.current.set(clientId, payload);
    if (!quiet)
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
    return deliver(payload, quiet);
  };

  const retry = (clientId: string) => {
    const payload = inputs.current.get(clientId);
    if (!payload) return;
    setStatus(clientId, 'sending');
    void deliver(payload);
  };

  return { pending, send, retry };
}
