import { useState } from 'react';
import { transferMessages, type AwaitingTransfer } from '#shared/schemas/admin-payments.ts';
import { formatLedgerCents } from '#shared/rules/money.ts';
import { Button } from '#web/components/ui/button.tsx';
import { useAwaitingTransfers, useRecordTransfer } from '../payments-api.ts';
import { adminDateTime } from './admin-format.tsx';
import { AdminTable, type AdminColumn } from './admin-table.tsx';
import { DecisionDialog } from './decision-dialog.tsx';
import { UserLink } from './user-link.tsx';

const columns: AdminColumn<AwaitingTransfer>[] = [
  { header: 'Job', cell: (transfer) => transfer.job },
  {
    header: 'Student',
    cell: (transfer) => (
      <span>
        <UserLink user={transfer.student} fallback="" />{' '}
        <span className="text-muted-foreground">VH {transfer.student.vhNumber}</span>
      </span>
    ),
  },
  { header: 'Tutor', cell: (transfer) => <UserLink user={transfer.tutor} fallback="" /> },
  { header: 'Amount', cell: (transfer) => formatLedgerCents(transfer.amountCents) },
  { header: 'Checkout', cell: (transfer) => <code className="text-xs break-all">{transfer.checkoutId}</code> },
  { header: 'Hold Ends', cell: (transfer) => adminDateTime(transfer.expiresAt) },
];

/**
 * Bank transfers (`manual`): the checkouts waiting for the student's transfer. An admin who finds it on the bank
 * statement marks the checkout paid with the transfer's reference, which accepts the offer as a card payment does.
 */
export function BankTransfers() {
  const transfers = useAwaitingTransfers();
  const record = useRecordTransfer();
  const [marking, setMarking] = useState<AwaitingTransfer | null>(null);
  return (
    <>
      <AdminTable
        caption="Bank transfers awaited"
        columns={columns}
        data={{ rows: transfers.data?.items, isPending: transfers.isPending, isError: transfers.isError }}
        rowKey={(transfer) => transfer.checkoutId}
        errorMessage="Failed to fetch the bank transfers"
        emptyMessage="No bank transfers awaited"
        actions={(transfer) => (
          <Button size="sm" onClick={() => setMarking(transfer)}>
            Mark paid
          </Button>
        )}
      />
      {marking && (
        <DecisionDialog
          title="Mark paid"
          description={`Record the bank transfer of ${formatLedgerCents(marking.amountCents)} from ${marking.student.username}: the offer is accepted and the job starts.`}
          confirmLabel="Mark paid"
          noteLabel="Transfer reference"
          requiredMessage={transferMessages.noteRequired}
          onConfirm={(note) => record.mutateAsync({ checkoutId: marking.checkoutId, note })}
          onClose={() => setMarking(null)}
        />
      )}
    </>
  );
}
