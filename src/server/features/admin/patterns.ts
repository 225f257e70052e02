import { and, eq } from 'drizzle-orm';
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
import { AppError } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { assertUsablePattern } from '../moderation/service.ts';
import { recordAdminAction } from './audit.ts';

// Moderation patterns: case-insensitive regular expressions the filter refuses texts with, kept by the admins. The
// moderation feature checks a pattern before it is saved (it runs in the linear-time engine, stays fast on long
// texts, leaves ordinary messages alone and blocks the admin's sample).

const PAGE_SIZE = 25;
type Actor = Pick<SessionUser, 'id' | 'username'>;

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
  assertUsablePattern(input.pattern, input.sample);
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
