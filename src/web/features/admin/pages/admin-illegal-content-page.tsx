import { useState } from 'react';
import { FLAG_STATUSES, type FlagStatus } from '#shared/constants.ts';
import { adminMessages, type AdminFlag, type RepeatedSender } from '#shared/schemas/admin.ts';
import { Button } from '#web/components/ui/button.tsx';
import { PageHeader } from '#web/components/ui/page-header.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { useAdminFlags, useDecideFlag, useRepeatedSenders, type AdminTableFilter } from '../api.ts';
import { adminDateTime, DecisionCell, StatusBadge } from '../components/admin-format.tsx';
import { AdminTable, pagedRows, type AdminColumn } from '../components/admin-table.tsx';
import { DecisionDialog } from '../components/decision-dialog.tsx';
import { UserLink } from '../components/user-link.tsx';

const typeLabel = (type: string) => (type.charAt(0).toUpperCase() + type.slice(1)).replaceAll('_', ' ');

const columns: AdminColumn<AdminFlag>[] = [
  { header: 'Type', cell: (flag) => typeLabel(flag.flagType) },
  {
    header: 'Content',
    cell: (flag) => (
      <span className="flex flex-col gap-0.5">
        <span className="whitespace-pre-wrap">{flag.content}</span>
        <span className="text-muted-foreground">
          Sent by <UserLink user={flag.sender} fallback="a deleted account" />
          {flag.description ? ` · ${flag.description}` : ''}
        </span>
      </span>
    ),
  },
  { header: 'Status', cell: (flag) => <StatusBadge status={flag.status} /> },
  { header: 'Created At', cell: (flag) => adminDateTime(flag.createdAt), sortable: true },
  { header: 'Review', cell: (flag) => <DecisionCell decision={flag} /> },
];

const repeatedColumns: AdminColumn<RepeatedSender>[] = [
  { header: 'User', cell: (sender) => <UserLink user={sender.user} fallback="a deleted account" /> },
  { header: 'Attempts (24 hours)', cell: (sender) => sender.attempts },
  {
    header: 'Latest',
    cell: (sender) =>
      sender.latest ? (
        <span className="flex flex-col gap-0.5">
          <span className="whitespace-pre-wrap">{sender.latest.content}</span>
          <span className="text-muted-foreground">
            {typeLabel(sender.latest.flagType)} · {adminDateTime(sender.latest.createdAt)}
          </span>
        </span>
      ) : (
        '—'
      ),
  },
];

/** Users who keep trying to send what the filter refuses: first on the page, before the single flags. */
function RepeatedSenders() {
  const senders = useRepeatedSenders();
  return (
    <section className="flex flex-col gap-3" aria-labelledby="repeated-attempts">
      <div>
        <h2 id="repeated-attempts" className="text-lg font-semibold">
          Repeated attempts
        </h2>
        <p className="text-sm text-muted-foreground">
          Users with 3 or more refused messages or texts in the last 24 hours. Every attempt is counted; at most 3 an
          hour are kept as flags.
        </p>
      </div>
      <AdminTable
        caption="Users with repeated attempts"
        columns={repeatedColumns}
        data={{ rows: senders.data?.items, isPending: senders.isPending, isError: senders.isError }}
        rowKey={(sender) => sender.user.id}
        errorMessage={adminMessages.repeatedSendersFailed}
        emptyMessage="No repeated attempts in the last 24 hours"
      />
    </section>
  );
}

export function AdminIllegalContentPage() {
  useDocumentTitle('Illegal Content');
  const [filter, setFilter] = useState<AdminTableFilter<FlagStatus>>({ order: 'newest' });
  const flags = useAdminFlags(filter);
  const decide = useDecideFlag();
  const [deciding, setDeciding] = useState<{ flag: AdminFlag; status: 'reviewed' | 'dismissed' }>();

  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Illegal Content" />
      <RepeatedSenders />
      <h2 className="text-lg font-semibold">Flags</h2>
      <AdminTable
        caption="Illegal content flags"
        columns={columns}
        data={pagedRows(flags)}
        rowKey={(flag) => flag.id}
        errorMessage={adminMessages.flagsFailed}
        emptyMessage="No flagged content"
        status={{
          value: filter.status,
          options: FLAG_STATUSES,
          onChange: (status) => setFilter({ ...filter, status: status as FlagStatus | undefined }),
        }}
        order={{ value: filter.order, onChange: (order) => setFilter({ ...filter, order }) }}
        actions={(flag) =>
          flag.status === 'pending' && (
            <>
              <Button size="sm" onClick={() => setDeciding({ flag, status: 'reviewed' })}>
                Review
              </Button>
              <Button size="sm" variant="outline" onClick={() => setDeciding({ flag, status: 'dismissed' })}>
                Dismiss
              </Button>
            </>
          )
        }
      />
      {deciding && (
        <DecisionDialog
          title={deciding.status === 'reviewed' ? 'Review flagged content' : 'Dismiss flag'}
          description={`${typeLabel(deciding.flag.flagType)}: “${deciding.flag.content.slice(0, 120)}”`}
          confirmLabel={deciding.status === 'reviewed' ? 'Mark reviewed' : 'Dismiss'}
          onConfirm={(note) => decide.mutateAsync({ id: deciding.flag.id, input: { status: deciding.status, note } })}
          onClose={() => setDeciding(undefined)}
        />
      )}
    </div>
  );
}
