import { and, eq, exists, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import { ADMIN_PERMISSIONS, SUPER_ADMIN_ROLE, type AdminPermission } from '#shared/constants.ts';
import { adminMessages, type AdminAccess, type AdminStats } from '#shared/schemas/admin.ts';
import { twoFactorMessages } from '#shared/two-factor.ts';
import type { FastifyRequest } from 'fastify';
import type { Database } from '../../db/client.ts';
import { adminPermissions, adminRoles } from '../../db/schema/admin.ts';
import { users } from '../../db/schema/auth.ts';
import { chatRooms } from '../../db/schema/chat.ts';
import { illegalContentFlags, userReports } from '../../db/schema/moderation.ts';
import { AppError } from '../../http/errors.ts';
import { recordAdminAction } from './audit.ts';
import { requireUser } from '../../http/session.ts';
import { paymentTotals } from '../payments/service.ts';

/**
 * The user's admin role, permissions and second factor, or null for everyone else. The super-admin must have a second
 * factor (decision 0034); a sub-admin may.
 */
async function getAdminAccess(db: Database, userId: string): Promise<AdminAccess | null> {
  const [role] = await db
    .select({ id: adminRoles.id, roleName: adminRoles.roleName, twoFactorEnabled: users.twoFactorEnabled })
    .from(adminRoles)
    .innerJoin(users, eq(users.id, adminRoles.userId))
    .where(eq(adminRoles.userId, userId))
    .limit(1);
  if (!role) return null;
  const { roleName, twoFactorEnabled } = role;
  if (roleName === SUPER_ADMIN_ROLE) {
    return {
      roleName,
      isSuperAdmin: true,
      permissions: [...ADMIN_PERMISSIONS],
      twoFactorEnabled,
      twoFactorRequired: true,
    };
  }
  const rows = await db
    .select({ permission: adminPermissions.permission })
    .from(adminPermissions)
    .where(eq(adminPermissions.adminRoleId, role.id));
  const granted = new Set(rows.map((row) => row.permission));
  return {
    roleName,
    isSuperAdmin: false,
    permissions: ADMIN_PERMISSIONS.filter((permission) => granted.has(permission)),
    twoFactorEnabled,
    twoFactorRequired: false,
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

/** Whether the user has an admin role (who may turn on a second factor). */
export async function hasAdminRole(db: Database, userId: string) {
  const [row] = await db
    .select({ isAdmin: isAdminUser(userId) })
    .from(users)
    .where(eq(users.id, userId));
  return row?.isAdmin ?? false;
}

/** Whether the user is the super-admin, who keeps the second factor once it is on (decision 0034). */
export async function isSuperAdmin(db: Database, userId: string) {
  return (
    (await db.$count(adminRoles, and(eq(adminRoles.userId, userId), eq(adminRoles.roleName, SUPER_ADMIN_ROLE)))) > 0
  );
}

/** Records a change an admin made to their own second factor (turned off, new backup codes) in the audit log. */
export async function recordSecondFactorChange(db: Database, { adminId, action }: { adminId: string; action: string }) {
  await recordAdminAction(db, { actor: { id: adminId }, action, objectType: 'user', objectId: adminId });
}

/** The signed-in admin's access, even before a required second factor is set up (the panel asks for it then). */
export async function readAdminAccess(request: FastifyRequest, db: Database) {
  const user = await requireUser(request);
  const access = await getAdminAccess(db, user.id);
  if (!access) throw new AppError('FORBIDDEN', { message: adminMessages.onlyAdmins });
  return { user, access };
}

/** What an admin route needs: any admin role (none), a page's permission, or the super-admin. */
export type AdminArea = AdminPermission | typeof SUPER_ADMIN_ROLE;

/**
 * The permission guard of every admin route, checked against the database on every call (the browser's flag is
 * only a cache): signed out 401; not an admin, an admin whose required second factor is not set up yet, a sub-admin
 * without the area's permission, or a sub-admin where only the super-admin may act, 403.
 */
export async function requireAdmin(request: FastifyRequest, db: Database, area?: AdminArea) {
  const { user, access } = await readAdminAccess(request, db);
  if (access.twoFactorRequired && !access.twoFactorEnabled) {
    throw new AppError('FORBIDDEN', { message: twoFactorMessages.required });
  }
  if (area === SUPER_ADMIN_ROLE && !access.isSuperAdmin) {
    throw new AppError('FORBIDDEN', { message: adminMessages.onlySuperAdmin });
  }
  if (area && area !== SUPER_ADMIN_ROLE && !access.permissions.includes(area)) {
    throw new AppError('FORBIDDEN', { message: adminMessages.missingPermission });
  }
  return { user, access };
}

/**
 * The dashboard counters, each one aggregate (no rows are loaded); the money counters only for an admin who may see
 * payments, on a site that takes them (`takesPayments`: not PAYMENTS_PROVIDER=none).
 */
export async function getAdminStats(
  db: Database,
  access: AdminAccess,
  { takesPayments }: { takesPayments: boolean },
): Promise<AdminStats> {
  const [totalChats, totalUsers, activeReports, flaggedContent, payments] = await Promise.all([
    db.$count(chatRooms),
    db.$count(users, eq(users.isSystem, false)),
    db.$count(userReports, eq(userReports.status, 'pending')),
    db.$count(illegalContentFlags, eq(illegalContentFlags.status, 'pending')),
    takesPayments && access.permissions.includes('payments') ? paymentTotals(db) : null,
  ]);
  return { totalChats, totalUsers, activeReports, flaggedContent, payments };
}
