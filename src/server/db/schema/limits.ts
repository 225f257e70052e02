import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.ts';

/**
 * Fixed-window use counters behind the per-user and per-account limits (see platform/limits). Kept in the database so
 * a limit holds across server processes; a row is reused when its window has passed.
 */
export const usageCounters = pgTable('usage_counters', {
  key: text('key').primaryKey(),
  windowStartedAt: timestamptz('window_started_at').notNull().defaultNow(),
  hits: integer('hits').notNull(),
});
