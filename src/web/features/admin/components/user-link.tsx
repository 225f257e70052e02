import { Link } from 'react-router';
import type { AdminUserRef } from '#shared/schemas/admin.ts';
import { paths } from '#shared/paths.ts';
import { useAdminAccess } from '../api.ts';

/** A username, linked to the user's page for admins who may open it. */
export function UserLink({ user, fallback }: { user: AdminUserRef | null; fallback: string }) {
  const access = useAdminAccess(true);
  if (!user) return <span className="text-muted-foreground">{fallback}</span>;
  if (!access.data?.permissions.includes('users')) return <>{user.username}</>;
  return (
    <Link
      to={paths.admin.user.getHref(user.id)}
      className="font-medium text-primary underline-offset-4 hover:underline focus-visible:underline"
    >
      {user.username}
    </Link>
  );
}

/** A username as UserLink shows it, followed by the user's VH number: how the money screens name a person. */
export function UserWithVhNumber({ user }: { user: AdminUserRef & { vhNumber: number } }) {
  return (
    <span>
      <UserLink user={user} fallback="" /> <span className="text-muted-foreground">VH {user.vhNumber}</span>
    </span>
  );
}
