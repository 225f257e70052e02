import { useEffect, useRef } from 'react';
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerEventName, ServerToClientEvents } from '#shared/realtime-events.ts';
import { queryClient } from './query-client.ts';

type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

// One connection per signed-in tab, opened by `useRealtimeConnection` and shared by every `useSocketEvent`.
let socket: AppSocket | null = null;
let userOfSocket: string | null = null;

/** The live socket, or null while signed out. */
export function getSocket() {
  return socket;
}

/** Opens the connection for this user (same origin, session cookie), or closes it when `userId` is null. */
export function connectSocket(userId: string | null) {
  if (userId === userOfSocket) return socket;
  socket?.disconnect();
  socket = null;
  delete document.documentElement.dataset.realtime;
  userOfSocket = userId;
  if (!userId) return null;
  const next: AppSocket = io({ withCredentials: true, transports: ['websocket', 'polling'], autoConnect: false });
  // Events only keep the cache current: after a gap anything may have changed, so refetch what is shown.
  next.io.on('reconnect', () => void queryClient.invalidateQueries());
  // The connection state on <html data-realtime>: for styling and for tests that wait for live updates.
  next.on('connect', () => {
    document.documentElement.dataset.realtime = 'connected';
    reportVisibility(next);
  });
  next.on('disconnect', () => (document.documentElement.dataset.realtime = 'disconnected'));
  socket = next;
  listeners.forEach((listener) => listener(next));
  // Opening the connection is a good few milliseconds of a phone's time: not in the task that shows the page.
  setTimeout(() => {
    if (socket === next) next.connect();
  });
  return next;
}

/** Tells the server whether this tab is shown: pushes wait while one of the user's tabs is. */
function reportVisibility(target: AppSocket) {
  if (target.connected) target.emit('tab:visibility', document.visibilityState === 'visible');
}
if (typeof document !== 'undefined') {
  document.addEventListener('visibilitychange', () => {
    if (socket) reportVisibility(socket);
  });
}

const listeners = new Set<(socket: AppSocket) => void>();

/** Keeps one socket open while `userId` is set (mount once, in the layout). */
export function useRealtimeConnection(userId: string | null) {
  useEffect(() => {
    connectSocket(userId);
  }, [userId]);
  useEffect(() => () => void connectSocket(null), []);
}

/** Calls `handler` for every `event` from the server while mounted; the latest handler is used. */
export function useSocketEvent<E extends ServerEventName>(event: E, handler: ServerToClientEvents[E]) {
  const handlerRef = useRef(handler);
  useEffect(() => {
    handlerRef.current = handler;
  });
  useEffect(() => {
    const listener = ((...args: unknown[]) => (handlerRef.current as (...a: unknown[]) => void)(...args)) as never;
    let current: AppSocket | null = null;
    const attach = (next: AppSocket) => {
      current?.off(event, listener);
      current = next;
      next.on(event, listener);
    };
    if (socket) attach(socket);
    listeners.add(attach);
    return () => {
      listeners.delete(attach);
      current?.off(event, listener);
    };
  }, [event]);
}
