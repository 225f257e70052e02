import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { ErasedName } from '#shared/rules/erased-name.ts';
import type { Executor } from './client.ts';

// Finding the texts other people keep that name an erased person (decision 0062), and writing them back once
// withoutName has rewritten them.

export type { ErasedName };

/** The username as a whole word, in PostgreSQL's regular expressions (usernames are lowercase letters and digits). */
const usernameWord = (name: ErasedName) => `\\m${name.username}\\M`;
/** The address as it is written, with the dots and pluses of its regular expression escaped. */
const address = (name: ErasedName) => name.email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether `text` may name the person (by username or address, whatever the case): the rows to rewrite. */
export const naming = (text: AnyPgColumn | SQL, name: ErasedName) =>
  sql`(${text} ~* ${usernameWord(name)} or ${text} ~* ${address(name)})`;

/**
 * Writes the rewritten texts of many rows back in one statement rather than one per row: each row is its id and the
 * new values of `columns`, in their order (a jsonb column's as JSON text).
 */
export async function writeRewritten(
  db: Executor,
  table: PgTable & { id: AnyPgColumn },
  columns: AnyPgColumn[],
  rows: { id: string; values: (string | null)[] }[],
) {
  if (rows.length === 0) return;
  const names = columns.map((_, index) => sql.identifier(`value${index}`));
  const arrays = columns.map((_, index) => sql`${sql.param(rows.map((row) => row.values[index] ?? null))}::text[]`);
  const assignments = columns.map(
    (column, index) => sql`${sql.identifier(column.name)} = v.${names[index]}::${sql.raw(column.getSQLType())}`,
  );
  await db.execute(sql`
    update ${table} set ${sql.join(assignments, sql`, `)}
    from unnest(${sql.param(rows.map((row) => row.id))}::uuid[], ${sql.join(arrays, sql`, `)})
      as v(id, ${sql.join(names, sql`, `)})
    where ${table.id} = v.id`);
}
