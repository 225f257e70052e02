import { CalendarDays, Video } from 'lucide-react';
import { adminMessages, type AdminMeetingStats } from '#shared/schemas/admin.ts';
import { Card } from '#web/components/ui/card.tsx';
import { PageHeader } from '#web/components/ui/page-header.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { useMeetingStats } from '../api.ts';
import { adminDateTime, StatusBadge } from '../components/admin-format.tsx';
import { AdminTable, type AdminColumn } from '../components/admin-table.tsx';

type RecentMeeting = AdminMeetingStats['recentMeetings'][number];

const columns: AdminColumn<RecentMeeting>[] = [
  { header: 'Platform', cell: (meeting) => meeting.platform },
  { header: 'Title', cell: (meeting) => meeting.title },
  { header: 'Start Time', cell: (meeting) => adminDateTime(meeting.startTime) },
  { header: 'Status', cell: (meeting) => <StatusBadge status={meeting.status} /> },
];

export function AdminMeetingStatsPage() {
  useDocumentTitle('Meeting Statistics');
  const stats = useMeetingStats();
  const counters = [
    { label: 'Total Meetings', value: stats.data?.totalMeetings, icon: CalendarDays },
    { label: 'Jitsi Meetings', value: stats.data?.jitsiMeetings, icon: Video },
  ];
  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Meeting Statistics" />
      {!stats.isError && (
        <dl className="grid grid-cols-2 gap-3 sm:gap-4" aria-busy={stats.isPending || undefined}>
          {counters.map(({ label, value, icon: Icon }) => (
            <Card key={label} className="gap-2 px-5 py-5">
              <dt className="flex items-center gap-2 text-sm font-medium text-muted-foreground">
                <Icon className="size-4" aria-hidden="true" />
                {label}
              </dt>
              <dd className="text-3xl font-bold tabular-nums">
                {value === undefined ? <Skeleton className="h-9 w-16" /> : value.toLocaleString()}
              </dd>
            </Card>
          ))}
        </dl>
      )}
      <section className="flex flex-col gap-3" aria-labelledby="recent-meetings">
        <h2 id="recent-meetings" className="text-lg font-semibold">
          Recent Meetings
        </h2>
        <AdminTable
          caption="Recent meetings"
          columns={columns}
          data={{ rows: stats.data?.recentMeetings, isPending: stats.isPending, isError: stats.isError }}
          rowKey={(meeting) => meeting.id}
          errorMessage={adminMessages.meetingsFailed}
          emptyMessage="No meetings yet"
        />
      </section>
    </div>
  );
}
