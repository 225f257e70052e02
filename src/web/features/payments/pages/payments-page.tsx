import { format } from 'date-fns';
import { Inbox, ReceiptText } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '#shared/paths.ts';
import { formatCents } from '#shared/rules/money.ts';
import type { Payment } from '#shared/schemas/payments.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Card } from '#web/components/ui/card.tsx';
import { CardListSkeleton } from '#web/components/ui/card-list-skeleton.tsx';
import { Container } from '#web/components/ui/container.tsx';
import { EmptyState } from '#web/components/ui/empty-state.tsx';
import { PageHeader } from '#web/components/ui/page-header.tsx';
import { QueryError } from '#web/components/ui/query-error.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { AskAgainLink } from '#web/features/requests/embeds.ts';
import { PaymentStateBadge } from '../components/payment-state-badge.tsx';
import { useStudentPayments } from '../student-payments-api.ts';

const formatDate = (value: string) => format(new Date(value), 'MMM d, yyyy');

function PaymentLine({ payment }: { payment: Payment }) {
  return (
    <li>
      <Card className="gap-3 px-5 py-4">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            <h2 className="font-semibold break-words">{payment.job}</h2>
            <p className="text-sm text-muted-foreground">
              with {payment.tutor.username} (VH {payment.tutor.vhNumber}), paid {formatDate(payment.paidAt)}
            </p>
          </div>
          <PaymentStateBadge state={payment.state} />
        </div>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-lg font-semibold tabular-nums">{formatCents(payment.amountCents)}</p>
          <div className="flex flex-wrap gap-2">
            {payment.state === 'released' && (
              <AskAgainLink tutorId={payment.tutor.id} tutorName={payment.tutor.username} />
            )}
            <Button asChild variant="outline" size="sm">
              <Link to={paths.receipt.getHref(payment.id)} aria-label={`Receipt for ${payment.job}`}>
                <ReceiptText aria-hidden="true" />
                Receipt
              </Link>
            </Button>
          </div>
        </div>
      </Card>
    </li>
  );
}

/** The student's payments: each paid job, newest first, with the state of its money and a link to its receipt. */
export function PaymentsPage() {
  useDocumentTitle('Payments');
  const payments = useStudentPayments();
  return (
    <Container className="flex max-w-4xl flex-col gap-6 py-8">
      <PageHeader
        title="Payments"
        description="Your payment for a job is held until you mark the job completed, then it goes to the tutor."
      />
      {payments.isPending ? (
        <CardListSkeleton label="Loading your payments" cardClassName="h-28" />
      ) : payments.isError ? (
        <QueryError title="Your payments could not be loaded" query={payments} />
      ) : payments.data.pages[0]?.items.length === 0 ? (
        <EmptyState
          icon={<Inbox />}
          title="No payments yet"
          description="When you accept an offer and pay for it, the payment and its receipt show here."
          action={
            <Button asChild variant="outline">
              <Link to={paths.student.posts.getHref()}>My Requests</Link>
            </Button>
          }
        />
      ) : (
        <div className="flex flex-col gap-4">
          <ul className="flex flex-col gap-3" aria-label="Your payments">
            {payments.data.pages
              .flatMap((page) => page.items)
              .map((payment) => (
                <PaymentLine key={payment.id} payment={payment} />
              ))}
          </ul>
          {payments.hasNextPage && (
            <Button
              variant="outline"
              className="self-center"
              loading={payments.isFetchingNextPage}
              onClick={() => void payments.fetchNextPage()}
            >
              Load more
            </Button>
          )}
        </div>
      )}
    </Container>
  );
}
