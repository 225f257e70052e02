import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NotificationSettings, UpdateNotificationSettingsInput } from '#shared/schemas/notification-settings.ts';
import type { PushDeviceList } from '#shared/schemas/push.ts';
import { apiFetch } from '#web/lib/api.ts';
import { currentPushSubscription, unsubscribeFromPush } from '#web/lib/web-push.ts';
import { turnOnPushHere } from './api.ts';

const settingsQueryKey = ['notification-settings'] as const;
const pushDevicesQueryKey = ['notification-settings', 'push-devices'] as const;

export function useNotificationSettings() {
  return useQuery(
    queryOptions({
      queryKey: settingsQueryKey,
      queryFn: ({ signal }) => apiFetch<NotificationSettings>('/api/notifications/settings', { signal }),
    }),
  );
}

export function useUpdateNotificationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateNotificationSettingsInput) =>
      apiFetch<NotificationSettings>('/api/notifications/settings', { method: 'PATCH', body: input }),
    onSuccess: (settings) => queryClient.setQueryData(settingsQueryKey, settings),
  });
}

/** The user's devices with push, and which of them is this browser (by its subscription's endpoint). */
export function usePushDevices() {
  return useQuery(
    queryOptions({
      queryKey: pushDevicesQueryKey,
      queryFn: async ({ signal }) => {
        const [list, subscription] = await Promise.all([
          apiFetch<PushDeviceList>('/api/push/subscriptions', { signal }),
          currentPushSubscription().catch(() => null),
        ]);
        const thisDevice = list.devices.find((device) => device.endpoint === subscription?.endpoint) ?? null;
        return { devices: list.devices, thisDeviceId: thisDevice?.id ?? null };
      },
    }),
  );
}

/** Turns pushes on for this browser: permission, subscription, kept by the server. False when permission was refused. */
export function useTurnOnPush() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: turnOnPushHere,
    onSettled: () => queryClient.invalidateQueries({ queryKey: pushDevicesQueryKey }),
  });
}

/** Forgets a device's pushes; this browser's own subscription is ended too. */
export function useRemovePushDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, isThisDevice }: { id: string; isThisDevice: boolean }) => {
      await apiFetch<null>(`/api/push/subscriptions/${encodeURIComponent(id)}`, { method: 'DELETE' });
      if (isThisDevice) await unsubscribeFromPush();
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: pushDevicesQueryKey }),
  });
}
