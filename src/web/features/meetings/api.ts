import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChatMessage, CreateMeetingInput, MeetingJoin } from '#shared/schemas/chat.ts';
import { apiFetch } from '#web/lib/api.ts';
import { chatQueryKey, upsertMessage } from '#web/features/chat/api.ts';

// Video meetings, scheduled and cancelled in a chat room; a meeting arrives in the chat as the message that carries it.

function createMeeting({ roomId, input }: { roomId: string; input: CreateMeetingInput }) {
  return apiFetch<ChatMessage>(`/api/chat/rooms/${encodeURIComponent(roomId)}/meetings`, {
    method: 'POST',
    body: input,
  });
}

export function useCancelMeeting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (meetingId: string) =>
      apiFetch<unknown>(`/api/chat/meetings/${encodeURIComponent(meetingId)}/cancel`, { method: 'POST', body: {} }),
    // The meeting's message comes back as message:new with the meeting cancelled; refetch in case it is missed.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: chatQueryKey }),
  });
}

export function useCreateMeeting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createMeeting,
    onSuccess: (message) => upsertMessage(queryClient, message),
  });
}

/** Records the signed-in user's Join of a meeting; the card opens the meeting once it is recorded. */
export function useRecordMeetingJoin() {
  return useMutation({
    mutationFn: (meetingId: string) =>
      apiFetch<MeetingJoin>(`/api/chat/meetings/${encodeURIComponent(meetingId)}/join`, { method: 'POST', body: {} }),
  });
}
