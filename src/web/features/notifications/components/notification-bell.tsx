import { formatDistanceToNow } from 'date-fns';
import { Bell } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from '#web/lib/toast.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Popover, PopoverContent, PopoverTrigger } from '#web/components/ui/popover.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { cn } from '#web/lib/utils.ts';
import { useMarkAllNotificationsRead, useMarkNotificationRead, useNotifications } from '../api.ts';
import { badgeText } from '../badge-text.ts';

/** The bell of the top bar: unread count and the latest 20 in a popover, kept live by the app's live updates. */
export function NotificationBell({ className }: { className?: string }) {
  const navigate = useNavigate();
  const [isOpen, setOpen] = useState(false);
  const query = useNotifications();
  const markRead = useMarkNotificationRead();
  const markAll = useMarkAllNotificationsRead();

  const unread = query.data?.unreadCount ?? 0;
  const onOpenChange = (open: boolean) => {
    setOpen(open);
    if (open) void query.refetch();
  };

  return (
    <Popover open={isOpen} onOpenChange={onOpenChange}>
      <PopoverTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className={cn('relative', className)}
          aria-label={unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'}
        >
          <Bell aria-hidden="true" className="size-5" />
          {unread > 0 && (
            <span
              data-testid="notification-count"
              className="absolute -top-0.5 -right-0.5 flex h-5 min-w-5 items-center justify-center rounded-full bg-destructive px-1 text-[11px] font-semibold text-destructive-foreground"
            >
              {badgeText(unread)}
            </span>
          )}
        </Button>
      </PopoverTrigger>
      <PopoverContent align="end" className="flex h-[300px] w-80 flex-col p-0" aria-label="Notifications">
        <div className="flex items-center justify-between gap-2 border-b px-3 py-2">
          <h2 className="text-sm font-semibold">Notifications</h2>
          <Button
            variant="link"
            size="sm"
            className="text-xs"
            disabled={unread === 0 || markAll.isPending}
            onClick={() =>
              markAll.mutate(undefined, {
                onSuccess: () => toast.success('All notifications marked as read'),
                onError: () => toast.error('Failed to load notifications'),
              })
            }
          >
            Mark all as read
          </Button>
        </div>
        <div className="min-h-0 flex-1 overflow-y-auto">
          {query.isPending ? (
            <div className="flex h-full items-center justify-center">
              <Spinner label="Loading notifications" />
            </div>
          ) : query.isError ? (
            <p role="alert" className="p-4 text-center text-sm text-error">
              Failed to load notifications
            </p>
          ) : query.data.notifications.length === 0 ? (
            <p className="p-4 text-center text-sm text-muted-foreground">No notifications yet.</p>
          ) : (
            <ul className="divide-y">
              {query.data.notifications.map((item) => (
                <li key={item.id}>
                  <button
                    type="button"
                    className="flex w-full cursor-pointer items-start gap-2 px-3 py-2.5 text-left text-sm hover:bg-accent"
                    onClick={() => {
                      if (!item.read) markRead.mutate(item.id);
                      setOpen(false);
                      if (item.link) void navigate(item.link);
                    }}
                  >
                    <span
                      aria-hidden="true"
                      className={cn('mt-1.5 size-2 shrink-0 rounded-full', item.read ? 'bg-transparent' : 'bg-primary')}
                    />
                    <span className="min-w-0 flex-1">
                      <span className={cn('block break-words', !item.read && 'font-medium')}>{item.message}</span>
                      <span className="block text-xs text-muted-foreground">
                        {formatDistanceToNow(new Date(item.createdAt), { addSuffix: true })}
                        {!item.read && <span className="sr-only"> (unread)</span>}
                      </span>
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      </PopoverContent>
    </Popover>
  );
}
