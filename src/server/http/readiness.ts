import type { FastifyInstance } from 'fastify';
import { watchEventLoopLag, type EventLoopLag } from '../system/event-loop-lag.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Turns /readyz to 503 ahead of a shutdown, so the proxy stops sending work here (main.ts). */
    startDraining(): void;
  }
}

/**
 * The process's own part of /readyz: whether it drains ahead of a shutdown (`app.startDraining()`, called by
 * main.ts on SIGTERM) and how late its event loop runs.
 */
export function registerReadiness(app: FastifyInstance, { maxEventLoopLagMs }: { maxEventLoopLagMs: number }) {
  let draining = false;
  app.decorate('startDraining', () => {
    draining = true;
  });
  // From when the app is ready: loading and migrating at start hold the loop, and count against no one.
  let eventLoop: EventLoopLag | undefined;
  app.addHook('onReady', async () => {
    eventLoop = watchEventLoopLag();
  });
  app.addHook('onClose', async () => eventLoop?.stop());
  return { isDraining: () => draining, eventLoopLagMs: () => eventLoop?.lagMs() ?? 0, maxEventLoopLagMs };
}
