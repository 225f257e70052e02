import { Flag, MessagesSquare, ShieldAlert, Users } from 'lucide-react';
import type { ComponentType } from 'react';
import { adminMessages, type AdminStats } from '#shared/schemas/admin.ts';
import { Alert } from '#web/components/ui/alert.tsx';
import { Card } from '#web/components/ui/card.tsx';
import { PageHeader } from '#web/components/ui/page-header.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { useAdminStats } from '../api.ts';

const counters: { key: keyof AdminStats; label: string; icon: ComponentType<{ className?: string }> }[] = [
  { key: 'totalChats', label: 'Total Chats', icon: MessagesSquare },
  { key: 'totalUsers', label: 'Total Users', icon: Users },
  { key: 'activeReports', label: 'Active Reports', icon: Flag },
  { key: 'flaggedContent', label: 'Flagged Content', icon: ShieldAlert },
];

export function AdminDashboardPage() {
  useDocumentTitle('Dashboard');
  const stats = useAdminStats();
  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Dashboard" />
      {stats.isError ? (
        <Alert variant="destructive" role="alert" title={adminMessages.statsFailed} />
      ) : (
        <dl className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4" aria-busy={stats.isPending || undefined}>
          {counters.map(({ key, label, icon: Icon }) => (
            <Card key={key} className="gap-2 px-5 py-5">
              <dt className="flex items-center gap-2 text-sm font-medium text-muted-foreground">
                <Icon className="size-4" aria-hidden="true" />
                {label}
              </dt>
              <dd className="text-3xl font-bold tabular-nums">
                {stats.data ? stats.data[key].toLocaleString() : <Skeleton className="h-9 w-16" />}
              </dd>
            </Card>
          ))}
        </dl>
      )}
    </div>
  );
}
