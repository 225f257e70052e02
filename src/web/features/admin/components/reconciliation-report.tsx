import { Link } from 'react-router';
import { adminPaymentsMessages, type PaymentMismatch } from '#shared/schemas/admin-payments.ts';
import { formatLedgerCents } from '#shared/rules/money.ts';
import { paths } from '#shared/paths.ts';
import { Alert } from '#web/components/ui/alert.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { EmptyState } from '#web/components/ui/empty-state.tsx';
import { useReconciliation } from '../payments-api.ts';
import { adminDateTime } from './admin-format.tsx';
import { AdminTable, type AdminColumn } from './admin-table.tsx';

const mismatchLabels: Record<PaymentMismatch['kind'], string> = {
  missing_in_ledger: 'The provider holds a payment the ledger lacks',
  missing_at_provider: 'The ledger records a payment the provider lacks',
  amount_differs: 'The amounts differ',
};

const payments = (count: number) => `${count} payment${count === 1 ? '' : 's'}`;

const cents = (value: number | null) => (value === null ? '—' : formatLedgerCents(value));

const columns: AdminColumn<PaymentMismatch>[] = [
  { header: 'Problem', cell: (mismatch) => mismatchLabels[mismatch.kind] },
  {
    header: 'Job',
    cell: (mismatch) =>
      mismatch.requestId ? (
        <Link
          to={`${paths.admin.payments.getHref()}?tab=ledger&q=${mismatch.requestId}`}
          className="font-medium break-all text-primary underline-offset-4 hover:underline"
        >
          {mismatch.requestId}
        </Link>
      ) : (
        <span className="text-muted-foreground">Unknown</span>
      ),
  },
  {
    header: 'Provider payment',
    cell: (mismatch) => <code className="text-xs break-all">{mismatch.providerPaymentId ?? '—'}</code>,
  },
  { header: 'Provider', cell: (mismatch) => cents(mismatch.providerCents) },
  { header: 'Ledger', cell: (mismatch) => cents(mismatch.ledgerCents) },
  { header: 'When', cell: (mismatch) => adminDateTime(mismatch.at) },
];

/** The provider's payments against the ledger's, as compared when the tab opens (and again on demand). */
export function ReconciliationReport() {
  const reconciliation = useReconciliation();
  if (reconciliation.isError) {
    return <Alert variant="destructive" role="alert" title={adminPaymentsMessages.reconciliationFailed} />;
  }
  const report = reconciliation.data?.report;
  if (reconciliation.data && !report) {
    return (
      <EmptyState
        title="Nothing to reconcile"
        description="No card provider takes payments here: admins record each payment themselves."
        headingLevel="h2"
      />
    );
  }
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-muted-foreground" aria-live="polite">
          {report
            ? `Compared ${adminDateTime(report.checkedAt)}: ${payments(report.providerPayments)} at the provider and ${report.ledgerPayments} in the ledger since ${adminDateTime(report.since)}.`
            : 'Comparing…'}
        </p>
        <Button variant="outline" loading={reconciliation.isFetching} onClick={() => void reconciliation.refetch()}>
          Compare again
        </Button>
      </div>
      {report && report.awaitingRecord > 0 && (
        <Alert variant="info" title={`${payments(report.awaitingRecord)} confirmed by the provider, being recorded`}>
          The provider confirmed them but the ledger has no record yet; the reconciliation job records each one within
          minutes.
        </Alert>
      )}
      {report && report.mismatches.length === 0 ? (
        <EmptyState
          title="Everything matches"
          description="Every payment the provider holds is in the ledger, with the same amount, and the reverse."
          headingLevel="h2"
        />
      ) : (
        <AdminTable
          caption="Payments that do not match"
          columns={columns}
          data={{ rows: report?.mismatches, isPending: !report, isError: false }}
          rowKey={(mismatch) => `${mismatch.kind}:${mismatch.providerPaymentId ?? mismatch.checkoutId}`}
          errorMessage={adminPaymentsMessages.reconciliationFailed}
          emptyMessage="Everything matches"
        />
      )}
    </div>
  );
}
