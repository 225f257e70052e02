import type { Role } from '#shared/constants.ts';
import { useNotificationLiveUpdates } from '#web/features/notifications/live-updates.ts';
import { useNewJobAlerts } from '#web/features/requests/live-updates.ts';
import { useRealtimeConnection } from '#web/lib/socket.ts';

/**
 * The app's one realtime socket while someone is signed in, and the updates that must arrive on every screen: each
 * feature keeps its own part of the cache current. Screens add their own events while they are shown.
 */
export function LiveUpdates({ userId, role }: { userId: string; role: Role }) {
  useRealtimeConnection(userId);
  useNotificationLiveUpdates();
  useNewJobAlerts(role);
  return null;
}
