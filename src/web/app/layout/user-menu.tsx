import { ChevronDown, LogOut } from 'lucide-react';
import { Link } from 'react-router';
import { Avatar } from '#web/components/ui/avatar.tsx';
import { Button } from '#web/components/ui/button.tsx';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '#web/components/ui/dropdown-menu.tsx';
import type { SessionUser } from '#web/lib/auth-client.ts';
import { usePaymentsShown } from '#web/lib/settings.ts';
import { getAccountLinks } from './account-links.ts';
import { displayName } from './display-name.ts';
import { useLogout } from './use-logout.ts';

export function UserMenu({ user }: { user: SessionUser }) {
  const { logout, isPending } = useLogout();
  const links = getAccountLinks(user.role, usePaymentsShown());
  const name = displayName(user);
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" className="gap-2 px-2" aria-label={`User menu for ${name}`}>
          <Avatar name={name} src={user.image} />
          <span className="max-w-40 truncate">{name}</span>
          <ChevronDown aria-hidden="true" className="text-muted-foreground" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-60">
        <DropdownMenuLabel className="flex flex-col gap-0.5">
          <span className="truncate">{name}</span>
          <span className="truncate text-xs font-normal text-muted-foreground">{user.email}</span>
          {user.vhNumber && (
            <span className="text-xs font-normal text-muted-foreground">VH number: {user.vhNumber}</span>
          )}
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        {links.map(({ href, label, icon: Icon }) => (
          <DropdownMenuItem key={href} asChild>
            <Link to={href}>
              <Icon aria-hidden="true" />
              {label}
            </Link>
          </DropdownMenuItem>
        ))}
        <DropdownMenuItem disabled={isPending} onSelect={logout}>
          <LogOut aria-hidden="true" />
          Logout
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
