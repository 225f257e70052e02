import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { toHeaders, type SessionResolver } from '../../http/session.ts';

/**
 * How often every socket's session is looked up again. A session's end reaches the sockets of other nodes
 * through the fan-out; a notice sent while it was down is lost, and this bounds how long such a socket lives on.
 */
export const SOCKET_SESSION_CHECK_MS = 30_000;
/** How often the fan-out's state is read, to re-check at once when it comes back. */
const FAN_OUT_WATCH_MS = 1_000;

/** What is read of a socket: the handshake that carried its cookie and the session it was opened with. */
type CheckedSocket = { connected: boolean; request: IncomingMessage; data: { sessionId: string } };

/**
 * Re-checks the sessions of this node's sockets every `intervalMs`, and at once when the fan-out is back after
 * an outage (after `onFanOutBack`, which drops what the node kept from before). A socket whose session is gone
 * is ended; while the database does not answer, sockets are kept and the next round tries again.
 */
export function startSessionChecks<S extends CheckedSocket>(options: {
  /** This node's sockets. */
  sockets: () => Iterable<S>;
  resolveSession: SessionResolver;
  fanOutUp: () => boolean;
  onFanOutBack: () => void;
  endSocket: (socket: S) => void;
  intervalMs: number;
  log: FastifyBaseLogger;
}) {
  const { resolveSession, fanOutUp, endSocket, log } = options;

  const checkAll = async () => {
    for (const socket of [...options.sockets()]) {
      if (!socket.connected) continue;
      let session: Awaited<ReturnType<SessionResolver>>;
      try {
        session = await resolveSession(toHeaders(socket.request.headers));
      } catch (error) {
        // The database is away: every other socket would wait as long to learn nothing.
        log.warn({ err: error }, 'socket sessions not re-checked (database unavailable); trying again later');
        return;
      }
      if (session?.sessionId !== socket.data.sessionId) endSocket(socket);
    }
  };
  // One round at a time; one asked for meanwhile follows it (it may have read sessions from before the ask).
  let round: Promise<void> | undefined;
  let again = false;
  const check = () => {
    if (round) {
      again = true;
      return;
    }
    round = checkAll().finally(() => {
      round = undefined;
      if (again) {
        again = false;
        check();
      }
    });
  };

  let wasUp = fanOutUp();
  const watch = setInterval(() => {
    const up = fanOutUp();
    if (up && !wasUp) {
      options.onFanOutBack();
      check();
    }
    wasUp = up;
  }, FAN_OUT_WATCH_MS);
  const periodic = setInterval(check, options.intervalMs);
  for (const timer of [watch, periodic]) timer.unref();

  return {
    async stop() {
      clearInterval(watch);
      clearInterval(periodic);
      again = false;
      await round;
    },
  };
}
