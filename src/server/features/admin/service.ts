import { eq, exists, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import { ADMIN_PERMISSIONS, SUPER_ADMIN_ROLE, type AdminPermission } from '#shared/constants.ts';
import { adminMessages, type AdminAccess, type AdminStats } from '#shared/schemas/admin.ts';
import type { FastifyRequest } from 'fastify';
import type { Database } from '../../db/client.ts';
import { adminPermissions, adminRoles } from '../../db/schema/admin.ts';
import { users } from '../../db/schema/auth.ts';
import { chatRooms } from '../../db/schema/chat.ts';
import { illegalContentFlags, userReports } from '../../db/schema/moderation.ts';
import { AppError } from '../../http/errors.ts';
import { requireUser } from '../../http/session.ts';

/** The user's admin role and permissions, or null for everyone else. */
async function getAdminAccess(db: Database, userId: string): Promise<AdminAccess | null> {
  const [role] = await db
    .select({ id: adminRoles.id, roleName: adminRoles.roleName })
    .from(adminRoles)
    .where(eq(adminRoles.userId, userId))
    .limit(1);
  if (!role) return null;
  if (role.roleName === SUPER_ADMIN_ROLE) {
    return { roleName: role.roleName, isSuperAdmin: true, permissions: [...ADMIN_PERMISSIONS] };
  }
  const rows = await db
    .select({ permission: adminPermissions.permission })
    .from(adminPermissions)
    .where(eq(adminPermissions.adminRoleId, role.id));
  const granted = new Set(rows.map((row) => row.permission));
  return {
    roleName: role.roleName,
    isSuperAdmin: false,
    permissions: ADMIN_PERMISSIONS.filter((permission) => granted.has(permission)),
  };
}

/**
 * Whether the user holds an admin role, as a condition other features' queries embed (admins are never found in a
 * search nor reported). `userId` is a column of the outer query or an id.
 */
export function isAdminUser(userId: AnyColumn | string): SQL<boolean> {
  // A built subquery keeps its columns qualified, which raw SQL in a single-table select would not.
  const roles = new QueryBuilder()
    .select({ one: sql`1` })
    .from(adminRoles)
    .where(eq(adminRoles.userId, userId));
  return exists(roles) as SQL<boolean>;
}

/** What an admin route needs: any admin role (none), a page's permission, or the super-admin. */
export type AdminArea = AdminPermission | typeof SUPER_ADMIN_ROLE;

/**
 * The permission guard of every admin route, checked against the database on every call (the browser's flag is
 * only a cache): signed out 401; not an admin, a sub-admin without the area's permission, or a sub-admin where only
 * the super-admin may act, 403.
 */
export async function requireAdmin(request: FastifyRequest, db: Database, area?: AdminArea) {
  const user = await requireUser(request);
  const access = await getAdminAccess(db, user.id);
  if (!access) throw new AppError('FORBIDDEN', { message: adminMessages.onlyAdmins });
  if (area === SUPER_ADMIN_ROLE && !access.isSuperAdmin) {
    throw new AppError('FORBIDDEN', { message: adminMessages.onlySuperAdmin });
  }
  if (area && area !== SUPER_ADMIN_ROLE && !access.permissions.includes(area)) {
    throw new AppError('FORBIDDEN', { message: adminMessages.missingPermission });
  }
  return { user, access };
}

/** The dashboard counters, each one aggregate count (no rows are loaded). */
export async function getAdminStats(db: Database): Promise<AdminStats> {
  const [totalChats, totalUsers, activeReports, flaggedContent] = await Promise.all([
    db.$count(chatRooms),
    db.$count(users, eq(users.isSystem, false)),
    db.$count(userReports, eq(userReports.status, 'pending')),
    db.$count(illegalContentFlags, eq(illegalContentFlags.status, 'pending')),
  ]);
  return { totalChats, totalUsers, activeReports, flaggedContent };
}
