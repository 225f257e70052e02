import { useState } from 'react';
import { FLAG_STATUSES, type FlagStatus } from '#shared/constants.ts';
import { adminMessages, type AdminFlag } from '#shared/schemas/admin.ts';
import { Button } from '#web/components/ui/button.tsx';
import { PageHeader } from '#web/components/ui/page-header.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { useAdminFlags, useDecideFlag, type AdminTableFilter } from '../api.ts';
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

export function AdminIllegalContentPage() {
  useDocumentTitle('Illegal Content');
  const [filter, setFilter] = useState<AdminTableFilter<FlagStatus>>({ order: 'newest' });
  const flags = useAdminFlags(filter);
  const decide = useDecideFlag();
  const [deciding, setDeciding] = useState<{ flag: AdminFlag; status: 'reviewed' | 'dismissed' }>();

  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Illegal Content" />
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
