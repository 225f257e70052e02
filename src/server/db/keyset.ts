import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

// Keyset pagination on (time, id), newest first unless a list offers the oldest first too: the one way lists page
// (the format is cursorSchema's in #shared/schemas/cursor.ts, which the routes validate before a cursor gets here).

/** Select this as `cursorMicros`: the row's time in microseconds (exact, unlike a JS Date's milliseconds). */
export const cursorMicros = (column: AnyPgColumn | SQL) =>
  sql<string>`(extract(epoch from ${column}) * 1000000)::bigint`;

const encodeCursor = (row: { cursorMicros: string | number; id: string }) => `${row.cursorMicros}_${row.id}`;

type KeysetOrder = 'newest' | 'oldest';

/** Rows strictly after the cursor in `order by time desc, id desc`: a row comparison the (…, time, id) indexes serve. */
export function olderThan(timeColumn: AnyPgColumn, idColumn: AnyPgColumn, cursor: string | undefined): SQL | undefined {
  return pastCursor(timeColumn, idColumn, cursor, 'newest');
}

/** Rows strictly after the cursor in the order `keysetOrderBy` gives. */
export function pastCursor(
  timeColumn: AnyPgColumn,
  idColumn: AnyPgColumn,
  cursor: string | undefined,
  order: KeysetOrder,
): SQL | undefined {
  if (!cursor) return undefined;
  const [timeMicros, id] = cursor.split('_');
  const position = sql`(timestamptz 'epoch' + ${Number(timeMicros)} * interval '1 microsecond', ${id}::uuid)`;
  return order === 'newest'
    ? sql`(${timeColumn}, ${idColumn}) < ${position}`
    : sql`(${timeColumn}, ${idColumn}) > ${position}`;
}

/** The `order by` of a keyset page. */
export const keysetOrderBy = (timeColumn: AnyPgColumn, idColumn: AnyPgColumn, order: KeysetOrder): SQL[] =>
  order === 'newest'
    ? [sql`${timeColumn} desc`, sql`${idColumn} desc`]
    : [sql`${timeColumn} asc`, sql`${idColumn} asc`];

/** Pages of rows fetched with `limit + 1`: the extra row only says that there is a next page. */
export function toPage<T extends { cursorMicros: string | number; id: string }>(rows: T[], limit: number) {
  const page = rows.slice(0, limit);
  return { page, nextCursor: rows.length > limit ? encodeCursor(page.at(-1)!) : null };
}
