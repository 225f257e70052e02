import { useQueryClient } from '@tanstack/react-query';
import { useSocketEvent } from '#web/lib/socket.ts';
import { notificationsQueryKey } from './api.ts';

/** Keeps the notifications list current while signed in: a new notification or a new job adds a row to it. */
export function useNotificationLiveUpdates() {
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: notificationsQueryKey });
  useSocketEvent('notification:new', refresh);
  useSocketEvent('job:new', refresh);
}
