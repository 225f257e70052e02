import { sql, type SQL } from 'drizzle-orm';
import { integer, timestamp, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';

// Column builders and constraint helpers shared by the schema files (not tables: not re-exported).

export const id = () => uuid('id').primaryKey().defaultRandom();

/** Every point in time is a timestamptz read as a JS Date. */
export const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const createdAt = () => timestamptz('created_at').notNull().defaultNow();

/**
 * A work row's claim (platform/jobs/claimed-work.ts): the claimer's token and the lease's end. A row is free while
 * both are null or the lease has lapsed (its claimer died), and only the token's holder records the outcome. `claims`
 * counts every claim, so a row whose outcome can never be recorded is given up rather than called forever.
 */
export const claimColumns = () => ({
  claimToken: uuid('claim_token'),
  claimedUntil: timestamptz('claimed_until'),
  claims: integer('claims').notNull().default(0),
});

/**
 * `column IN ('a', 'b')` built from a constants array, so check constraints and the
 * TypeScript types share one list. The values are our own literals, never user input.
 */
export const inList = (column: AnyPgColumn, values: readonly string[]): SQL =>
  sql`${column} in (${sql.raw(values.map((value) => `'${value.replaceAll("'", "''")}'`).join(', '))})`;

// Index columns are written `.desc().nullsFirst()`: that is exactly what `ORDER BY x DESC`
// means in PostgreSQL, so the index serves it (drizzle's bare `.desc()` emits NULLS LAST,
// which forces a sort). Scanned backwards the same index serves `ORDER BY x ASC`.
