import { desc, eq } from 'drizzle-orm';
import type { AuditLogPage } from '#shared/schemas/admin.ts';
import type { Executor } from '../../db/client.ts';
import { cursorMicros, olderThan, toPage } from '../../db/keyset.ts';
import { adminAuditLog } from '../../db/schema/admin.ts';
import { users } from '../../db/schema/auth.ts';
import type { SessionUser } from '../../http/session.ts';

const AUDIT_PAGE_SIZE = 50;

/**
 * Records an admin action. Pass the action's own transaction, so the record exists exactly when the action does;
 * `before` and `after` are the changed object as the admin saw it and left it.
 */
export async function recordAdminAction(
  tx: Executor,
  entry: {
    actor: Pick<SessionUser, 'id'>;
    action: string;
    objectType: string;
    objectId: string;
    before?: unknown;
    after?: unknown;
  },
) {
  await tx.insert(adminAuditLog).values({
    actorId: entry.actor.id,
    action: entry.action,
    objectType: entry.objectType,
    objectId: entry.objectId,
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}

/** The audit log, newest first; the actor's name while their account exists (an erased one leaves its id). */
export async function listAuditLog({ db, cursor }: { db: Executor; cursor?: string }): Promise<AuditLogPage> {
  const rows = await db
    .select({
      id: adminAuditLog.id,
      actorId: adminAuditLog.actorId,
      actorName: users.username,
      action: adminAuditLog.action,
      objectType: adminAuditLog.objectType,
      objectId: adminAuditLog.objectId,
      before: adminAuditLog.before,
      after: adminAuditLog.after,
      createdAt: adminAuditLog.createdAt,
      cursorMicros: cursorMicros(adminAuditLog.createdAt),
    })
    .from(adminAuditLog)
    .leftJoin(users, eq(users.id, adminAuditLog.actorId))
    .where(olderThan(adminAuditLog.createdAt, adminAuditLog.id, cursor))
    .orderBy(desc(adminAuditLog.createdAt), desc(adminAuditLog.id))
    .limit(AUDIT_PAGE_SIZE + 1);
  const { page, nextCursor } = toPage(rows, AUDIT_PAGE_SIZE);
  return {
    items: page.map((row) => ({
      id: row.id,
      actor: { id: row.actorId, name: row.actorName },
      action: row.action,
      objectType: row.objectType,
      objectId: row.objectId,
      before: row.before,
      after: row.after,
      createdAt: row.createdAt.toISOString(),
    })),
    nextCursor,
  };
}
