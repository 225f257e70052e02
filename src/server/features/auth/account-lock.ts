import { verifyPassword } from 'better-auth/crypto';
import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import { DELETED_USER_NAME } from '#shared/schemas/account-deletion.ts';
import type { Executor } from '../../db/client.ts';
import type { ErasedName } from '../../db/erased-names.ts';
import { accounts, sessions, twoFactors, users, verifications } from '../../db/schema/auth.ts';
import { emailChangeIdentifier } from './account-settings.ts';
import { clearFailedSignIns } from './sign-in-lockout.ts';

// The users row's part of "Delete my account" (decision 0062): the lock while the account can be restored, and the
// erasure that overwrites the row rather than deleting it (every foreign key to users cascades).

/** An erased user's address: the row keeps its unique e-mail column, at a domain that cannot receive mail. */
const erasedEmailOf = (userId: string) => `erased-${userId}@erased.invalid`;

/** Locks the account for deletion and ends every session; returns the ended sessions' ids (for their sockets). */
export async function lockAccount({ db, userId }: { db: Executor; userId: string }) {
  await db
    .update(users)
    .set({ deletionRequestedAt: new Date() })
    .where(and(eq(users.id, userId), isNull(users.erasedAt)));
  const ended = await db.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id });
  return ended.map((session) => session.id);
}

/** Lifts the lock of an account its owner restored within the grace period. */
export async function unlockAccount({ db, userId }: { db: Executor; userId: string }) {
  await db
    .update(users)
    .set({ deletionRequestedAt: null })
    .where(and(eq(users.id, userId), isNull(users.erasedAt)));
}

/**
 * The locked, not erased account this address and password open, or null: what "Restore my account" asks for, since
 * a locked account has no session.
 */
export async function findLockedAccount({ db, email, password }: { db: Executor; email: string; password: string }) {
  const [row] = await db
    .select({ id: users.id, hash: accounts.password })
    .from(users)
    .innerJoin(accounts, and(eq(accounts.userId, users.id), eq(accounts.providerId, 'credential')))
    .where(and(eq(users.email, email), isNotNull(users.deletionRequestedAt), isNull(users.erasedAt)));
  if (!row?.hash || !(await verifyPassword({ hash: row.hash, password }))) return null;
  return row.id;
}

/** What identified the person before the erasure, for the other features to remove where it was copied. */
export type ErasedIdentity = ErasedName & { avatarUrl: string | null };

/**
 * Overwrites the users row with nothing that names the person and deletes the credentials, sessions, second factor
 * and pending e-mail change. Returns who the person was, or null when the row was erased already (a replay).
 */
export async function eraseAccountRow({
  db,
  userId,
}: {
  db: Executor;
  userId: string;
}): Promise<ErasedIdentity | null> {
  const [before] = await db
    .select({ email: users.email, username: users.username, image: users.image, erasedAt: users.erasedAt })
    .from(users)
    .where(eq(users.id, userId));
  if (!before || before.erasedAt) return null;
  const now = new Date();
  await db
    .update(users)
    .set({
      name: DELETED_USER_NAME,
      email: erasedEmailOf(userId),
      emailVerified: false,
      image: null,
      // Shown wherever others still see the account; unique only among live accounts.
      username: DELETED_USER_NAME,
      fullName: null,
      suspensionReason: null,
      headline: null,
      about: null,
      hourlyRateCents: null,
      isVisibleToVisitors: false,
      twoFactorEnabled: false,
      deletionRequestedAt: now,
      erasedAt: now,
    })
    .where(eq(users.id, userId));
  await db.delete(accounts).where(eq(accounts.userId, userId));
  await db.delete(sessions).where(eq(sessions.userId, userId));
  await db.delete(twoFactors).where(eq(twoFactors.userId, userId));
  await db.delete(verifications).where(eq(verifications.identifier, emailChangeIdentifier(userId)));
  await clearFailedSignIns(db, before.email);
  return {
    email: before.email,
    username: before.username,
    erasedEmail: erasedEmailOf(userId),
    avatarUrl: before.image,
  };
}
