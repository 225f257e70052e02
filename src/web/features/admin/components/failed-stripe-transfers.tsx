import type { FailedStripeTransfer } from '#shared/schemas/admin-payments.ts';
import { formatLedgerCents } from '#shared/rules/money.ts';
import { Button } from '#web/components/ui/button.tsx';
import { errorMessage } from '#web/lib/api.ts';
import { toast } from '#web/lib/toast.ts';
import { useFailedStripeTransfers, useRetryStripeTransfer } from '../payments-api.ts';
import { adminDateTime } from './admin-format.tsx';
import { AdminTable, type AdminColumn } from './admin-table.tsx';
import { UserWithVhNumber } from './user-link.tsx';

const columns: AdminColumn<FailedStripeTransfer>[] = [
  { header: 'Job', cell: (transfer) => transfer.job },
  {
    header: 'Tutor',
    cell: (transfer) => <UserWithVhNumber user={transfer.tutor} />,
  },
  { header: 'Amount', cell: (transfer) => formatLedgerCents(transfer.amountCents) },
  { header: 'Tries', cell: (transfer) => transfer.attempts },
  { header: 'Stripe’s Answer', cell: (transfer) => transfer.lastError ?? '' },
  { header: 'Released At', cell: (transfer) => adminDateTime(transfer.createdAt) },
];

/**
 * Under Stripe: a tutor's released share that Stripe refused or that failed every try. The money stays the tutor's
 * (their Earnings says delayed); once the cause is fixed in Stripe (e.g. the tutor's account), Retry sends it again.
 */
export function FailedStripeTransfers() {
  const transfers = useFailedStripeTransfers();
  const retry = useRetryStripeTransfer();
  return (
    <section aria-labelledby="failed-transfers" className="flex flex-col gap-3">
      <h2 id="failed-transfers" className="text-xl font-semibold">
        Failed transfers to tutors
      </h2>
      <p className="text-sm text-muted-foreground">
        Stripe would not take these shares. Fix the cause in Stripe’s dashboard (often the tutor’s account), then retry:
        the transfer is made within a minute.
      </p>
      <AdminTable
        caption="Failed transfers to tutors"
        columns={columns}
        data={{ rows: transfers.data?.items, isPending: transfers.isPending, isError: transfers.isError }}
        rowKey={(transfer) => transfer.id}
        errorMessage="Failed to fetch the failed transfers"
        emptyMessage="No failed transfers"
        actions={(transfer) => (
          <Button
            size="sm"
            loading={retry.isPending && retry.variables === transfer.id}
            onClick={() =>
              retry.mutate(transfer.id, {
                onSuccess: () => toast.success(`The transfer to ${transfer.tutor.username} is being made again.`),
                onError: (error) => toast.error(errorMessage(error)),
              })
            }
          >
            Retry
          </Button>
        )}
      />
    </section>
  );
}
