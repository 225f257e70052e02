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
    // One line whatever the name's length: the user's part arrives after the frame and must not push the page down.
    <div className="flex items-center justify-between gap-3">
      <Button asChild variant="ghost" className="-ml-3 shrink-0">
        <Link to={backTo}>
          <ArrowLeft aria-hidden="true" />
          {backLabel}
        </Link>
      </Button>
      {user && (
        <div className="flex min-w-0 items-center gap-2">
          <Avatar name={user.username} src={user.image} />
          <div className="min-w-0 text-sm leading-tight">
            <p className="truncate font-medium">{user.username}</p>
            <p className="text-muted-foreground">VH number: {user.vhNumber}</p>
          </div>
        </div>
      )}
    </div>
  );
}
