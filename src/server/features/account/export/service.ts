import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { and, desc, eq, lt, sql } from 'drizzle-orm';
import { ZipFile } from 'yazl';
import { DATA_EXPORT_VALIDITY_DAYS } from '#shared/schemas/account.ts';
import { paths } from '#shared/paths.ts';
import { accountMessages, type DataExportView } from '#shared/schemas/account.ts';
import type { Database, Executor } from '../../../db/client.ts';
import { dataExports, type DataExport } from '../../../db/schema/account.ts';
import { AppError } from '../../../http/errors.ts';
import type { ClaimedWork } from '../../../platform/jobs/claimed-work.ts';
import type { IntervalJob } from '../../../platform/jobs/interval-jobs.ts';
import type { Storage } from '../../../platform/storage/storage.ts';
import { createNotification } from '../../notifications/service.ts';
import { EXPORT_README, collectExportFiles, uploadedFileKeys } from './contents.ts';

const exportKey = (exportId: string) => `exports/${exportId}.zip`;

const toView = (row: DataExport): DataExportView => ({
  id: row.id,
  status: row.status,
  createdAt: row.createdAt.toISOString(),
  readyAt: row.readyAt?.toISOString() ?? null,
  expiresAt: row.expiresAt?.toISOString() ?? null,
  sizeBytes: row.sizeBytes,
});

const isUniqueViolation = (error: unknown) => {
  const cause = (error as { cause?: { code?: string } }).cause ?? (error as { code?: string });
  return cause.code === '23505';
};

/** Starts building the user's export; one at a time (409 while one is being built). */
export async function requestDataExport({ db, userId }: { db: Database; userId: string }) {
  try {
    const [row] = await db.insert(dataExports).values({ userId }).returning();
    return toView(row!);
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', { message: accountMessages.exportInProgress });
    throw error;
  }
}

/** The user's newest export, whatever its state, or null. */
export async function findLatestDataExport({ db, userId }: { db: Executor; userId: string }) {
  const [row] = await db
    .select()
    .from(dataExports)
    .where(eq(dataExports.userId, userId))
    .orderBy(desc(dataExports.createdAt))
    .limit(1);
  return { export: row ? toView(row) : null };
}

/** The zip of the user's own ready export within its 7 days; anything else (another user's, expired) is 404. */
export async function getDataExportFile({
  db,
  storage,
  userId,
  exportId,
}: {
  db: Executor;
  storage: Storage;
  userId: string;
  exportId: string;
}) {
  const [row] = await db
    .select({ fileKey: dataExports.fileKey, createdAt: dataExports.createdAt })
    .from(dataExports)
    .where(
      and(
        eq(dataExports.id, exportId),
        eq(dataExports.userId, userId),
        eq(dataExports.status, 'ready'),
        sql`${dataExports.expiresAt} > now()`,
      ),
    );
  const file = row?.fileKey ? await storage.get(row.fileKey) : null;
  if (!file) throw new AppError('NOT_FOUND', { message: accountMessages.exportGone });
  return { file, filename: `virtual-help-data-${row!.createdAt.toISOString().slice(0, 10)}.zip` };
}

/** Writes the user's zip to a temporary file and stores it; returns its key and size. */
async function buildExport({ db, storage, row }: { db: Database; storage: Storage; row: DataExport }) {
  const dir = await mkdtemp(path.join(tmpdir(), 'vh-export-'));
  try {
    const zipPath = path.join(dir, 'export.zip');
    const zip = new ZipFile();
    const written = pipeline(zip.outputStream, createWriteStream(zipPath));
    zip.addBuffer(Buffer.from(EXPORT_README), 'README.txt');
    for (const { name, data } of await collectExportFiles({ db, userId: row.userId })) {
      zip.addBuffer(Buffer.from(JSON.stringify(data, null, 2)), name);
    }
    for (const key of await uploadedFileKeys({ db, userId: row.userId })) {
      // A file whose record outlived it (removed by an admin meanwhile) is left out, not an error.
      if (!(await storage.head(key))) continue;
      // Opened only when its turn comes, so a thousand files never hold a thousand reads open.
      zip.addReadStreamLazy(`files/${key}`, (done) => {
        const fail = (error: unknown) => done(error, null as never);
        storage
          .get(key)
          .then(
            (file) => (file ? done(null, file.stream) : fail(new Error(`${key} went missing during the export`))),
            fail,
          );
      });
    }
    zip.end();
    // A file that cannot be read is reported by the zip, not by its output, which then never ends.
    const unreadable = once(zip, 'error').then(([error]) => Promise.reject(error as Error));
    await Promise.race([written, unreadable]);
    const key = exportKey(row.id);
    await storage.put(key, zipPath, 'application/zip');
    return { key, size: (await stat(zipPath)).size };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Builds requested exports once across nodes (claimed work, docs/decisions/0040): the zip is made with no
 * transaction open, under a key of the export's own, so a build repeated after a lapsed claim replaces the same file.
 * When it is stored, the user gets an in-app notice and its e-mail.
 */
export function dataExportWork({
  db,
  storage,
  publicUrl,
}: {
  db: Database;
  storage: Storage;
  publicUrl: string;
}): ClaimedWork<typeof dataExports, { key: string; size: number }> {
  return {
    name: 'data-exports',
    table: dataExports,
    due: eq(dataExports.status, 'building'),
    order: dataExports.createdAt,
    batchSize: 2,
    leaseMs: 15 * 60_000,
    maxClaims: 3,
    call: (row) => buildExport({ db, storage, row }),
    async record({ db: tx, row, outcome }) {
      if (!outcome.ok) {
        await tx.update(dataExports).set({ status: 'failed' }).where(eq(dataExports.id, row.id));
        return;
      }
      await tx
        .update(dataExports)
        .set({
          status: 'ready',
          fileKey: outcome.value.key,
          sizeBytes: outcome.value.size,
          readyAt: sql`now()`,
          expiresAt: sql`now() + make_interval(days => ${DATA_EXPORT_VALIDITY_DAYS})`,
        })
        .where(eq(dataExports.id, row.id));
      await createNotification({
        db: tx,
        publicUrl,
        userId: row.userId,
        message: accountMessages.exportReady,
        link: paths.settings.account.getHref(),
        email: { type: 'data_export_ready', sender: 'Virtual Help' },
      });
    },
    async giveUp({ db: tx, row }) {
      await tx.update(dataExports).set({ status: 'failed' }).where(eq(dataExports.id, row.id));
    },
  };
}

/** Deletes the files of exports past their 7 days, then marks them expired (a file already gone is no error). */
export function expiredDataExportsJob(storage: Storage): IntervalJob {
  return {
    name: 'expire-data-exports',
    intervalMs: 60 * 60_000,
    async run({ db }) {
      const due = await db
        .select({ id: dataExports.id, fileKey: dataExports.fileKey })
        .from(dataExports)
        .where(and(eq(dataExports.status, 'ready'), lt(dataExports.expiresAt, sql`now()`)))
        .limit(100);
      for (const { id, fileKey } of due) {
        if (fileKey) await storage.delete(fileKey);
        await db.update(dataExports).set({ status: 'expired', fileKey: null }).where(eq(dataExports.id, id));
      }
      return due.length;
    },
  };
}
