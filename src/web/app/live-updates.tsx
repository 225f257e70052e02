import type { Role } from '#shared/constants.ts';
import { useNotificationLiveUpdates } from '#web/features/notifications/live-updates.ts';
import { useNewJobAlerts } from '#web/features/requests/live-updates.ts';
import { recheckEndedSession } from '#web/lib/auth-client.ts';
import { useRealtimeConnection, useSocketEvent } from '#web/lib/socket.ts';

/**
 * The app's one realtime socket while someone is signed in, and the updates that must arrive on every screen: each
 * feature keeps its own part of the cache current. Screens add their own events while they are shown.
 */
export function LiveUpdates({ userId, role }: { userId: string; role: Role }) {
  useRealtimeConnection(userId);
  // Signed out on another device, revoked or expired: the server says so before closing the socket, and the page asks
  // for its session again at once rather than showing itself signed in until its next refused request.
  useSocketEvent('session:ended', () => void recheckEndedSession());
  useNotificationLiveUpdates();
  useNewJobAlerts(role);
  return null;
}
