import { useState } from 'react';
import { useParams } from 'react-router';
import { adminMessages, type AdminUser } from '#shared/schemas/admin.ts';
import { formatCents } from '#shared/rules/money.ts';
import { Alert } from '#web/components/ui/alert.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent } from '#web/components/ui/card.tsx';
import { PageHeader } from '#web/components/ui/page-header.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { useAdminUser, useSuspension } from '../api.ts';
import { adminDateTime, DecisionCell, StatusBadge } from '../components/admin-format.tsx';
import { AdminTable, type AdminColumn } from '../components/admin-table.tsx';
import { DecisionDialog } from '../components/decision-dialog.tsx';
import { UserLink } from '../components/user-link.tsx';

type Report = AdminUser['reportsBy'][number];

const requestColumns: AdminColumn<AdminUser['requests'][number]>[] = [
  { header: 'Type', cell: (request) => (request.type === 'tutoring' ? 'Tutoring Request' : 'Assignment Help') },
  { header: 'Subject', cell: (request) => request.subjectName },
  { header: 'Status', cell: (request) => <StatusBadge status={request.status} /> },
  { header: 'Created At', cell: (request) => adminDateTime(request.createdAt) },
];
const bidColumns: AdminColumn<AdminUser['bids'][number]>[] = [
  { header: 'Subject', cell: (bid) => bid.subjectName },
  { header: 'Amount', cell: (bid) => formatCents(bid.amountCents) },
  { header: 'Status', cell: (bid) => <StatusBadge status={bid.status} /> },
  { header: 'Created At', cell: (bid) => adminDateTime(bid.createdAt) },
];
const reportColumns = (other: 'reporter' | 'reportedUser'): AdminColumn<Report>[] => [
  {
    header: other === 'reporter' ? 'Reporter' : 'Reported User',
    cell: (report) => <UserLink user={report[other]} fallback="Deleted account" />,
  },
  { header: 'Reason', cell: (report) => `${report.reason.replaceAll('_', ' ')}: ${report.description}` },
  { header: 'Status', cell: (report) => <StatusBadge status={report.status} /> },
  { header: 'Created At', cell: (report) => adminDateTime(report.createdAt) },
  { header: 'Decision', cell: (report) => <DecisionCell decision={report} /> },
];
const flagColumns: AdminColumn<AdminUser['flags'][number]>[] = [
  { header: 'Type', cell: (flag) => flag.flagType.replaceAll('_', ' ') },
  { header: 'Content', cell: (flag) => flag.content },
  { header: 'Status', cell: (flag) => <StatusBadge status={flag.status} /> },
  { header: 'Created At', cell: (flag) => adminDateTime(flag.createdAt) },
];

/** Every refused attempt is counted, while the flags below stop at a few an hour. */
const refusedAttemptsLabel = ({ last24Hours, last30Days, total }: AdminUser['refusedAttempts']) =>
  `${last24Hours} in the last 24 hours · ${last30Days} in 30 days · ${total} in all`;

/** One user as the admins see them, with Suspend / Reinstate. */
/** One list of the user's page: everything came with the page, so it is never loading on its own. */
function UserSection<T extends { id: string }>({
  title,
  columns,
  items,
  emptyMessage,
}: {
  title: string;
  columns: AdminColumn<T>[];
  items: T[];
  emptyMessage: string;
}) {
  return (
    <section className="flex flex-col gap-3" aria-label={title}>
      <h2 className="text-lg font-semibold">{title}</h2>
      <AdminTable
        caption={title}
        columns={columns}
        data={{ rows: items, isPending: false, isError: false }}
        rowKey={(item) => item.id}
        errorMessage={adminMessages.userFailed}
        emptyMessage={emptyMessage}
      />
    </section>
  );
}

export function AdminUserPage() {
  const { userId = '' } = useParams();
  const user = useAdminUser(userId);
  useDocumentTitle(user.data ? user.data.profile.username : 'User');
  const [changing, setChanging] = useState(false);
  const suspension = useSuspension(userId);

  if (user.isError) return <Alert variant="destructive" role="alert" title={adminMessages.userFailed} />;
  if (!user.data) return <Skeleton className="h-48 w-full" />;
  const { profile } = user.data;
  const isSuspended = profile.suspendedAt !== null;
  const facts: [string, string][] = [
    ['E-mail', profile.email],
    ['Full name', profile.fullName ?? '—'],
    ['Role', profile.adminRole ? `${profile.role} (admin: ${profile.adminRole})` : profile.role],
    ['VH number', String(profile.vhNumber)],
    ['Joined', adminDateTime(profile.createdAt)],
    ['Refused attempts', refusedAttemptsLabel(user.data.refusedAttempts)],
  ];
  return (
    <div className="flex flex-col gap-8">
      <PageHeader
        title={profile.username}
        actions={
          !profile.adminRole && (
            <Button variant={isSuspended ? 'outline' : 'destructive'} onClick={() => setChanging(true)}>
              {isSuspended ? 'Reinstate' : 'Suspend'}
            </Button>
          )
        }
      />
      <Card>
        <CardContent className="flex flex-col gap-4">
          {isSuspended ? (
            <Alert variant="destructive" title={`Suspended since ${adminDateTime(profile.suspendedAt!)}`}>
              {profile.suspensionReason}
            </Alert>
          ) : (
            <Badge variant="success">Active</Badge>
          )}
          <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[auto_1fr]">
            {facts.map(([term, value]) => (
              <div key={term} className="contents">
                <dt className="font-medium text-muted-foreground">{term}</dt>
                <dd className="break-words">{value}</dd>
              </div>
            ))}
          </dl>
        </CardContent>
      </Card>
      <UserSection title="Requests" columns={requestColumns} items={user.data.requests} emptyMessage="No requests" />
      <UserSection title="Bids" columns={bidColumns} items={user.data.bids} emptyMessage="No bids" />
      <UserSection
        title="Reports by this user"
        columns={reportColumns('reportedUser')}
        items={user.data.reportsBy}
        emptyMessage="No reports by this user"
      />
      <UserSection
        title="Reports against this user"
        columns={reportColumns('reporter')}
        items={user.data.reportsAgainst}
        emptyMessage="No reports against this user"
      />
      <UserSection
        title="Flagged messages"
        columns={flagColumns}
        items={user.data.flags}
        emptyMessage="No flagged messages"
      />
      {changing && (
        <DecisionDialog
          title={isSuspended ? `Reinstate ${profile.username}` : `Suspend ${profile.username}`}
          description={
            isSuspended
              ? 'They can sign in again.'
              : 'They are signed out everywhere at once and cannot sign in until reinstated.'
          }
          confirmLabel={isSuspended ? 'Reinstate' : 'Suspend'}
          noteLabel="Reason"
          requiredMessage={adminMessages.reasonRequired}
          destructive={!isSuspended}
          onConfirm={(reason) =>
            suspension.mutateAsync({ action: isSuspended ? 'reinstatement' : 'suspension', input: { reason } })
          }
          onClose={() => setChanging(false)}
        />
      )}
    </div>
  );
}
