import { format } from 'date-fns';
import { ArrowLeft, Printer } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { paths } from '#shared/paths.ts';
import { formatCents } from '#shared/rules/money.ts';
import { paymentMethodText, type Receipt } from '#shared/schemas/payments.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Container } from '#web/components/ui/container.tsx';
import { QueryError } from '#web/components/ui/query-error.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { PaymentStateBadge } from '../components/payment-state-badge.tsx';
import { useReceipt } from '../student-payments-api.ts';

const formatDateTime = (value: string) => format(new Date(value), 'MMM d, yyyy, HH:mm');
const formatDate = (value: string) => format(new Date(value), 'MMM d, yyyy');

function AmountRow({ label, cents, strong = false }: { label: string; cents: number; strong?: boolean }) {
  return (
    <tr className={strong ? 'font-semibold' : undefined}>
      <th scope="row" className="py-2 pr-4 text-left font-[inherit]">
        {label}
      </th>
      <td className="py-2 text-right tabular-nums">{formatCents(cents)}</td>
    </tr>
  );
}

function ReceiptDocument({ receipt }: { receipt: Receipt }) {
  const { operator } = receipt;
  return (
    <article
      aria-labelledby="receipt-title"
      className="flex flex-col gap-6 rounded-xl border bg-card p-5 text-card-foreground shadow-sm sm:p-8 print:border-0 print:p-0 print:shadow-none"
    >
      <header className="flex flex-col gap-4 sm:flex-row sm:justify-between">
        <div className="flex flex-col gap-1">
          <h1 id="receipt-title" className="text-3xl font-bold tracking-tight">
            Receipt
          </h1>
          <p>
            No. <span className="font-mono font-semibold">{receipt.receiptNumber}</span>
          </p>
          <p className="text-sm text-muted-foreground">Paid {formatDateTime(receipt.paidAt)}</p>
        </div>
        <address className="flex flex-col text-sm not-italic sm:text-right">
          <span className="font-semibold">{operator.legalName}</span>
          {operator.address && <span>{operator.address}</span>}
          {operator.vatNumber && <span>VAT number {operator.vatNumber}</span>}
        </address>
      </header>

      <dl className="grid gap-4 text-sm sm:grid-cols-2">
        <div>
          <dt className="font-medium text-muted-foreground">Paid by</dt>
          <dd>
            {receipt.payer.username} (VH {receipt.payer.vhNumber})
          </dd>
          <dd className="break-all">{receipt.payer.email}</dd>
        </div>
        <div>
          <dt className="font-medium text-muted-foreground">Tutor</dt>
          <dd>
            {receipt.tutor.username} (VH {receipt.tutor.vhNumber})
          </dd>
        </div>
      </dl>

      <table className="w-full border-collapse text-sm">
        <caption className="sr-only">What was paid and refunded</caption>
        <thead>
          <tr className="border-b text-muted-foreground">
            <th scope="col" className="py-2 pr-4 text-left font-medium">
              Description
            </th>
            <th scope="col" className="py-2 text-right font-medium">
              Amount
            </th>
          </tr>
        </thead>
        <tbody className="divide-y">
          <AmountRow label={receipt.job.title} cents={receipt.amountCents} />
          {receipt.refunds.map((refund) => (
            <AmountRow
              key={refund.id}
              label={`Refund of ${formatDate(refund.refundedAt)}${refund.reference ? `, reference ${refund.reference}` : ''}`}
              cents={-refund.amountCents}
            />
          ))}
        </tbody>
        <tfoot className="border-t-2">
          {receipt.refunds.length > 0 && <AmountRow label="Refunded" cents={-receipt.refundedCents} />}
          <AmountRow
            label={receipt.refunds.length > 0 ? 'Paid after refunds' : 'Total paid'}
            cents={receipt.netCents}
            strong
          />
        </tfoot>
      </table>

      <dl className="flex flex-col gap-3 text-sm">
        <div className="flex flex-wrap gap-x-2">
          <dt className="font-medium text-muted-foreground">Payment method:</dt>
          <dd>{paymentMethodText(receipt.method)}</dd>
        </div>
        <div className="flex flex-wrap items-center gap-x-2">
          <dt className="font-medium text-muted-foreground">Status:</dt>
          <dd>
            <PaymentStateBadge state={receipt.state} />
          </dd>
        </div>
      </dl>
    </article>
  );
}

/** A payment's receipt, laid out to print: the Print button and the app around it are left off the paper. */
export function ReceiptPage() {
  const { checkoutId = '' } = useParams();
  const receipt = useReceipt(checkoutId);
  useDocumentTitle(receipt.data ? `Receipt ${receipt.data.receiptNumber}` : 'Receipt');
  return (
    <Container className="flex max-w-3xl flex-col gap-6 py-8 print:max-w-none print:p-0">
      {/* On the left: notices stay at the top right until dismissed, and the one of the payment may still be there. */}
      <div className="flex flex-wrap items-center gap-2 print:hidden">
        <Button asChild variant="ghost" size="sm">
          <Link to={paths.payments.getHref()}>
            <ArrowLeft aria-hidden="true" />
            Back to payments
          </Link>
        </Button>
        {receipt.data && (
          <Button size="sm" onClick={() => window.print()}>
            <Printer aria-hidden="true" />
            Print
          </Button>
        )}
      </div>
      {/* The receipt is the page's heading; until it shows, the page still has one. */}
      {!receipt.data && <h1 className="sr-only">Receipt</h1>}
      {receipt.isPending ? (
        <>
          <span role="status" className="sr-only">
            Loading the receipt
          </span>
          <Skeleton className="h-96 w-full rounded-xl" />
        </>
      ) : receipt.isError ? (
        <QueryError title="This receipt cannot be shown" query={receipt} />
      ) : (
        <ReceiptDocument receipt={receipt.data} />
      )}
    </Container>
  );
}
