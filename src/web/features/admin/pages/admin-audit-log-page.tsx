import { adminMessages, type AuditEntry } from '#shared/schemas/admin.ts';
import { PageHeader } from '#web/components/ui/page-header.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { useAuditLog } from '../api.ts';
import { adminDateTime } from '../components/admin-format.tsx';
import { AdminTable, pagedRows, type AdminColumn } from '../components/admin-table.tsx';

/** A state of the changed object, as compact text ("—" when there was none). */
const stateText = (state: unknown) => (state === null || state === undefined ? '—' : JSON.stringify(state));

const columns: AdminColumn<AuditEntry>[] = [
  { header: 'When', cell: (entry) => adminDateTime(entry.createdAt) },
  { header: 'Who', cell: (entry) => entry.actor.name ?? entry.actor.id ?? '—' },
  { header: 'Action', cell: (entry) => <code>{entry.action}</code> },
  {
    header: 'Object',
    cell: (entry) => (
      <span className="break-all">
        {entry.objectType} <span className="text-muted-foreground">{entry.objectId}</span>
      </span>
    ),
  },
  { header: 'Before', cell: (entry) => <code className="break-all">{stateText(entry.before)}</code> },
  { header: 'After', cell: (entry) => <code className="break-all">{stateText(entry.after)}</code> },
];

/** Every admin action, newest first; read-only. */
export function AdminAuditLogPage() {
  useDocumentTitle('Audit Log');
  const log = useAuditLog();
  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Audit Log" description="Every admin action, as it was recorded. Entries cannot be changed." />
      <AdminTable
        caption="Audit log"
        columns={columns}
        data={pagedRows(log)}
        rowKey={(entry) => entry.id}
        errorMessage={adminMessages.auditFailed}
        emptyMessage="No admin actions yet"
      />
    </div>
  );
}
