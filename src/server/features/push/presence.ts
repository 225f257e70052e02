import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../../db/client.ts';
import { visibleTabs } from '../../db/schema/push.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';

// Which users have a tab of the app open and shown, across every node: each tab says over its socket when it is shown
// or hidden, and its node keeps a row for it while it is shown. Pushes are for users without one.

/** How often each node renews its shown tabs' rows. */
const RENEW_MS = 30_000;
/** A row older than this is a dead node's: the tab is taken as gone. */
const STALE_SECONDS = 90;

/** Whether the user (a column of the caller's query) has a shown tab, as a condition. */
export const hasVisibleTab = (userId: AnyPgColumn | SQL) =>
  sql`exists (select 1 from ${visibleTabs} where ${visibleTabs.userId} = ${userId}
    and ${visibleTabs.seenAt} > now() - make_interval(secs => ${STALE_SECONDS}))`;

/** Keeps each of this node's sockets' visibility in the database while the app is up. */
export function trackVisibleTabs({ db, realtime, log }: { db: Executor; realtime: Realtime; log: FastifyBaseLogger }) {
  const shown = new Set<string>();
  const failed = (error: unknown) => log.warn({ err: error }, 'tab visibility not recorded');
  const forget = async (socketId: string) => {
    if (shown.delete(socketId)) await db.delete(visibleTabs).where(eq(visibleTabs.socketId, socketId));
  };
  realtime.onConnection((socket) => {
    // One socket's changes are written in the order they came: a quick show and hide leaves no row behind.
    let written = Promise.resolve();
    const inOrder = (write: () => Promise<unknown>) => {
      written = written.then(write).then(() => undefined, failed);
    };
    socket.on('tab:visibility', (visible) => {
      if (visible !== true) return inOrder(() => forget(socket.id));
      shown.add(socket.id);
      inOrder(() =>
        db
          .insert(visibleTabs)
          .values({ socketId: socket.id, userId: socket.data.user.id })
          .onConflictDoUpdate({ target: visibleTabs.socketId, set: { seenAt: sql`now()` } }),
      );
    });
    socket.on('disconnect', () => inOrder(() => forget(socket.id)));
  });
  const renew = async () => {
    if (shown.size > 0) {
      await db
        .update(visibleTabs)
        .set({ seenAt: sql`now()` })
        .where(inArray(visibleTabs.socketId, [...shown]));
    }
    // Any node clears rows left by a node that died.
    await db
      .delete(visibleTabs)
      .where(sql`${visibleTabs.seenAt} < now() - make_interval(secs => ${STALE_SECONDS * 10})`);
  };
  const timer = setInterval(() => void renew().catch(failed), RENEW_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
