import { useMutation } from '@tanstack/react-query';
import type { ContactMessageInput } from '#shared/schemas/contact.ts';
import { apiFetch } from '#web/lib/api.ts';

function sendContactMessage(input: ContactMessageInput) {
  return apiFetch<{ id: string }>('/api/contact', { method: 'POST', body: input });
}

export function useSendContactMessage() {
  return useMutation({ mutationFn: sendContactMessage });
}
