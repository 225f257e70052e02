import { eq, inArray, sql } from 'drizzle-orm';
import { STORAGE_QUOTA } from '#shared/constants.ts';
import type { Database, Executor } from '../../db/client.ts';
import { storedFiles } from '../../db/schema/limits.ts';
import { AppError } from '../../http/errors.ts';

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/**
 * Records `files` against their owner's quota, or refuses them all with 413 when they would pass it (`field` names
 * the form input). The owner's claims take turns on a lock held to the end of the caller's transaction, so racing
 * uploads each count the files of the ones before them.
 */
export async function claimStorage(
  tx: Transaction,
  ownerId: string,
  files: Array<{ key: string; sizeBytes: number }>,
  field: string,
) {
  if (files.length === 0) return;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`storage:${ownerId}`}))`);
  const [row] = await tx
    .select({ used: sql<number>`coalesce(sum(${storedFiles.sizeBytes}), 0)`.mapWith(Number) })
    .from(storedFiles)
    .where(eq(storedFiles.ownerId, ownerId));
  const incoming = files.reduce((sum, file) => sum + file.sizeBytes, 0);
  if ((row?.used ?? 0) + incoming > STORAGE_QUOTA.bytes) {
    throw new AppError('STORAGE_FULL', { message: STORAGE_QUOTA.message, fields: { [field]: STORAGE_QUOTA.message } });
  }
  await tx.insert(storedFiles).values(files.map((file) => ({ ...file, ownerId })));
}

/** Gives back the quota of files claimed but then not stored. */
export async function releaseStorage(db: Executor, keys: string[]) {
  if (keys.length > 0) await db.delete(storedFiles).where(inArray(storedFiles.key, keys));
}

/** The keys of every file a user stored (chat uploads, request attachments), for erasing them with the account. */
export async function storedFileKeysOf(db: Executor, ownerId: string) {
  const rows = await db.select({ key: storedFiles.key }).from(storedFiles).where(eq(storedFiles.ownerId, ownerId));
  return rows.map((row) => row.key);
}
