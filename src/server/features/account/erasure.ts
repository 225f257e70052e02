import { appendFile, readFile } from 'node:fs/promises';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { accountDeletions, dataExports } from '../../db/schema/account.ts';
import { users } from '../../db/schema/auth.ts';
import type { ClaimedWork } from '../../platform/jobs/claimed-work.ts';
import { forgetMailOf } from '../../platform/mail/outbox.ts';
import { releaseStorage, storedFileKeysOf } from '../../platform/storage/quota.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import { eraseAccountRow } from '../auth/service.ts';
import { eraseChatFilesOf } from '../chat/service.ts';
import { eraseNotificationsOf } from '../notifications/service.ts';
import { eraseContactMessagesFrom } from '../pages/service.ts';
import { findDeletionBlock } from '../payments/service.ts';
import { avatarKeyOf } from '../profiles/service.ts';
import { erasePushesOf } from '../push/service.ts';
import { eraseRequestAttachmentsOf, withdrawFromMarketplace } from '../requests/service.ts';
import { forgetSavedTutorsOf } from '../tutors/service.ts';

// The erasure of an account whose grace period ended (decision 0062): its files leave storage, then its records are
// overwritten in one transaction, and its id is appended to the erasure log kept outside the data directory, which
// the server applies again at start so that a restored backup brings no erased account back.

const DAY_MS = 24 * 60 * 60 * 1000;

/** Every stored file of the user: uploads, avatar, data exports. */
async function fileKeysOf(db: Executor, userId: string) {
  const [user] = await db.select({ image: users.image }).from(users).where(eq(users.id, userId));
  const exports = await db.select({ key: dataExports.fileKey }).from(dataExports).where(eq(dataExports.userId, userId));
  const avatar = avatarKeyOf(user?.image ?? null);
  return [
    ...(await storedFileKeysOf(db, userId)),
    ...(avatar ? [avatar] : []),
    ...exports.flatMap((row) => (row.key ? [row.key] : [])),
  ];
}

/** Removes the user's files from storage (a missing one is no error, so this may run again). */
async function deleteFilesOf({ db, storage, userId }: { db: Executor; storage: Storage; userId: string }) {
  for (const key of await fileKeysOf(db, userId)) await storage.delete(key);
}

/** Overwrites or deletes every record that names the user, in the caller's transaction; false when erased already. */
async function eraseRecordsOf({ db, userId }: { db: Executor; userId: string }) {
  const fileKeys = await storedFileKeysOf(db, userId);
  const identity = await eraseAccountRow({ db, userId });
  if (!identity) return false;
  await withdrawFromMarketplace({ db, userId });
  await eraseRequestAttachmentsOf({ db, userId });
  await eraseChatFilesOf({ db, userId });
  await releaseStorage(db, fileKeys);
  await eraseNotificationsOf({ db, userId, name: identity });
  await erasePushesOf({ db, userId, name: identity });
  await forgetSavedTutorsOf({ db, userId });
  await db.delete(dataExports).where(eq(dataExports.userId, userId));
  await forgetMailOf({ db, userId, name: identity });
  await eraseContactMessagesFrom({ db, email: identity.email });
  return true;
}

/** Appends the user's id to the erasure log, before anything is erased: a crash then leaves an id to apply again. */
const logErasure = (logFile: string, userId: string) => appendFile(logFile, `${userId}\n`, { mode: 0o600 });
/**
 * Appends `-id`: an erasure logged for the user did not finish (its call failed, money arrived, it was given up or the
 * account restored), so a replay skips it. The next try logs the id again before it erases anything.
 */
export const logDeclinedErasure = (logFile: string, userId: string) =>
  appendFile(logFile, `-${userId}\n`, { mode: 0o600 });

/**
 * Locks the user's row as a money posting would wait for it (the ledger's lockPeopleOf), then checks their money:
 * a posting in flight is waited for and seen; one that comes after this transaction finds the person erased and is
 * refused. So money and the erasure are never both applied.
 */
async function lockedDeletionBlock(tx: Executor, userId: string) {
  await tx.execute(sql`select 1 from ${users} where ${users.id} = ${userId} for update`);
  return findDeletionBlock({ db: tx, userId });
}

type ErasureOutcome = { blockedBy: string | null };

/** The database, the file store and the erasure log's path. */
export type ErasureOptions = { db: Database; storage: Storage; erasureLog: string };

/** A due erasure that cannot run now is tried again the next day, with its claims counted afresh. */
const postpone = (db: Executor, rowId: string, blockedReason?: string) =>
  db
    .update(accountDeletions)
    .set({ eraseAfter: new Date(Date.now() + DAY_MS), claims: 0, ...(blockedReason ? { blockedReason } : {}) })
    .where(eq(accountDeletions.id, rowId));

/**
 * Erases accounts whose grace period ended, once across nodes (claimed work, decision 0040). A user whose money or
 * case is still open waits a day and is tried again, the reason kept for the admins.
 */
export function accountErasureWork({
  db,
  storage,
  erasureLog,
}: ErasureOptions): ClaimedWork<typeof accountDeletions, ErasureOutcome> {
  return {
    name: 'account-erasures',
    table: accountDeletions,
    due: and(eq(accountDeletions.status, 'pending'), sql`${accountDeletions.eraseAfter} <= now()`)!,
    order: accountDeletions.eraseAfter,
    batchSize: 5,
    leaseMs: 10 * 60_000,
    maxClaims: 5,
    async call(row) {
      const block = await findDeletionBlock({ db, userId: row.userId });
      if (block) return { blockedBy: block };
      await logErasure(erasureLog, row.userId);
      await deleteFilesOf({ db, storage, userId: row.userId });
      return { blockedBy: null };
    },
    async record({ db: tx, row, outcome }) {
      // A call that failed may have logged the erasure first, as may a call before a crash that found money this time.
      if (!outcome.ok) {
        await logDeclinedErasure(erasureLog, row.userId);
        return;
      }
      if (outcome.value.blockedBy) {
        await logDeclinedErasure(erasureLog, row.userId);
        await postpone(tx, row.id, outcome.value.blockedBy);
        return;
      }
      // The check of call() again, under the lock: money may have arrived since (its files are gone already).
      const blockedBy = await lockedDeletionBlock(tx, row.userId);
      if (blockedBy) {
        await logDeclinedErasure(erasureLog, row.userId);
        await postpone(tx, row.id, blockedBy);
        return;
      }
      await eraseRecordsOf({ db: tx, userId: row.userId });
      await tx
        .update(accountDeletions)
        .set({ status: 'erased', erasedAt: new Date(), blockedReason: null })
        .where(eq(accountDeletions.id, row.id));
    },
    async giveUp({ db: tx, row }) {
      // Tried again the next day rather than dropped: the account must not stay forever.
      await logDeclinedErasure(erasureLog, row.userId);
      await postpone(tx, row.id);
    },
  };
}

/** The ids in the erasure log whose last line erases them, not declined since (none when there is no log yet). */
async function readErasureLog(logFile: string) {
  const text = await readFile(logFile, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
  const erased = new Set<string>();
  for (const [, declined, id] of text.matchAll(/^(-?)([0-9a-f-]{36})$/gm)) {
    if (declined) erased.delete(id!);
    else erased.add(id!);
  }
  return [...erased];
}

/**
 * Erases again every account of the erasure log that the database holds unerased: after a backup made before the
 * erasure was restored. Returns how many were erased. Running it twice, or on two nodes at once, erases nothing twice.
 */
export async function replayErasureLog({ db, storage, erasureLog }: ErasureOptions) {
  const ids = await readErasureLog(erasureLog);
  if (ids.length === 0) return 0;
  const unerased = await db
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, ids), isNull(users.erasedAt)));
  for (const { id: userId } of unerased) {
    await deleteFilesOf({ db, storage, userId });
    await db.transaction(async (tx) => {
      await eraseRecordsOf({ db: tx, userId });
      const now = new Date();
      const [marked] = await tx
        .update(accountDeletions)
        .set({ status: 'erased', erasedAt: now, blockedReason: null })
        .where(and(eq(accountDeletions.userId, userId), eq(accountDeletions.status, 'pending')))
        .returning({ id: accountDeletions.id });
      // A deletion asked after the backup was made: the admins' list gets its row back.
      if (!marked)
        await tx.insert(accountDeletions).values({ userId, status: 'erased', eraseAfter: now, erasedAt: now });
    });
  }
  return unerased.length;
}
