import { CloudOff, RefreshCw } from 'lucide-react';
import { useEffect, useState } from 'react';
import { connectSocket, getSocket } from '#web/lib/socket.ts';

// The connection's state above the chat, said calmly: only once it has lasted a moment (a blip shows nothing), in a
// polite live region that is always on the page so that screen readers hear it change.

/** A state shorter than this is not shown. */
const SHOW_AFTER_MS = 2_000;

type ConnectionState = 'online' | 'offline' | 'reconnecting';

const notices: Record<Exclude<ConnectionState, 'online'>, string> = {
  offline: 'Offline — messages will be sent when you’re back online',
  reconnecting: 'Reconnecting…',
};

/** The browser's network and the chat's socket, as one state. */
function useConnectionState(userId: string): ConnectionState {
  const [isOnline, setOnline] = useState(() => navigator.onLine);
  // No socket yet: it is being opened now, and counts as connected until it says otherwise.
  const [isConnected, setConnected] = useState(() => getSocket()?.connected ?? true);
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    const socket = connectSocket(userId);
    const onConnect = () => setConnected(true);
    const onDisconnect = () => setConnected(false);
    if (socket) {
      socket.on('connect', onConnect);
      socket.on('disconnect', onDisconnect);
      socket.on('connect_error', onDisconnect);
    }
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
      socket?.off('connect', onConnect);
      socket?.off('disconnect', onDisconnect);
      socket?.off('connect_error', onDisconnect);
    };
  }, [userId]);
  return !isOnline ? 'offline' : isConnected ? 'online' : 'reconnecting';
}

export function ConnectionStatus({ userId }: { userId: string }) {
  const state = useConnectionState(userId);
  // The state that has lasted: a change away from online is shown after a moment, the way back at once.
  const [lasting, setLasting] = useState<ConnectionState>('online');
  useEffect(() => {
    const timer = setTimeout(() => setLasting(state), state === 'online' ? 0 : SHOW_AFTER_MS);
    return () => clearTimeout(timer);
  }, [state]);
  const shown = state !== 'online' && lasting === state ? state : 'online';
  const Icon = shown === 'offline' ? CloudOff : RefreshCw;
  return (
    <div role="status" aria-live="polite" className="empty:hidden">
      {shown !== 'online' && (
        <p className="flex items-center justify-center gap-2 border-b bg-muted px-3 py-1.5 text-center text-sm text-muted-foreground">
          <Icon aria-hidden="true" className="size-4 shrink-0" />
          {notices[shown]}
        </p>
      )}
    </div>
  );
}
