import { LogOut, ReceiptText, Settings, UserRound, Wallet } from 'lucide-react';
import { Link } from 'react-router';
import { Avatar } from '#web/components/ui/avatar.tsx';
import type { SessionUser } from '#web/lib/auth-client.ts';
import { cn } from '#web/lib/utils.ts';
import { paths } from '#shared/paths.ts';
import { usePaymentsShown } from '#web/lib/settings.ts';
import { displayName } from './display-name.ts';
import { mobileLinkClasses } from './nav-link-classes.ts';
import { useLogout } from './use-logout.ts';

export function MobileAccount({ user, onNavigate }: { user: SessionUser; onNavigate: () => void }) {
  const { logout, isPending } = useLogout();
  const paymentsShown = usePaymentsShown();
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
      <Link to={paths.profile.getHref()} className={cn(mobileLinkClasses, 'gap-3')} onClick={onNavigate}>
        <UserRound aria-hidden="true" className="size-5 text-muted-foreground" />
        Profile
      </Link>
      <Link to={paths.settings.account.getHref()} className={cn(mobileLinkClasses, 'gap-3')} onClick={onNavigate}>
        <Settings aria-hidden="true" className="size-5 text-muted-foreground" />
        Account settings
      </Link>
      {user.role === 'teacher' && paymentsShown && (
        <Link to={paths.earnings.getHref()} className={cn(mobileLinkClasses, 'gap-3')} onClick={onNavigate}>
          <Wallet aria-hidden="true" className="size-5 text-muted-foreground" />
          Earnings
        </Link>
      )}
      {user.role === 'student' && paymentsShown && (
        <Link to={paths.payments.getHref()} className={cn(mobileLinkClasses, 'gap-3')} onClick={onNavigate}>
          <ReceiptText aria-hidden="true" className="size-5 text-muted-foreground" />
          Payments
        </Link>
      )}
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
