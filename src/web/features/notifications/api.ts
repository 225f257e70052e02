import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NotificationList } from '#shared/schemas/notifications.ts';
import { apiFetch } from '#web/lib/api.ts';
import { pushSupport, subscribeToPush } from '#web/lib/web-push.ts';
import { toast } from '#web/lib/toast.ts';

export const notificationsQueryKey = ['notifications'] as const;

/** Polling refresh of the bell (SPEC.md §9). */
const NOTIFICATIONS_REFRESH_MS = 60_000;

function fetchNotifications({ signal }: { signal?: AbortSignal } = {}) {
  return apiFetch<NotificationList>('/api/notifications', { signal });
}

const notificationsQueryOptions = queryOptions({
  queryKey: notificationsQueryKey,
  queryFn: ({ signal }) => fetchNotifications({ signal }),
  refetchInterval: NOTIFICATIONS_REFRESH_MS,
});

export function useNotifications({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...notificationsQueryOptions, enabled });
}

export function markNotificationRead(id: string) {
  return apiFetch<unknown>(`/api/notifications/${encodeURIComponent(id)}/read`, { method: 'POST', body: {} });
}

export function markAllNotificationsRead() {
  return apiFetch<unknown>('/api/notifications/read-all', { method: 'POST', body: {} });
}

/** Marks one read at once in the cache (SPEC.md §4: optimistic), then on the server. */
export function useMarkNotificationRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markNotificationRead,
    onMutate: async (id) => {
      await queryClient.cancelQueries({ queryKey: notificationsQueryKey });
      const previous = queryClient.getQueryData<NotificationList>(notificationsQueryKey);
      if (previous) {
        const target = previous.notifications.find((item) => item.id === id);
        queryClient.setQueryData<NotificationList>(notificationsQueryKey, {
          notifications: previous.notifications.map((item) => (item.id === id ? { ...item, read: true } : item)),
          unreadCount: Math.max(0, previous.unreadCount - (target && !target.read ? 1 : 0)),
        });
      }
      return { previous };
    },
    onError: (_error, _id, context) => {
      if (context?.previous) queryClient.setQueryData(notificationsQueryKey, context.previous);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationsQueryKey }),
  });
}

export function useMarkAllNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markAllNotificationsRead,
    onMutate: async () => {
      await queryClient.cancelQueries({ queryKey: notificationsQueryKey });
      const previous = queryClient.getQueryData<NotificationList>(notificationsQueryKey);
      if (previous) {
        queryClient.setQueryData<NotificationList>(notificationsQueryKey, {
          notifications: previous.notifications.map((item) => ({ ...item, read: true })),
          unreadCount: 0,
        });
      }
      return { previous };
    },
    onError: (_error, _vars, context) => {
      if (context?.previous) queryClient.setQueryData(notificationsQueryKey, context.previous);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationsQueryKey }),
  });
}

/**
 * Turns pushes on for this browser: asks for permission, subscribes with the server's key, and has the server keep
 * the subscription. False when permission was not given.
 */
export async function turnOnPushHere() {
  const { publicKey } = await apiFetch<{ publicKey: string }>('/api/push/public-key');
  const subscription = await subscribeToPush(publicKey);
  if (!subscription) return false;
  await apiFetch<unknown>('/api/push/subscriptions', { method: 'POST', body: subscription });
  return true;
}

/** SPEC.md's words when the browser refuses notifications. */
export function toastNotificationsDisabled() {
  toast('Notifications Disabled', {
    description: 'Enable notifications to receive message alerts when the app is in background.',
    duration: 5000,
  });
}

// Once per page load, whichever screen offers it.
let hasOffered = false;

/**
 * After the user's first message (a moment they see why), asks once to push to this device: never on load, and not
 * again once answered (the browser remembers the answer; /settings/notifications turns it on later).
 */
export async function offerPushOnce() {
  if (hasOffered) return;
  hasOffered = true;
  const support = pushSupport();
  if (support === 'denied') return toastNotificationsDisabled();
  if (support !== 'default') return;
  const granted = await turnOnPushHere().catch(() => true);
  if (!granted) toastNotificationsDisabled();
}
