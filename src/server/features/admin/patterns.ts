import { createContext, runInContext } from 'node:vm';
import { and, eq, sql } from 'drizzle-orm';
import safeRegex from 'safe-regex2';
import type { ModerationCategory } from '#shared/constants.ts';
import {
  adminMessages,
  type AdminListOrder,
  type AdminModerationPattern,
  type PatternsPage,
} from '#shared/schemas/admin.ts';
import type { Database, Executor } from '../../db/client.ts';
import { cursorMicros, keysetOrderBy, pastCursor, toPage } from '../../db/keyset.ts';
import { moderationPatterns } from '../../db/schema/moderation.ts';
import { AppError, fieldError } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { recordAdminAction } from './audit.ts';

// Moderation patterns: case-insensitive regular expressions the chat filter blocks, kept by the admins. A pattern
// is checked before it is saved: it compiles (in JavaScript, where the filter runs, and PostgreSQL), it is not
// prone to catastrophic backtracking (safe-regex2, then timed runs on long probes), and it blocks the admin's sample message within a time bound without
// matching an empty message.

const PAGE_SIZE = 25;
/** How long trying a pattern on the sample may take; a pattern that needs longer would stall every chat message. */
const TRIAL_TIMEOUT_MS = 100;
const TRIAL_RETRY_TIMEOUT_MS = 500;
type Actor = Pick<SessionUser, 'id' | 'username'>;

/**
 * Whether `pattern` matches each text as the filter runs it, or 'timeout' as soon as one takes longer than the
 * bound twice. One separate context with a timeout: a runaway match is stopped there instead of blocking the event
 * loop. The bound is wall time, so a run that times out once is tried again with a longer one: a busy machine does not
 * refuse a harmless pattern, while an exponential one (2^40 steps on the probes) fails both.
 */
function tryPattern(pattern: string, texts: string[]): boolean[] | 'timeout' {
  const context = createContext({ pattern, texts });
  const run = (index: number, timeout: number) =>
    runInContext(`new RegExp(pattern, 'gi').test(texts[${index}])`, context, { timeout }) as boolean;
  const isTimeout = (error: unknown) => (error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT';
  const results: boolean[] = [];
  for (const index of texts.keys()) {
    try {
      results.push(run(index, TRIAL_TIMEOUT_MS));
    } catch (error) {
      if (!isTimeout(error)) throw error;
      try {
        results.push(run(index, TRIAL_RETRY_TIMEOUT_MS));
      } catch (retryError) {
        if (isTimeout(retryError)) return 'timeout';
        throw retryError;
      }
    }
  }
  return results;
}

/** Refuses a pattern that would not compile, could hang the matcher, blocks everything or misses the sample: 400. */
async function assertUsablePattern(db: Executor, pattern: string, sample: string) {
  try {
    new RegExp(pattern, 'gi');
  } catch {
    throw fieldError('pattern', adminMessages.patternInvalid);
  }
  if (!safeRegex(pattern)) throw fieldError('pattern', adminMessages.patternUnsafe);
  try {
    await db.execute(sql`select '' ~* ${pattern}`);
  } catch {
    throw fieldError('pattern', adminMessages.patternInvalid);
  }
  // safe-regex2 misses some exponential shapes (overlapping alternatives such as (x|x)*y): long runs of the sample's
  // characters ending in a character that fails the match bring them out within the bound.
  const probes = [...new Set(sample)].slice(0, 12).map((character) => `${character.repeat(40)}\u0000`);
  const results = tryPattern(pattern, ['', sample, ...probes]);
  if (results === 'timeout') throw fieldError('pattern', adminMessages.patternUnsafe);
  const [onEmpty, onSample] = results;
  if (onEmpty) throw fieldError('pattern', adminMessages.patternMatchesEverything);
  if (!onSample) throw fieldError('sample', adminMessages.sampleNotMatched);
}

const patternColumns = {
  id: moderationPatterns.id,
  pattern: moderationPatterns.pattern,
  category: moderationPatterns.category,
  description: moderationPatterns.description,
  isActive: moderationPatterns.isActive,
  createdAt: moderationPatterns.createdAt,
};
const toPattern = (row: { createdAt: Date } & Omit<AdminModerationPattern, 'createdAt'>): AdminModerationPattern => ({
  id: row.id,
  pattern: row.pattern,
  category: row.category,
  description: row.description,
  isActive: row.isActive,
  createdAt: row.createdAt.toISOString(),
});

/** The patterns, newest first unless asked otherwise, active or inactive ones only when asked. */
export async function listPatterns({
  db,
  status,
  order,
  cursor,
}: {
  db: Executor;
  status?: 'active' | 'inactive';
  order: AdminListOrder;
  cursor?: string;
}): Promise<PatternsPage> {
  const rows = await db
    .select({ ...patternColumns, cursorMicros: cursorMicros(moderationPatterns.createdAt) })
    .from(moderationPatterns)
    .where(
      and(
        status ? eq(moderationPatterns.isActive, status === 'active') : undefined,
        pastCursor(moderationPatterns.createdAt, moderationPatterns.id, cursor, order),
      ),
    )
    .orderBy(...keysetOrderBy(moderationPatterns.createdAt, moderationPatterns.id, order))
    .limit(PAGE_SIZE + 1);
  const { page, nextCursor } = toPage(rows, PAGE_SIZE);
  return { items: page.map(toPattern), nextCursor };
}

/** Saves a checked pattern, active at once: 400 unusable, 409 the same pattern in the same category. */
export async function createPattern({
  db,
  actor,
  input,
}: {
  db: Database;
  actor: Actor;
  input: { pattern: string; category: ModerationCategory; description: string | null; sample: string };
}): Promise<AdminModerationPattern> {
  await assertUsablePattern(db, input.pattern, input.sample);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(moderationPatterns)
      .values({
        pattern: input.pattern,
        category: input.category,
        description: input.description,
        createdBy: actor.id,
      })
      .onConflictDoNothing()
      .returning(patternColumns);
    if (!row)
      throw new AppError('CONFLICT', {
        message: adminMessages.patternExists,
        fields: { pattern: adminMessages.patternExists },
      });
    const pattern = toPattern(row);
    await recordAdminAction(tx, {
      actor,
      action: 'pattern.add',
      objectType: 'moderation_pattern',
      objectId: row.id,
      after: { pattern: pattern.pattern, category: pattern.category, isActive: true, sample: input.sample },
    });
    return pattern;
  });
}

/** Enables or disables a pattern: 404 unknown. */
export async function setPatternActive({
  db,
  actor,
  patternId,
  isActive,
}: {
  db: Database;
  actor: Actor;
  patternId: string;
  isActive: boolean;
}): Promise<AdminModerationPattern> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ isActive: moderationPatterns.isActive })
      .from(moderationPatterns)
      .where(eq(moderationPatterns.id, patternId))
      .for('update');
    if (!before) throw new AppError('NOT_FOUND');
    const [row] = await tx
      .update(moderationPatterns)
      .set({ isActive })
      .where(eq(moderationPatterns.id, patternId))
      .returning(patternColumns);
    await recordAdminAction(tx, {
      actor,
      action: isActive ? 'pattern.enable' : 'pattern.disable',
      objectType: 'moderation_pattern',
      objectId: patternId,
      before,
      after: { isActive },
    });
    return toPattern(row!);
  });
}
