import { Flag, HandCoins, Landmark, MessagesSquare, ShieldAlert, Users } from 'lucide-react';
import type { ComponentType } from 'react';
import { adminMessages, type AdminStats } from '#shared/schemas/admin.ts';
import { formatLedgerCents } from '#shared/rules/money.ts';
import { Alert } from '#web/components/ui/alert.tsx';
import { Card } from '#web/components/ui/card.tsx';
import { PageHeader } from '#web/components/ui/page-header.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { usePaymentsShown } from '#web/lib/settings.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { useAdminAccess, useAdminStats } from '../api.ts';

type Counter = { label: string; icon: ComponentType<{ className?: string }>; value: (stats: AdminStats) => string };

const counters: Counter[] = [
  { label: 'Total Chats', icon: MessagesSquare, value: (stats) => stats.totalChats.toLocaleString() },
  { label: 'Total Users', icon: Users, value: (stats) => stats.totalUsers.toLocaleString() },
  { label: 'Active Reports', icon: Flag, value: (stats) => stats.activeReports.toLocaleString() },
  { label: 'Flagged Content', icon: ShieldAlert, value: (stats) => stats.flaggedContent.toLocaleString() },
];

/**
 * The money counters, for admins with the payments permission (the server sends them only to those), on a site that
 * takes payments.
 */
const paymentCounters: Counter[] = [
  { label: 'Revenue', icon: Landmark, value: (stats) => formatLedgerCents(stats.payments?.revenueCents ?? 0) },
  { label: 'Held Funds', icon: HandCoins, value: (stats) => formatLedgerCents(stats.payments?.heldCents ?? 0) },
];

export function AdminDashboardPage() {
  useDocumentTitle('Dashboard');
  const stats = useAdminStats();
  const paymentsShown = usePaymentsShown();
  const mayPayments = useAdminAccess(true).data?.permissions.includes('payments') ?? false;
  const seesPayments = paymentsShown && mayPayments;
  const shown = seesPayments ? [...counters, ...paymentCounters] : counters;
  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Dashboard" />
      {stats.isError ? (
        <Alert variant="destructive" role="alert" title={adminMessages.statsFailed} />
      ) : (
        <dl className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4" aria-busy={stats.isPending || undefined}>
          {shown.map(({ label, icon: Icon, value }) => (
            <Card key={label} className="gap-2 px-5 py-5">
              <dt className="flex items-center gap-2 text-sm font-medium text-muted-foreground">
                <Icon className="size-4" aria-hidden="true" />
                {label}
              </dt>
              <dd className="text-3xl font-bold tabular-nums">
                {stats.data ? value(stats.data) : <Skeleton className="h-9 w-16" />}
              </dd>
            </Card>
          ))}
        </dl>
      )}
    </div>
  );
}
