import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import {
  DIRECTORY,
  directoryMessages,
  type DirectoryPage,
  type DirectoryQuery,
  type DirectorySort,
} from '#shared/schemas/directory.ts';
import { INVALID_CURSOR_MESSAGE } from '#shared/schemas/cursor.ts';
import type { Executor } from '../../db/client.ts';
import { users as u } from '../../db/schema/auth.ts';
import { subjects } from '../../db/schema/subjects.ts';
import { fieldError } from '../../http/errors.ts';
import { toTutorTrust, tutorTrustColumns } from './trust-columns.ts';

// Find Tutors: one query per page, filtered, searched, sorted and paged by keyset on whole-number sort keys, so a
// page costs the same at 10,000 tutors as at 100 and inserts between two pages neither skip nor repeat a tutor.

/** Above every rate, so tutors without one come last when sorting by price. */
const NO_RATE = 2_147_483_647;

/** Each sort's keys (whole numbers, then the id breaks ties) and direction. */
const SORT_KEYS: Record<DirectorySort, { keys: SQL<string>[]; direction: 'asc' | 'desc' }> = {
  best: { keys: [sql`${u.matchScore}`], direction: 'desc' },
  // The average in ten-thousandths of a star (no reviews: 0, last), then more reviews first.
  rating: {
    keys: [sql`coalesce(${u.reviewRatingSum}::bigint * 10000 / nullif(${u.reviewCount}, 0), 0)`, sql`${u.reviewCount}`],
    direction: 'desc',
  },
  price: { keys: [sql`coalesce(${u.hourlyRateCents}, ${sql.raw(String(NO_RATE))})`], direction: 'asc' },
  newest: { keys: [sql`(extract(epoch from ${u.createdAt}) * 1000000)::bigint`], direction: 'desc' },
};

/**
 * The text search as a prefix query over the words typed ("calc alg" finds "Calculus" and "Algebra"): only letters
 * and digits reach to_tsquery, so no input can be a query syntax error.
 */
export function toPrefixQuery(text: string | undefined) {
  const words = (text ?? '').match(/[\p{L}\p{N}]+/gu)?.slice(0, 8) ?? [];
  return words.length === 0 ? null : words.map((word) => `${word.slice(0, 40)}:*`).join(' & ');
}

function pastCursor(sort: DirectorySort, cursor: string | undefined): SQL | undefined {
  if (!cursor) return undefined;
  const { keys, direction } = SORT_KEYS[sort];
  const [values = '', id] = cursor.split('_');
  const numbers = values.split('.');
  if (numbers.length !== keys.length) throw fieldError('cursor', INVALID_CURSOR_MESSAGE);
  const row = sql.join([...keys, sql`${u.id}`], sql`, `);
  const position = sql.join([...numbers.map((value) => sql`${value}::bigint`), sql`${id}::uuid`], sql`, `);
  return direction === 'desc' ? sql`(${row}) < (${position})` : sql`(${row}) > (${position})`;
}

/** The columns of a tutor's card, all kept on their users row. */
export const tutorCardColumns = () => ({
  id: u.id,
  username: u.username,
  image: u.image,
  headline: u.headline,
  ...tutorTrustColumns(u),
  hourlyRateCents: u.hourlyRateCents,
  responseMinutes: u.responseMinutes,
  subjects: u.subjectNames,
});

/** A page of tutors; signed-out visitors see only the tutors visible to visitors. Suspended tutors never appear. */
export async function listDirectory({
  db,
  query,
  isSignedIn,
}: {
  db: Executor;
  query: DirectoryQuery;
  isSignedIn: boolean;
}): Promise<DirectoryPage> {
  // A subject that does not exist is refused as everywhere else, rather than answered with no tutors.
  if (query.subjects.length > 0) {
    const known = await db.$count(subjects, inArray(subjects.id, query.subjects));
    if (known < query.subjects.length) throw fieldError('subjects', directoryMessages.subjects);
  }
  const { keys, direction } = SORT_KEYS[query.sort];
  const text = toPrefixQuery(query.q);
  // A filtered page walks the sort's index until it has a page of matches, testing each row on the way. PostgreSQL
  // tests a row's conditions in the order written when they cost alike, so the cheap comparisons of numbers come
  // first and the text match, by far the dearest, last: it runs only on the rows every other filter kept.
  const conditions = [
    pastCursor(query.sort, query.cursor),
    eq(u.role, 'teacher'),
    eq(u.isSystem, false),
    isNull(u.suspendedAt),
    isNull(u.deletionRequestedAt),
    isSignedIn ? undefined : eq(u.isVisibleToVisitors, true),
    // Half stars are whole numbers when doubled: sum / count >= min without division.
    query.minRating === undefined
      ? undefined
      : sql`${u.reviewCount} > 0 and ${u.reviewRatingSum} * 2 >= ${query.minRating * 2} * ${u.reviewCount}`,
    query.minRateCents === undefined ? undefined : sql`${u.hourlyRateCents} >= ${query.minRateCents}`,
    query.maxRateCents === undefined ? undefined : sql`${u.hourlyRateCents} <= ${query.maxRateCents}`,
    query.respondsWithin === undefined ? undefined : sql`${u.responseMinutes} <= ${query.respondsWithin}`,
    query.subjects.length === 0 ? undefined : sql`${u.subjectIds} && ${sql.param(query.subjects)}::uuid[]`,
    text === null ? undefined : sql`${u.searchDocument} @@ to_tsquery('english', ${text})`,
  ];
  const rows = await db
    .select({
      ...tutorCardColumns(),
      cursorKeys: sql<string>`concat_ws('.', ${sql.join(keys, sql`, `)})`,
    })
    .from(u)
    .where(and(...conditions))
    .orderBy(...[...keys, sql`${u.id}`].map((key) => sql`${key} ${sql.raw(direction)}`))
    .limit(DIRECTORY.pageSize + 1);
  const page = rows.slice(0, DIRECTORY.pageSize);
  const last = page.at(-1);
  return {
    tutors: page.map(({ cursorKeys: _, ...row }) => ({ ...row, ...toTutorTrust(row) })),
    nextCursor: rows.length > DIRECTORY.pageSize && last ? `${last.cursorKeys}_${last.id}` : null,
  };
}
