import { Camera, LogOut, Menu, X } from 'lucide-react';
import { Dialog as DialogPrimitive } from 'radix-ui';
import { useNavigate } from 'react-router';
import { useMutation } from '@tanstack/react-query';
import { toast } from '#web/lib/toast.ts';
import { Avatar } from '#web/components/ui/avatar.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { signOut, type SessionUser } from '#web/lib/auth-client.ts';
import { lazyWithPreload } from '#web/components/lazy-with-preload.tsx';
import { paths } from '#shared/paths.ts';

// Picking a new picture brings its checks: loaded when the drawer is reached for, not with the chat.
const ChangeAvatarDialog = lazyWithPreload(
  async () => (await import('#web/components/change-avatar-dialog.tsx')).ChangeAvatarDialog,
  {
    // The button it will be, disabled, so that nothing moves when it arrives.
    fallback: (
      <Button variant="outline" size="sm" disabled>
        <Camera aria-hidden="true" />
        Change picture
      </Button>
    ),
  },
);

/** The sidebar's menu: a side sheet with the user's picture (Change picture), name, VH number and Sign Out. */
export function ProfileDrawer({ user }: { user: SessionUser }) {
  const navigate = useNavigate();
  const name = user.username || user.email;
  const logout = useMutation({
    mutationFn: signOut,
    onSuccess: async () => {
      toast.success('Logged out successfully');
      await navigate(paths.home.getHref());
    },
    onError: () => toast.error('Error signing out'),
  });

  return (
    <DialogPrimitive.Root>
      <DialogPrimitive.Trigger asChild>
        <Button
          variant="ghost"
          size="icon"
          aria-label="Open profile menu"
          onPointerEnter={ChangeAvatarDialog.preload}
          onFocus={ChangeAvatarDialog.preload}
        >
          <Menu aria-hidden="true" className="size-5" />
        </Button>
      </DialogPrimitive.Trigger>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-slate-950/60 data-[state=open]:animate-fade-in" />
        <DialogPrimitive.Content className="fixed inset-y-0 left-0 z-50 flex w-80 max-w-[85vw] flex-col gap-6 border-r bg-popover p-6 text-popover-foreground shadow-lg">
          <div className="flex items-center justify-between">
            <DialogPrimitive.Title className="text-lg font-semibold">Profile</DialogPrimitive.Title>
            <DialogPrimitive.Close asChild>
              <Button variant="ghost" size="icon" aria-label="Close">
                <X aria-hidden="true" />
              </Button>
            </DialogPrimitive.Close>
          </div>
          <DialogPrimitive.Description className="sr-only">
            Your picture, name and Virtual Help number
          </DialogPrimitive.Description>
          <div className="flex flex-col items-center gap-3 text-center">
            <Avatar name={name} src={user.image} className="size-24 text-3xl" />
            <ChangeAvatarDialog displayName={name} currentImage={user.image} />
            <p className="mt-2 max-w-full truncate text-lg font-semibold">{name}</p>
            {user.vhNumber && <p className="text-sm text-muted-foreground">VH number: {user.vhNumber}</p>}
          </div>
          <Button variant="outline" className="mt-auto" loading={logout.isPending} onClick={() => logout.mutate()}>
            <LogOut aria-hidden="true" />
            Sign Out
          </Button>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
