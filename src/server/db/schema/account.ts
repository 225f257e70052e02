import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { ACCOUNT_DELETION_STATUSES } from '#shared/schemas/account-deletion.ts';
import { DATA_EXPORT_STATUSES } from '#shared/schemas/account.ts';
import { users } from './auth.ts';
import { claimColumns, createdAt, id, inList, timestamptz } from './columns.ts';

/**
 * A user's "Download my data": built by claimed work into one zip in storage (`file_key`), downloadable until
 * `expires_at`, then its file is deleted and the row kept as expired. One export is built at a time per user.
 */
export const dataExports = pgTable(
  'data_exports',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: DATA_EXPORT_STATUSES }).notNull().default('building'),
    fileKey: text('file_key'),
    sizeBytes: bigint('size_bytes', { mode: 'number' }),
    createdAt: createdAt(),
    readyAt: timestamptz('ready_at'),
    expiresAt: timestamptz('expires_at'),
    ...claimColumns(),
  },
  (t) => [
    check('data_exports_status_check', inList(t.status, DATA_EXPORT_STATUSES)),
    uniqueIndex('data_exports_one_building_per_user_idx')
      .on(t.userId)
      .where(sql`${t.status} = 'building'`),
    index('data_exports_user_created_idx').on(t.userId, t.createdAt.desc()),
    index('data_exports_ready_expiry_idx')
      .on(t.expiresAt)
      .where(sql`${t.status} = 'ready'`),
  ],
);

export type DataExport = typeof dataExports.$inferSelect;

/**
 * A user's "Delete my account": the account is locked at once and erased by claimed work once `erase_after` (14 days
 * on) has passed, unless the user restored it meanwhile. Kept after the erasure as the admins' record, naming the
 * user by id only. `blocked_reason` says why a due erasure waits (money not yet settled).
 */
export const accountDeletions = pgTable(
  'account_deletions',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ACCOUNT_DELETION_STATUSES }).notNull().default('pending'),
    requestedAt: createdAt(),
    eraseAfter: timestamptz('erase_after').notNull(),
    restoredAt: timestamptz('restored_at'),
    erasedAt: timestamptz('erased_at'),
    blockedReason: text('blocked_reason'),
    ...claimColumns(),
  },
  (t) => [
    check('account_deletions_status_check', inList(t.status, ACCOUNT_DELETION_STATUSES)),
    uniqueIndex('account_deletions_one_pending_per_user_idx')
      .on(t.userId)
      .where(sql`${t.status} = 'pending'`),
    index('account_deletions_due_idx')
      .on(t.eraseAfter)
      .where(sql`${t.status} = 'pending'`),
    index('account_deletions_requested_idx').on(t.requestedAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  ],
);

export type AccountDeletion = typeof accountDeletions.$inferSelect;
