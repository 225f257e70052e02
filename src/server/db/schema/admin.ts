import { check, index, jsonb, pgTable, text, unique, uuid } from 'drizzle-orm/pg-core';
import { ADMIN_PERMISSIONS } from '#shared/constants.ts';
import { users } from './auth.ts';
import { createdAt, id, inList } from './columns.ts';

/** A user with admin access: SUPER_ADMIN_ROLE for the fixed admin, any other name for sub-admins. */
export const adminRoles = pgTable('admin_roles', {
  id: id(),
  userId: uuid('user_id')
    .notNull()
    .unique()
    .references(() => users.id, { onDelete: 'cascade' }),
  roleName: text('role_name').notNull(),
  createdAt: createdAt(),
});

/** Admin pages a sub-admin may use (the super admin needs no rows). */
export const adminPermissions = pgTable(
  'admin_permissions',
  {
    id: id(),
    adminRoleId: uuid('admin_role_id')
      .notNull()
      .references(() => adminRoles.id, { onDelete: 'cascade' }),
    permission: text('permission', { enum: ADMIN_PERMISSIONS }).notNull(),
  },
  (t) => [
    check('admin_permissions_permission_check', inList(t.permission, ADMIN_PERMISSIONS)),
    unique('admin_permissions_role_permission_key').on(t.adminRoleId, t.permission),
  ],
);

/**
 * Every admin action, written in the transaction of the action itself: who, what, on which object, the object before
 * and after. Append-only in the database: a trigger (migration 0015) refuses every UPDATE, DELETE and TRUNCATE.
 */
export const adminAuditLog = pgTable(
  'admin_audit_log',
  {
    id: id(),
    // Only the id, with no foreign key: the record outlives the admin's account, which leaves just this id behind.
    actorId: uuid('actor_id'),
    action: text('action').notNull(),
    objectType: text('object_type').notNull(),
    objectId: text('object_id').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    createdAt: createdAt(),
  },
  (t) => [index('admin_audit_log_created_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())],
);
