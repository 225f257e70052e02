import { useState } from 'react';
import { transferMessages, type AwaitingTransfer, type RequestedPayout } from '#shared/schemas/admin-payments.ts';
import { formatLedgerCents } from '#shared/rules/money.ts';
import { Button } from '#web/components/ui/button.tsx';
import { useAwaitingTransfers, useRecordTransfer, useRequestedPayouts } from '../payments-api.ts';
import { adminDateTime } from './admin-format.tsx';
import { AdminTable, type AdminColumn } from './admin-table.tsx';
import { DecisionDialog } from './decision-dialog.tsx';
import { UserLink, UserWithVhNumber } from './user-link.tsx';

const columns: AdminColumn<AwaitingTransfer>[] = [
  { header: 'Job', cell: (transfer) => transfer.job },
  {
    header: 'Student',
    cell: (transfer) => <UserWithVhNumber user={transfer.student} />,
  },
  { header: 'Tutor', cell: (transfer) => <UserLink user={transfer.tutor} fallback="" /> },
  { header: 'Amount', cell: (transfer) => formatLedgerCents(transfer.amountCents) },
  { header: 'Checkout', cell: (transfer) => <code className="text-xs break-all">{transfer.checkoutId}</code> },
  { header: 'Hold Ends', cell: (transfer) => adminDateTime(transfer.expiresAt) },
];

const payoutColumns: AdminColumn<RequestedPayout>[] = [
  {
    header: 'Tutor',
    cell: (payout) => <UserWithVhNumber user={payout.tutor} />,
  },
  { header: 'Amount', cell: (payout) => formatLedgerCents(payout.amountCents) },
  { header: 'Requested At', cell: (payout) => adminDateTime(payout.requestedAt) },
];

/** What the Mark paid dialog records: a student's transfer in, or a payout sent to a tutor. */
type Marking =
  { kind: 'transfers'; id: string; description: string } | { kind: 'payouts'; id: string; description: string };

/**
 * Bank transfers (`manual`): the checkouts waiting for the student's transfer. An admin who finds it on the bank
 * statement marks the checkout paid with the transfer's reference, which accepts the offer as a card payment does; and
 * the payouts tutors requested, which an admin sends by bank and records the same way.
 */
export function BankTransfers() {
  const transfers = useAwaitingTransfers();
  const payouts = useRequestedPayouts();
  const recordTransfer = useRecordTransfer('transfers');
  const recordPayout = useRecordTransfer('payouts');
  const [marking, setMarking] = useState<Marking | null>(null);
  return (
    <div className="flex flex-col gap-8">
      <section aria-labelledby="transfers-in" className="flex flex-col gap-3">
        <h2 id="transfers-in" className="text-xl font-semibold">
          Payments awaited
        </h2>
        <AdminTable
          caption="Bank transfers awaited"
          columns={columns}
          data={{ rows: transfers.data?.items, isPending: transfers.isPending, isError: transfers.isError }}
          rowKey={(transfer) => transfer.checkoutId}
          errorMessage="Failed to fetch the bank transfers"
          emptyMessage="No bank transfers awaited"
          actions={(transfer) => (
            <Button
              size="sm"
              onClick={() =>
                setMarking({
                  kind: 'transfers',
                  id: transfer.checkoutId,
                  description: `Record the bank transfer of ${formatLedgerCents(transfer.amountCents)} from ${transfer.student.username}: the offer is accepted and the job starts.`,
                })
              }
            >
              Mark paid
            </Button>
          )}
        />
      </section>
      <section aria-labelledby="payouts-out" className="flex flex-col gap-3">
        <h2 id="payouts-out" className="text-xl font-semibold">
          Payouts to send
        </h2>
        <AdminTable
          caption="Payouts to send"
          columns={payoutColumns}
          data={{ rows: payouts.data?.items, isPending: payouts.isPending, isError: payouts.isError }}
          rowKey={(payout) => payout.payoutId}
          errorMessage="Failed to fetch the payouts"
          emptyMessage="No payouts to send"
          actions={(payout) => (
            <Button
              size="sm"
              onClick={() =>
                setMarking({
                  kind: 'payouts',
                  id: payout.payoutId,
                  description: `Record the bank transfer of ${formatLedgerCents(payout.amountCents)} you sent to ${payout.tutor.username}: their payout is paid.`,
                })
              }
            >
              Mark paid
            </Button>
          )}
        />
      </section>
      {marking && (
        <DecisionDialog
          title="Mark paid"
          description={marking.description}
          confirmLabel="Mark paid"
          noteLabel="Transfer reference"
          requiredMessage={transferMessages.noteRequired}
          onConfirm={(note) =>
            (marking.kind === 'transfers' ? recordTransfer : recordPayout).mutateAsync({ id: marking.id, note })
          }
          onClose={() => setMarking(null)}
        />
      )}
    </div>
  );
}
