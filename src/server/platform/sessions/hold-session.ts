import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { sessions, users } from '../../db/schema/auth.ts';
import { AppError } from '../../http/errors.ts';

/**
 * Holds the session, as long as the caller's transaction, against its end (a sign-out, a deletion, a suspension):
 * a write a request began while signed in then commits before the session ends, so what ends it (closing the
 * account's requests, say) sees it; or it finds the session ended, and is refused with 401. The user's row is held
 * first, as the write's own references will hold it: a suspension locks that row before it ends the sessions, so
 * both take the two in the same order and neither waits for the other in a circle. A write that updates the user's
 * row locks it for that before holding the session, for the same reason.
 */
export async function holdSession({ db, userId, sessionId }: { db: Executor; userId: string; sessionId: string }) {
  await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('key share');
  const [held] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)))
    .for('share');
  if (!held) throw new AppError('UNAUTHENTICATED');
}
