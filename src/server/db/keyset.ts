import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

// Keyset pagination, newest first on (time, id): the one way lists page (the format is cursorSchema's in
// #shared/schemas/cursor.ts, which the routes validate before a cursor gets here).

/** Select this as `cursorMicros`: the row's time in microseconds (exact, unlike a JS Date's milliseconds). */
export const cursorMicros = (column: AnyPgColumn | SQL) =>
  sql<string>`(extract(epoch from ${column}) * 1000000)::bigint`;

const encodeCursor = (row: { cursorMicros: string | number; id: string }) => `${row.cursorMicros}_${row.id}`;

/** Rows strictly after the cursor in `order by time desc, id desc`: a row comparison the (…, time, id) indexes serve. */
export function olderThan(timeColumn: AnyPgColumn, idColumn: AnyPgColumn, cursor: string | undefined): SQL | undefined {
  if (!cursor) return undefined;
  const [timeMicros, id] = cursor.split('_');
  return sql`(${timeColumn}, ${idColumn}) < (timestamptz 'epoch' + ${Number(timeMicros)} * interval '1 microsecond', ${id}::uuid)`;
}

/** Pages of rows fetched with `limit + 1`: the extra row only says that there is a next page. */
export function toPage<T extends { cursorMicros: string | number; id: string }>(rows: T[], limit: number) {
  const page = rows.slice(0, limit);
  return { page, nextCursor: rows.length > limit ? encodeCursor(page.at(-1)!) : null };
}
