import { and, eq, isNotNull, lt, or, sql } from 'drizzle-orm';
import {
  ACCOUNT_DELETION_GRACE_DAYS,
  accountDeletionMessages,
  type AccountDeletionView,
  type AdminAccountDeletionPage,
  type DeleteAccountInput,
  type RestoreAccountInput,
} from '#shared/schemas/account-deletion.ts';
import type { Database, Executor } from '../../db/client.ts';
import { accountDeletions, type AccountDeletion } from '../../db/schema/account.ts';
import { cursorMicros, keysetOrderBy, olderThan, toPage } from '../../db/keyset.ts';
import { users } from '../../db/schema/auth.ts';
import { AppError, fieldError } from '../../http/errors.ts';
import { hasAdminRole } from '../admin/service.ts';
import {
  assertPassword,
  assertPasswordSignInAllowed,
  findLockedAccount,
  lockAccount,
  recordFailedSignIn,
  unlockAccount,
} from '../auth/service.ts';
import { findDeletionBlock } from '../payments/service.ts';
import { withdrawFromMarketplace } from '../requests/service.ts';
import { logDeclinedErasure } from './erasure.ts';

// "Delete my account" and "Restore my account" (decision 0062): the lock at once, the erasure 14 days later.

const DAY_MS = 24 * 60 * 60 * 1000;

/** Refuses, in plain words, while the user's money or a case about it is not settled. */
export async function assertDeletable({ db, userId }: { db: Executor; userId: string }) {
  const block = await findDeletionBlock({ db, userId });
  if (block) throw new AppError('ACCOUNT_NOT_DELETABLE', { message: accountDeletionMessages.blocked[block] });
}

/**
 * Locks the account for deletion: every session ends (the caller closes their sockets with the ids returned), the
 * user is hidden from search and the directory, their open requests close and their pending offers are withdrawn.
 * The erasure follows after the grace period unless the user restores the account.
 */
export async function requestAccountDeletion({
  db,
  userId,
  input,
}: {
  db: Database;
  userId: string;
  input: DeleteAccountInput;
}): Promise<{ deletion: AccountDeletionView; endedSessionIds: string[] }> {
  // Admin accounts are the operator's: the super-admin's is ADMIN_EMAIL's, a sub-admin's goes once its role does.
  if (await hasAdminRole(db, userId)) throw new AppError('FORBIDDEN', { message: accountDeletionMessages.admin });
  await assertPassword(db, userId, input.password);
  await assertDeletable({ db, userId });
  return db.transaction(async (tx) => {
    const requestedAt = new Date();
    const [row] = await tx
      .insert(accountDeletions)
      .values({
        userId,
        requestedAt,
        eraseAfter: new Date(requestedAt.getTime() + ACCOUNT_DELETION_GRACE_DAYS * DAY_MS),
      })
      .onConflictDoNothing()
      .returning();
    // A second press that raced the first (both signed in when they began) is answered with the deletion it made.
    if (!row) return { deletion: viewOf(await pendingDeletionOf(tx, userId)), endedSessionIds: [] };
    const endedSessionIds = await lockAccount({ db: tx, userId });
    await withdrawFromMarketplace({ db: tx, userId });
    return { deletion: viewOf(row), endedSessionIds };
  });
}

const viewOf = (row: AccountDeletion): AccountDeletionView => ({
  requestedAt: row.requestedAt.toISOString(),
  eraseAfter: row.eraseAfter.toISOString(),
});

async function pendingDeletionOf(db: Executor, userId: string) {
  const [row] = await db
    .select()
    .from(accountDeletions)
    .where(and(eq(accountDeletions.userId, userId), eq(accountDeletions.status, 'pending')));
  return row!;
}

/**
 * Gives a locked account back to the owner who signs in with its address and password within the grace period.
 * Refused while the erasure is under way (its claim is held), so a restore never meets a half-erased account; an
 * erasure logged by a try that did not finish is declined in the erasure log, so no replay at start erases it.
 */
export async function restoreAccount({
  db,
  erasureLog,
  input,
}: {
  db: Database;
  erasureLog: string;
  input: RestoreAccountInput;
}) {
  // Restoring signs in by another door: its wrong passwords spend the address's sign-in budget, so that guessing
  // from many addresses is paused here as it is there.
  const attempt = { email: input.email, device: undefined };
  await assertPasswordSignInAllowed(db, attempt);
  const userId = await findLockedAccount({ db, email: input.email, password: input.password });
  if (!userId) {
    await recordFailedSignIn(db, attempt);
    // A 400 on the form's password field: a 401 would mean a session is missing, and none is asked for.
    throw fieldError('password', accountDeletionMessages.wrongCredentials);
  }
  await db.transaction(async (tx) => {
    const [restored] = await tx
      .update(accountDeletions)
      // The claim of an erasure whose lease lapsed is taken away: its holder, back late, records nothing.
      .set({ status: 'restored', restoredAt: new Date(), claimToken: null, claimedUntil: null })
      .where(
        and(
          eq(accountDeletions.userId, userId),
          eq(accountDeletions.status, 'pending'),
          or(sql`${accountDeletions.claimedUntil} is null`, lt(accountDeletions.claimedUntil, sql`now()`)),
        ),
      )
      .returning({ id: accountDeletions.id });
    if (!restored) throw new AppError('CONFLICT', { message: accountDeletionMessages.nothingToRestore });
    // Before the commit: a failed one leaves the deletion pending, whose next try logs the erasure again.
    await logDeclinedErasure(erasureLog, userId);
    await unlockAccount({ db: tx, userId });
  });
}

/** The admins' list, newest first: who asked (by username until the erasure), when, and where each stands. */
export async function listAccountDeletions({
  db,
  cursor,
}: {
  db: Executor;
  cursor?: string;
}): Promise<AdminAccountDeletionPage> {
  const PAGE = 50;
  const rows = await db
    .select({
      deletion: accountDeletions,
      username: users.username,
      erased: isNotNull(users.erasedAt),
      id: accountDeletions.id,
      cursorMicros: cursorMicros(accountDeletions.requestedAt),
    })
    .from(accountDeletions)
    .innerJoin(users, eq(users.id, accountDeletions.userId))
    .where(olderThan(accountDeletions.requestedAt, accountDeletions.id, cursor))
    .orderBy(...keysetOrderBy(accountDeletions.requestedAt, accountDeletions.id, 'newest'))
    .limit(PAGE + 1);
  const { page, nextCursor } = toPage(rows, PAGE);
  return {
    items: page.map(({ deletion, username, erased }) => ({
      id: deletion.id,
      userId: deletion.userId,
      username: erased ? null : username,
      status: deletion.status,
      requestedAt: deletion.requestedAt.toISOString(),
      eraseAfter: deletion.eraseAfter.toISOString(),
      restoredAt: deletion.restoredAt?.toISOString() ?? null,
      erasedAt: deletion.erasedAt?.toISOString() ?? null,
      blockedReason: deletion.blockedReason as AdminAccountDeletionPage['items'][number]['blockedReason'],
    })),
    nextCursor,
  };
}
