import { LogOut } from 'lucide-react';
import { Link } from 'react-router';
import { Avatar } from '#web/components/ui/avatar.tsx';
import type { SessionUser } from '#web/lib/auth-client.ts';
import { usePaymentsShown } from '#web/lib/settings.ts';
import { cn } from '#web/lib/utils.ts';
import { getAccountLinks } from './account-links.ts';
import { displayName } from './display-name.ts';
import { mobileLinkClasses } from './nav-link-classes.ts';
import { useLogout } from './use-logout.ts';

export function MobileAccount({ user, onNavigate }: { user: SessionUser; onNavigate: () => void }) {
  const { logout, isPending } = useLogout();
  const links = getAccountLinks(user.role, usePaymentsShown());
  const name = displayName(user);
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-center gap-3 px-3 py-2">
        <Avatar name={name} src={user.image} className="size-10 text-base" />
        <div className="min-w-0">
          <p className="truncate font-medium">{name}</p>
          {user.vhNumber && <p className="text-sm text-muted-foreground">VH number: {user.vhNumber}</p>}
        </div>
      </div>
      {links.map(({ href, label, icon: Icon }) => (
        <Link key={href} to={href} className={cn(mobileLinkClasses, 'gap-3')} onClick={onNavigate}>
          <Icon aria-hidden="true" className="size-5 text-muted-foreground" />
          {label}
        </Link>
      ))}
      <button
        type="button"
        className={cn(mobileLinkClasses, 'cursor-pointer gap-3 text-left disabled:opacity-60')}
        onClick={logout}
        disabled={isPending}
      >
        <LogOut aria-hidden="true" className="size-5 text-muted-foreground" />
        Logout
      </button>
    </div>
  );
}
