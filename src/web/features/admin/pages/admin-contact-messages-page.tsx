import { useState } from 'react';
import { adminMessages, CONTACT_MESSAGE_STATUSES, type AdminContactMessage } from '#shared/schemas/admin.ts';
import { Button } from '#web/components/ui/button.tsx';
import { PageHeader } from '#web/components/ui/page-header.tsx';
import { errorMessage } from '#web/lib/api.ts';
import { toastMessage } from '#web/lib/toast-message.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { useContactMessages, useMarkContactMessage, type AdminTableFilter } from '../api.ts';
import { adminDateTime, StatusBadge } from '../components/admin-format.tsx';
import { AdminTable, pagedRows, type AdminColumn } from '../components/admin-table.tsx';

const columns: AdminColumn<AdminContactMessage>[] = [
  {
    header: 'From',
    cell: (message) => (
      <span className="flex flex-col gap-0.5">
        <span>{message.name}</span>
        <a href={`mailto:${message.email}`} className="text-primary underline-offset-4 hover:underline">
          {message.email}
        </a>
      </span>
    ),
  },
  {
    header: 'Message',
    cell: (message) => (
      <span className="flex flex-col gap-0.5">
        <span className="font-medium">{message.subject}</span>
        <span className="whitespace-pre-wrap text-muted-foreground">{message.message}</span>
      </span>
    ),
  },
  {
    header: 'Status',
    cell: (message) => (
      <span className="flex flex-col gap-1">
        <StatusBadge status={message.handled ? 'handled' : 'open'} />
        {message.handledAt && (
          <span className="text-muted-foreground">
            {message.handledBy?.username ?? 'A former admin'}, {adminDateTime(message.handledAt)}
          </span>
        )}
      </span>
    ),
  },
  { header: 'Created At', cell: (message) => adminDateTime(message.createdAt), sortable: true },
];

export function AdminContactMessagesPage() {
  useDocumentTitle('Contact Messages');
  const [filter, setFilter] = useState<AdminTableFilter<'open' | 'handled'>>({ order: 'newest' });
  const messages = useContactMessages(filter);
  const mark = useMarkContactMessage();

  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Contact Messages" />
      <AdminTable
        caption="Contact messages"
        columns={columns}
        data={pagedRows(messages)}
        rowKey={(message) => message.id}
        errorMessage={adminMessages.messagesFailed}
        emptyMessage="No contact messages"
        status={{
          value: filter.status,
          options: CONTACT_MESSAGE_STATUSES,
          onChange: (status) => setFilter({ ...filter, status: status as 'open' | 'handled' | undefined }),
        }}
        order={{ value: filter.order, onChange: (order) => setFilter({ ...filter, order }) }}
        actions={(message) => (
          <Button
            size="sm"
            variant="outline"
            loading={mark.isPending && mark.variables.id === message.id}
            onClick={() =>
              mark.mutate(
                { id: message.id, handled: !message.handled },
                { onError: (error) => toastMessage(errorMessage(error)) },
              )
            }
          >
            {message.handled ? 'Reopen' : 'Mark handled'}
          </Button>
        )}
      />
    </div>
  );
}
