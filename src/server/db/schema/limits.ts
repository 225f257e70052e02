import { bigint, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth.ts';
import { createdAt, timestamptz } from './columns.ts';

/**
 * Fixed-window use counters behind the per-user and per-account limits (see platform/limits). Kept in the database so
 * a limit holds across server processes; a row is reused when its window has passed.
 */
export const usageCounters = pgTable('usage_counters', {
  key: text('key').primaryKey(),
  windowStartedAt: timestamptz('window_started_at').notNull().defaultNow(),
  hits: integer('hits').notNull(),
});

/**
 * Every file a user stores (chat uploads, request attachments): what the storage quota adds up, and how chat
 * uploads that never reached a message are found and removed.
 */
export const storedFiles = pgTable(
  'stored_files',
  {
    key: text('key').primaryKey(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('stored_files_owner_idx').on(t.ownerId), index('stored_files_created_idx').on(t.createdAt)],
);
