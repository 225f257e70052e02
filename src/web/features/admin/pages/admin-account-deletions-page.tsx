import type { AccountDeletionStatus, AdminAccountDeletion, DeletionBlock } from '#shared/schemas/account-deletion.ts';
import { Badge } from '#web/components/ui/badge.tsx';
import { PageHeader } from '#web/components/ui/page-header.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { useAccountDeletions } from '../api.ts';
import { adminDateTime } from '../components/admin-format.tsx';
import { AdminTable, pagedRows, type AdminColumn } from '../components/admin-table.tsx';

const statusLabels: Record<AccountDeletionStatus, string> = {
  pending: 'Waiting for its 14 days',
  restored: 'Restored by its owner',
  erased: 'Erased',
};

const blockLabels: Record<DeletionBlock, string> = {
  open_case: 'Waits: a refund request or chargeback is open',
  money: 'Waits: money is held, available or owed',
};

const columns: AdminColumn<AdminAccountDeletion>[] = [
  { header: 'Asked', cell: (deletion) => adminDateTime(deletion.requestedAt) },
  {
    header: 'Account',
    cell: (deletion) => (
      <span className="break-all">
        {deletion.username ?? 'Erased account'} <span className="text-muted-foreground">{deletion.userId}</span>
      </span>
    ),
  },
  {
    header: 'Status',
    cell: (deletion) => (
      <span className="flex flex-col items-start gap-1">
        <Badge variant={deletion.status === 'erased' ? 'secondary' : 'outline'}>{statusLabels[deletion.status]}</Badge>
        {deletion.blockedReason && <span className="text-xs">{blockLabels[deletion.blockedReason]}</span>}
      </span>
    ),
  },
  {
    header: 'Erased or restored',
    cell: (deletion) =>
      deletion.erasedAt
        ? adminDateTime(deletion.erasedAt)
        : deletion.restoredAt
          ? adminDateTime(deletion.restoredAt)
          : `Not before ${adminDateTime(deletion.eraseAfter)}`,
  },
];

/** Accounts their owners deleted, newest first: never the erased data, only the account's id once it is erased. */
export function AdminAccountDeletionsPage() {
  useDocumentTitle('Account Deletions');
  const deletions = useAccountDeletions();
  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Account Deletions"
        description="Accounts their owners asked to delete: restorable for 14 days, then erased. An erased account is shown by its id only."
      />
      <AdminTable
        caption="Account deletions"
        columns={columns}
        data={pagedRows(deletions)}
        rowKey={(deletion) => deletion.id}
        errorMessage="The account deletions could not be loaded. Please try again."
        emptyMessage="No account deletions yet"
      />
    </div>
  );
}
