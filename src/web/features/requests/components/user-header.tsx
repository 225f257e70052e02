import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Avatar } from '#web/components/ui/avatar.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { useSession } from '#web/lib/auth-client.ts';

/** The strip above the marketplace pages: a way back, and who is signed in (username, avatar, VH number). */
export function UserHeader({ backTo, backLabel }: { backTo: string; backLabel: string; children?: ReactNode }) {
  const { user } = useSession();
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <Button asChild variant="ghost" className="-ml-3">
        <Link to={backTo}>
          <ArrowLeft aria-hidden="true" />
          {backLabel}
        </Link>
      </Button>
      {user && (
        <div className="flex items-center gap-2">
          <Avatar name={user.username} src={user.image} />
          <div className="text-sm leading-tight">
            <p className="font-medium">{user.username}</p>
            <p className="text-muted-foreground">VH number: {user.vhNumber}</p>
          </div>
        </div>
      )}
    </div>
  );
}
