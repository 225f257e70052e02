import { eq, sql } from 'drizzle-orm';
import { STORAGE_QUOTA } from '#shared/constants.ts';
import type { Executor } from '../../db/client.ts';
import { storedFiles } from '../../db/schema/limits.ts';
import { AppError } from '../../http/errors.ts';

/** Refuses `incomingBytes` more when the owner's stored files would pass the quota; `field` names the form input. */
export async function assertStorageLeft(db: Executor, ownerId: string, incomingBytes: number, field: string) {
  const [row] = await db
    .select({ used: sql<number>`coalesce(sum(${storedFiles.sizeBytes}), 0)`.mapWith(Number) })
    .from(storedFiles)
    .where(eq(storedFiles.ownerId, ownerId));
  if ((row?.used ?? 0) + incomingBytes > STORAGE_QUOTA.bytes) {
    throw new AppError('STORAGE_FULL', { message: STORAGE_QUOTA.message, fields: { [field]: STORAGE_QUOTA.message } });
  }
}

/** Records stored files against their owner's quota (in the caller's transaction when given one). */
export async function recordStoredFiles(
  db: Executor,
  files: Array<{ key: string; ownerId: string; sizeBytes: number }>,
) {
  if (files.length > 0) await db.insert(storedFiles).values(files);
}
