import { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyBaseLogger } from 'fastify';
import { createClient } from 'redis';
import type { Server } from 'socket.io';

// Commands are refused at once while the connection is down instead of queuing (see below).
const createPublisher = (url: string) => createClient({ url, disableOfflineQueue: true });
type RedisClient = ReturnType<typeof createPublisher>;

/**
 * Fans Socket.IO out through Redis. Redis may go away at any time (a restart, a fail-over); the process must not.
 * Commands are refused at once while the connection is down instead of queuing (a queue grows without bound
 * and rejects late, long after the request that caused it); each client reconnects by itself and the
 * subscriber subscribes again. What is published meanwhile is lost to the other nodes, which re-check their
 * sockets' sessions once the bus is back (see session-checks.ts); messages themselves are in the database.
 */
export async function attachRedisFanOut(io: Server, url: string, log: FastifyBaseLogger) {
  const publisher = createPublisher(url);
  const subscriber = publisher.duplicate();
  for (const [role, client] of [
    ['publisher', publisher],
    ['subscriber', subscriber],
  ] as const) {
    // Logged once per outage: the client retries every few seconds and each failed attempt is an error.
    let down = false;
    client.on('error', (error) => {
      if (!down) log.error({ err: error }, `redis ${role} connection lost; reconnecting`);
      down = true;
    });
    client.on('ready', () => {
      if (down) log.info(`redis ${role} connection back`);
      down = false;
    });
  }
  await Promise.all([publisher.connect(), subscriber.connect()]);
  io.adapter(createAdapter(neverRejectingPublisher(publisher, log), subscriber));
  return {
    connected: () => publisher.isReady && subscriber.isReady,
    close: async () => {
      await Promise.all([publisher.close(), subscriber.close()]);
    },
  };
}

/**
 * The publishing client as the adapter sees it. The adapter calls `publish` without handling its promise, so a
 * publish refused while Redis is down would be an unhandled rejection, which ends the process: here it settles,
 * and the first failure of each outage is logged. Everything else is the client itself (bound to it: it keeps
 * private fields).
 */
function neverRejectingPublisher(publisher: RedisClient, log: FastifyBaseLogger): RedisClient {
  let failing = false;
  publisher.on('ready', () => (failing = false));
  const publish = (...args: Parameters<RedisClient['publish']>) =>
    publisher.publish(...args).catch((error: unknown) => {
      if (!failing) log.warn({ err: error }, 'realtime events are not reaching the other nodes until redis is back');
      failing = true;
      return 0;
    });
  return new Proxy(publisher, {
    get(target, property) {
      if (property === 'publish') return publish;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
