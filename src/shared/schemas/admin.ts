import { z } from 'zod';
import { ADMIN_PERMISSIONS } from '#shared/constants.ts';

// The admin panel (SPEC.md §2 "Admin panel", §8 admin texts), shared by the pages and the API.

export const adminMessages = {
  accessDenied: 'Access Denied - Invalid credentials or not authorized',
  checkFailed: 'Error - An error occurred while checking admin access.',
  accessGranted: 'Success - Admin access granted',
  statsFailed: 'Failed to fetch dashboard statistics.',
} as const;

/** Who the signed-in admin is: the super-admin may use every page, a sub-admin only its permissions. */
export const adminAccessSchema = z.object({
  roleName: z.string(),
  isSuperAdmin: z.boolean(),
  permissions: z.array(z.enum(ADMIN_PERMISSIONS)),
});
export type AdminAccess = z.infer<typeof adminAccessSchema>;

export const adminStatsSchema = z.object({
  totalChats: z.number().int(),
  totalUsers: z.number().int(),
  activeReports: z.number().int(),
  flaggedContent: z.number().int(),
});
export type AdminStats = z.infer<typeof adminStatsSchema>;
