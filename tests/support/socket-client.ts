import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '#shared/realtime-events.ts';

export type TestSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** A real Socket.IO client over WebSocket, signed in with the given Cookie header; resolves once connected. */
export function connectSocket(url: string, options: { cookie?: string; origin?: string } = {}) {
  const socket: TestSocket = io(url, {
    transports: ['websocket'],
    reconnection: false,
    extraHeaders: {
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...(options.origin ? { origin: options.origin } : {}),
    },
  });
  return new Promise<TestSocket>((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (error) => {
      socket.close();
      reject(error);
    });
  });
}

/** Resolves with the arguments of the next `event` on the socket, or rejects after the timeout. */
export function nextEvent<E extends keyof ServerToClientEvents>(socket: TestSocket, event: E, timeoutMs = 5_000) {
  return new Promise<Parameters<ServerToClientEvents[E]>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`No ${event} within ${timeoutMs} ms`)), timeoutMs);
    socket.once(event, ((...args: Parameters<ServerToClientEvents[E]>) => {
      clearTimeout(timer);
      resolve(args);
    }) as never);
  });
}
