import type { Server as HttpServer } from 'node:http';
import { createAdapter as createPostgresAdapter } from '@socket.io/postgres-adapter';
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import { Server, type Socket } from 'socket.io';
import type { ClientToServerEvents, ServerToClientEvents } from '#shared/realtime-events.ts';
import type { Config } from '../../config.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { toHeaders, type SessionResolver, type SessionUser } from '../../http/session.ts';
import { attachRedisFanOut } from './redis-fan-out.ts';
import { SOCKET_SESSION_CHECK_MS, startSessionChecks } from './session-checks.ts';

type SocketData = { user: SessionUser; sessionId: string };
/** An event for some users' sockets, as one node passes it to the others. */
type UsersEvent = [userIds: string[], event: keyof ServerToClientEvents, args: unknown[]];
/**
 * Between server nodes: a session ended, each node closes its own sockets of it; events for users, in order, each
 * node emits them to its own sockets of them (the sending node has already emitted them to its own).
 */
type InterServerEvents = {
  'session:end': (sessionId: string) => void;
  'users:emit': (events: UsersEvent[]) => void;
};
type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
type RealtimeSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

const userRoom = (userId: string) => `user:${userId}`;
const sessionRoom = (sessionId: string) => `session:${sessionId}`;

export type Realtime = {
  io: RealtimeServer;
  /** Emits to every socket of these users, on every server node. Call only after the change is committed. */
  toUsers<E extends keyof ServerToClientEvents>(
    userIds: string[],
    event: E,
    ...args: Parameters<ServerToClientEvents[E]>
  ): void;
  /** Tells the sockets of an ended session so, then disconnects them (on every node). */
  endSession(sessionId: string): void;
  /** Runs on every node for each ended session, before its sockets on that node are told. */
  onSessionEnded(handler: (sessionId: string) => void): void;
  /** Runs when the fan-out is back after an outage: notices of ended sessions may have been lost meanwhile. */
  onFanOutBack(handler: () => void): void;
  /** Runs for every authenticated socket of this node: features attach their client-to-server handlers here. */
  onConnection(handler: (socket: RealtimeSocket) => void): void;
  /** Whether events reach the other nodes now: `reconnecting` while the fan-out connection is lost. */
  fanOut(): FanOutState;
  /**
   * Ends every socket's connection without Socket.IO's disconnect (after which a client would stay away), so each
   * client reconnects by itself, through the proxy to another node, and refetches what it missed.
   */
  reconnectElsewhere(): void;
  close(): Promise<void>;
};

export type FanOutState = 'up' | 'reconnecting' | 'single-node';

/**
 * Socket.IO on the app's HTTP server. The handshake must come from our own origin and carry a valid session
 * cookie; each socket joins a room for its user. Across nodes, rooms fan out through Redis (REDIS_URL) or
 * PostgreSQL (DATABASE_URL); one node with the embedded database keeps them in memory.
 */
export async function createRealtime(options: {
  server: HttpServer;
  resolveSession: SessionResolver;
  /** Origins whose pages may open a socket (ours). */
  allowedOrigins: string[];
  config: Config;
  database: DatabaseHandle;
  log: FastifyBaseLogger;
  /** How often each socket's session is looked up again (SOCKET_SESSION_CHECK_MS unless a test shortens it). */
  sessionCheckMs?: number;
}): Promise<Realtime> {
  const { resolveSession, config, database, log } = options;
  const trustedOrigins = new Set(options.allowedOrigins);

  const io: RealtimeServer = new Server(options.server, {
    serveClient: false,
    // Browsers always send Origin on a WebSocket or cross-origin request: refuse other sites (socket hijacking).
    allowRequest: (request, callback) => {
      const origin = request.headers.origin;
      callback(null, origin === undefined || trustedOrigins.has(origin));
    },
  });

  const { close: closeAdapter, clustered, connected } = await attachAdapter(io, config, database, log);

  // Each node tells its own sockets and then closes them: on one connection the notice is sure to arrive first
  // (a broadcast through the adapter could be overtaken by the disconnect).
  const sessionEndedHandlers: Array<(sessionId: string) => void> = [];
  const endSocket = (socket: { emit(event: 'session:ended'): unknown; disconnect(): unknown }) => {
    socket.emit('session:ended');
    socket.disconnect();
  };
  const endLocalSession = async (sessionId: string) => {
    for (const handler of sessionEndedHandlers) handler(sessionId);
    for (const socket of await io.local.in(sessionRoom(sessionId)).fetchSockets()) endSocket(socket);
  };
  io.on('session:end', (sessionId) => void endLocalSession(sessionId));
  const emitLocally = ([userIds, event, args]: UsersEvent) => {
    io.local.to(userIds.map(userRoom)).emit(event, ...(args as Parameters<ServerToClientEvents[typeof event]>));
  };
  io.on('users:emit', (events) => events.forEach(emitLocally));
  // The events of one tick go to the other nodes together: one NOTIFY (or Redis publish) for many messages.
  let forOtherNodes: UsersEvent[] = [];
  const passOn = () => {
    if (forOtherNodes.length === 0) return;
    io.serverSideEmit('users:emit', forOtherNodes);
    forOtherNodes = [];
  };

  io.use(async (socket, next) => {
    try {
      const result = await resolveSession(toHeaders(socket.request.headers));
      if (!result) return next(new Error('UNAUTHENTICATED'));
      socket.data.user = result.user;
      socket.data.sessionId = result.sessionId;
      await socket.join([userRoom(result.user.id), sessionRoom(result.sessionId)]);
      next();
    } catch (error) {
      log.warn({ err: error }, 'socket handshake failed');
      next(new Error('UNAUTHENTICATED'));
    }
  });

  const connectionHandlers: Array<(socket: RealtimeSocket) => void> = [];
  io.on('connection', (socket) => {
    for (const handler of connectionHandlers) handler(socket);
  });

  const fanOutBackHandlers: Array<() => void> = [];
  const sessionChecks = startSessionChecks({
    sockets: () => io.of('/').sockets.values(),
    resolveSession,
    fanOutUp: connected,
    onFanOutBack: () => fanOutBackHandlers.forEach((handler) => handler()),
    endSocket,
    intervalMs: options.sessionCheckMs ?? SOCKET_SESSION_CHECK_MS,
    log,
  });

  return {
    io,
    onConnection(handler) {
      connectionHandlers.push(handler);
    },
    onSessionEnded(handler) {
      sessionEndedHandlers.push(handler);
    },
    onFanOutBack(handler) {
      fanOutBackHandlers.push(handler);
    },
    fanOut() {
      if (!clustered) return 'single-node';
      return connected() ? 'up' : 'reconnecting';
    },
    toUsers(userIds, event, ...args) {
      if (userIds.length === 0) return;
      // This node's sockets first and at once: a broadcast through the PostgreSQL adapter would deliver locally only
      // after its NOTIFY round trip; the other nodes are told without waiting.
      const usersEvent: UsersEvent = [userIds, event, args];
      emitLocally(usersEvent);
      if (!clustered) return;
      if (forOtherNodes.length === 0) setImmediate(passOn);
      forOtherNodes.push(usersEvent);
    },
    endSession(sessionId) {
      void endLocalSession(sessionId);
      if (clustered) io.serverSideEmit('session:end', sessionId);
    },
    reconnectElsewhere() {
      passOn();
      for (const socket of io.of('/').sockets.values()) socket.conn.close();
    },
    async close() {
      passOn();
      await sessionChecks.stop();
      await new Promise<void>((resolve) => io.close(() => resolve()));
      await closeAdapter();
    },
  };
}

async function attachAdapter(io: RealtimeServer, config: Config, database: DatabaseHandle, log: FastifyBaseLogger) {
  if (config.redisUrl) return { clustered: true, ...(await attachRedisFanOut(io, config.redisUrl, log)) };
  // LISTEN/NOTIFY does not cross the embedded database's socket, so only a real server fans out.
  // Its socket_io_attachments table (large payloads) comes with the migrations (db/schema/realtime.ts).
  if (database.kind === 'postgres') {
    io.adapter(
      createPostgresAdapter(listenerPool(database.pool, log), {
        errorHandler: (error) => log.error({ err: error }, 'realtime adapter error'),
      }),
    );
    await untilListening(io);
    return { clustered: true, connected: () => listenerClient(io) !== undefined, close: async () => undefined };
  }
  return { clustered: false, connected: () => true, close: async () => undefined };
}

/**
 * The pool as the PostgreSQL adapter sees it. The adapter keeps one client checked out for LISTEN and
 * reconnects when it ends, but attaches no `error` listener (an unhandled `error` ends the process) and never
 * hands the dead client back (each loss would shrink the pool by one). This gives its client both.
 */
function listenerPool(pool: pg.Pool, log: FastifyBaseLogger): pg.Pool {
  const connect = async () => {
    const client = await pool.connect();
    const release = client.release.bind(client);
    let released = false;
    // Once only: pg throws on a second release, and the adapter releases its client again on shutdown.
    const releaseOnce = (destroy?: Error | boolean) => {
      if (released) return;
      released = true;
      release(destroy);
    };
    client.release = releaseOnce;
    const releaseDead = (error?: Error) => {
      if (released) return;
      log.warn({ err: error }, 'realtime listener connection lost; reconnecting');
      releaseOnce(error ?? true);
    };
    client.on('error', releaseDead);
    client.on('end', () => releaseDead());
    return client;
  };
  // The adapter calls only connect() and query().
  return { connect, query: pool.query.bind(pool) } as unknown as pg.Pool;
}

/** The PostgreSQL adapter's LISTEN client, undefined while it has none (the adapter's own state). */
function listenerClient(io: RealtimeServer) {
  return (io.of('/').adapter as unknown as { client?: { client?: unknown } }).client?.client;
}

/**
 * The PostgreSQL adapter takes its LISTEN connection from the pool in the background. Closing before it has
 * one would leak that connection and hang shutdown, so start-up waits for it (reading the adapter's own state).
 */
async function untilListening(io: RealtimeServer, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!listenerClient(io)) {
    if (Date.now() > deadline) throw new Error('The realtime adapter could not LISTEN on PostgreSQL');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
