import { sql } from 'drizzle-orm';
import type { Executor } from '../../src/server/db/client.ts';

/**
 * Every text column of every table (json, arrays and search documents read as text) holding `needle`, case
 * insensitively, as `table.column`: what an erasure must leave empty for the person's address, name and files.
 */
export async function columnsHolding(db: Executor, needle: string) {
  const columns = await db.execute<{ table_name: string; column_name: string }>(sql`
    select table_name, column_name from information_schema.columns
    where table_schema = 'public' and data_type in ('text', 'character varying', 'character', 'json', 'jsonb', 'tsvector', 'ARRAY')`);
  // A scan that found no columns would find no trace either: the schema must have been read.
  if (columns.rows.length < 50) throw new Error(`Only ${columns.rows.length} text columns found to scan`);
  const found: string[] = [];
  for (const { table_name: table, column_name: column } of columns.rows) {
    const hits = await db.execute<{ n: number }>(
      sql`select count(*)::int as n from ${sql.identifier(table)} where position(${needle.toLowerCase()} in lower(${sql.identifier(column)}::text)) > 0`,
    );
    if (hits.rows[0]!.n > 0) found.push(`${table}.${column}`);
  }
  return found;
}
