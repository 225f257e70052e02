import { and, eq, ne, or, sql, type SQL } from 'drizzle-orm';
import { ADMIN_PERMISSIONS, SUB_ADMIN_ROLE, SUPER_ADMIN_ROLE, type AdminPermission } from '#shared/constants.ts';
import { adminMessages, type AdminListOrder, type SubAdmin, type SubAdminsPage } from '#shared/schemas/admin.ts';
import type { Database, Executor } from '../../db/client.ts';
import { cursorMicros, keysetOrderBy, pastCursor, toPage } from '../../db/keyset.ts';
import { adminPermissions, adminRoles } from '../../db/schema/admin.ts';
import { users } from '../../db/schema/auth.ts';
import { AppError } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { recordAdminAction } from './audit.ts';

// Sub-Admin Management: the super-admin gives existing accounts a sub-admin role with permissions, changes them and
// takes the role away. The super-admin itself is never listed or changed here.

const PAGE_SIZE = 25;
type Actor = Pick<SessionUser, 'id' | 'username'>;

function selectSubAdmins(db: Executor, where: SQL | undefined, limit: number, order: AdminListOrder = 'newest') {
  return db
    .select({
      userId: adminRoles.userId,
      username: users.username,
      roleName: adminRoles.roleName,
      permissions: sql<
        AdminPermission[]
      >`coalesce((select array_agg(${adminPermissions.permission}) from ${adminPermissions} where ${adminPermissions.adminRoleId} = ${adminRoles.id}), '{}')`,
      createdAt: adminRoles.createdAt,
      id: adminRoles.id,
      cursorMicros: cursorMicros(adminRoles.createdAt),
    })
    .from(adminRoles)
    .innerJoin(users, eq(users.id, adminRoles.userId))
    .where(and(ne(adminRoles.roleName, SUPER_ADMIN_ROLE), where))
    .orderBy(...keysetOrderBy(adminRoles.createdAt, adminRoles.id, order))
    .limit(limit);
}

const toSubAdmin = (row: Awaited<ReturnType<typeof selectSubAdmins>>[number]): SubAdmin => ({
  userId: row.userId,
  username: row.username,
  roleName: row.roleName,
  // In the order of the panel's menu, as /api/admin/me gives them.
  permissions: ADMIN_PERMISSIONS.filter((permission) => row.permissions.includes(permission)),
  createdAt: row.createdAt.toISOString(),
});

/** Sub-Admin Management: every admin role but super_admin, by Created At (newest first unless asked). */
export async function listSubAdmins({
  db,
  order,
  cursor,
}: {
  db: Executor;
  order: AdminListOrder;
  cursor?: string;
}): Promise<SubAdminsPage> {
  const after = pastCursor(adminRoles.createdAt, adminRoles.id, cursor, order);
  const rows = await selectSubAdmins(db, after, PAGE_SIZE + 1, order);
  const { page, nextCursor } = toPage(rows, PAGE_SIZE);
  return { items: page.map(toSubAdmin), nextCursor };
}

async function getSubAdmin(db: Executor, userId: string) {
  const [row] = await selectSubAdmins(db, eq(adminRoles.userId, userId), 1);
  if (!row) throw new AppError('NOT_FOUND', { message: adminMessages.notSubAdmin });
  return row;
}

/** Makes an existing account (by e-mail or username) a sub-admin: 404 no such account, 409 already an admin. */
export async function addSubAdmin({
  db,
  actor,
  input,
}: {
  db: Database;
  actor: Actor;
  input: { account: string; permissions: AdminPermission[] };
}): Promise<SubAdmin> {
  const account = input.account.toLowerCase();
  const userId = await db.transaction(async (tx) => {
    const [user] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(or(eq(users.email, account), eq(users.username, account)), eq(users.isSystem, false)))
      .limit(1);
    if (!user) {
      throw new AppError('NOT_FOUND', {
        message: adminMessages.accountNotFound,
        fields: { account: adminMessages.accountNotFound },
      });
    }
    const [role] = await tx
      .insert(adminRoles)
      .values({ userId: user.id, roleName: SUB_ADMIN_ROLE })
      .onConflictDoNothing()
      .returning({ id: adminRoles.id });
    if (!role) {
      throw new AppError('CONFLICT', {
        message: adminMessages.alreadyAdmin,
        fields: { account: adminMessages.alreadyAdmin },
      });
    }
    await tx
      .insert(adminPermissions)
      .values(input.permissions.map((permission) => ({ adminRoleId: role.id, permission })));
    await recordAdminAction(tx, {
      actor,
      action: 'sub_admin.add',
      objectType: 'user',
      objectId: user.id,
      after: { roleName: SUB_ADMIN_ROLE, permissions: input.permissions },
    });
    return user.id;
  });
  return toSubAdmin(await getSubAdmin(db, userId));
}

/** Replaces a sub-admin's permissions: 404 when the user is not a sub-admin. */
export async function updateSubAdmin({
  db,
  actor,
  userId,
  input,
}: {
  db: Database;
  actor: Actor;
  userId: string;
  input: { permissions: AdminPermission[] };
}): Promise<SubAdmin> {
  await db.transaction(async (tx) => {
    const before = await lockSubAdmin(tx, userId);
    await tx.delete(adminPermissions).where(eq(adminPermissions.adminRoleId, before.id));
    await tx
      .insert(adminPermissions)
      .values(input.permissions.map((permission) => ({ adminRoleId: before.id, permission })));
    await recordAdminAction(tx, {
      actor,
      action: 'sub_admin.update',
      objectType: 'user',
      objectId: userId,
      before: { permissions: before.permissions },
      after: { permissions: input.permissions },
    });
  });
  return toSubAdmin(await getSubAdmin(db, userId));
}

/** Takes the sub-admin role (and its permissions) away: 404 when the user is not a sub-admin. */
export async function removeSubAdmin({ db, actor, userId }: { db: Database; actor: Actor; userId: string }) {
  await db.transaction(async (tx) => {
    const before = await lockSubAdmin(tx, userId);
    await tx.delete(adminRoles).where(eq(adminRoles.id, before.id));
    await recordAdminAction(tx, {
      actor,
      action: 'sub_admin.remove',
      objectType: 'user',
      objectId: userId,
      before: { roleName: before.roleName, permissions: before.permissions },
    });
  });
}

async function lockSubAdmin(tx: Executor, userId: string) {
  const [locked] = await tx
    .select({ id: adminRoles.id })
    .from(adminRoles)
    .where(and(eq(adminRoles.userId, userId), ne(adminRoles.roleName, SUPER_ADMIN_ROLE)))
    .for('update');
  if (!locked) throw new AppError('NOT_FOUND', { message: adminMessages.notSubAdmin });
  return getSubAdmin(tx, userId);
}
