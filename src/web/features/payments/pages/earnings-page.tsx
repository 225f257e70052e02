import { format } from 'date-fns';
import { Banknote, Clock, Inbox, Wallet } from 'lucide-react';
import { useState } from 'react';
import type { JobPaymentState } from '#shared/constants.ts';
import { formatCents } from '#shared/rules/money.ts';
import type { Earnings, EarningsJob, Payout, StripeTransferView } from '#shared/schemas/earnings.ts';
import { Badge, type BadgeProps } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card } from '#web/components/ui/card.tsx';
import { CardListSkeleton } from '#web/components/ui/card-list-skeleton.tsx';
import { Container } from '#web/components/ui/container.tsx';
import { EmptyState } from '#web/components/ui/empty-state.tsx';
import { PageHeader } from '#web/components/ui/page-header.tsx';
import { QueryError } from '#web/components/ui/query-error.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { errorMessage } from '#web/lib/api.ts';
import { toast } from '#web/lib/toast.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { AdultConfirmation } from '../components/adult-confirmation.tsx';
import { StripePayoutSetup } from '../components/stripe-payout-setup.tsx';
import { useEarnings, useRequestPayout } from '../earnings-api.ts';

const formatDate = (value: string) => format(new Date(value), 'MMM d, yyyy');
/** "15 %" or "12.5 %" from basis points, without floating point. */
const formatPercent = (basisPoints: number) => `${formatCents(basisPoints).slice(1)} %`;

const STATES: Partial<Record<JobPaymentState, { label: string; variant: BadgeProps['variant'] }>> = {
  held: { label: 'Pending', variant: 'info' },
  frozen: { label: 'On hold', variant: 'warning' },
  released: { label: 'Available', variant: 'success' },
  refunded: { label: 'Refunded', variant: 'neutral' },
  partially_refunded: { label: 'Partly refunded', variant: 'neutral' },
};

function Totals({ earnings }: { earnings: Earnings | undefined }) {
  const totals = [
    { label: 'Pending', value: earnings?.pendingCents, icon: Clock },
    { label: 'Available', value: earnings?.availableCents, icon: Wallet },
    { label: 'Paid out', value: earnings?.paidOutCents, icon: Banknote },
  ];
  return (
    <dl className="grid gap-3 sm:grid-cols-3 sm:gap-4" aria-busy={earnings ? undefined : true}>
      {totals.map(({ label, value, icon: Icon }) => (
        <Card key={label} className="gap-2 px-5 py-5">
          <dt className="flex items-center gap-2 text-sm font-medium text-muted-foreground">
            <Icon className="size-4" aria-hidden="true" />
            {label}
          </dt>
          <dd className="text-3xl font-bold tabular-nums">
            {value === undefined ? <Skeleton className="h-9 w-24" /> : formatCents(value)}
          </dd>
        </Card>
      ))}
    </dl>
  );
}

/** The adult confirmation (before the first payout) and the payout button. */
function PayoutPanel({ earnings }: { earnings: Earnings }) {
  const requestPayout = useRequestPayout();
  // One key per press: a retried request pays out once.
  const [idempotencyKey, setIdempotencyKey] = useState(() => crypto.randomUUID());
  const inProgress = earnings.payouts.find((payout) => payout.status === 'requested');

  if (!earnings.adultConfirmedAt)
    return <AdultConfirmation confirmedMessage="Thank you. You can now request payouts." />;
  return (
    <Card className="flex-row flex-wrap items-center justify-between gap-3 px-5 py-5">
      <p className="text-sm">
        {inProgress
          ? `Your payout of ${formatCents(inProgress.amountCents)} is being processed.`
          : earnings.availableCents > 0
            ? `${formatCents(earnings.availableCents)} is ready to be paid out to you.`
            : 'Nothing to pay out yet: money becomes available once a student marks a job completed.'}
      </p>
      <Button
        disabled={earnings.availableCents <= 0 || Boolean(inProgress)}
        loading={requestPayout.isPending}
        onClick={() =>
          requestPayout.mutate(idempotencyKey, {
            onSuccess: (payout) => {
              setIdempotencyKey(crypto.randomUUID());
              toast.success(
                payout.status === 'paid'
                  ? `${formatCents(payout.amountCents)} was paid out to you`
                  : `Your payout of ${formatCents(payout.amountCents)} was requested`,
              );
            },
            onError: (error) => toast.error(errorMessage(error)),
          })
        }
      >
        Request payout
      </Button>
    </Card>
  );
}

function JobLine({ job }: { job: EarningsJob }) {
  const state = STATES[job.state];
  return (
    <li>
      <Card className="gap-2 px-5 py-4">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            <h3 className="font-semibold">{job.subjectName}</h3>
            <p className="text-sm text-muted-foreground">
              with {job.studentName}, paid {formatDate(job.paidAt)}
            </p>
          </div>
          {state && <Badge variant={state.variant}>{state.label}</Badge>}
        </div>
        <dl className="flex flex-wrap gap-x-5 gap-y-1 text-sm">
          <div className="flex gap-1">
            <dt className="text-muted-foreground">Amount:</dt>
            <dd className="tabular-nums">{formatCents(job.amountCents)}</dd>
          </div>
          <div className="flex gap-1">
            <dt className="text-muted-foreground">Commission:</dt>
            <dd className="tabular-nums">{formatCents(job.commissionCents)}</dd>
          </div>
          <div className="flex gap-1">
            <dt className="text-muted-foreground">Your share:</dt>
            <dd className="font-semibold tabular-nums">{formatCents(job.tutorCents)}</dd>
          </div>
        </dl>
      </Card>
    </li>
  );
}

/** Where a transfer is, in the tutor's words: a late one says so, since the money is still coming. */
function TransferBadge({ transfer, payoutsEnabled }: { transfer: StripeTransferView; payoutsEnabled: boolean }) {
  if (transfer.status === 'transferred') return <Badge variant="success">Sent to Stripe</Badge>;
  if (transfer.status === 'cancelled') return <Badge variant="neutral">Taken back by a chargeback</Badge>;
  if (transfer.delayed) return <Badge variant="warning">Delayed</Badge>;
  return <Badge variant="info">{payoutsEnabled ? 'Being sent' : 'Waiting for payout set-up'}</Badge>;
}

/** Under Stripe: a released job's share sent to the tutor's Stripe account, or waiting for the payout set-up. */
function TransferLine({ transfer, payoutsEnabled }: { transfer: StripeTransferView; payoutsEnabled: boolean }) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 py-3">
      <span className="text-sm">
        {transfer.subjectName},{' '}
        {transfer.transferredAt
          ? `sent ${formatDate(transfer.transferredAt)}`
          : `released ${formatDate(transfer.createdAt)}`}
      </span>
      <span className="flex items-center gap-2">
        <span className="font-semibold tabular-nums">{formatCents(transfer.amountCents)}</span>
        <TransferBadge transfer={transfer} payoutsEnabled={payoutsEnabled} />
      </span>
    </li>
  );
}

function PayoutLine({ payout }: { payout: Payout }) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 py-3">
      <span className="text-sm">
        {payout.paidAt ? `Paid ${formatDate(payout.paidAt)}` : `Requested ${formatDate(payout.requestedAt)}`}
      </span>
      <span className="flex items-center gap-2">
        <span className="font-semibold tabular-nums">{formatCents(payout.amountCents)}</span>
        <Badge variant={payout.status === 'paid' ? 'success' : 'info'}>
          {payout.status === 'paid' ? 'Paid' : 'Processing'}
        </Badge>
      </span>
    </li>
  );
}

export function EarningsPage() {
  useDocumentTitle('Earnings');
  const earnings = useEarnings();
  const data = earnings.data;
  return (
    <Container className="flex max-w-4xl flex-col gap-6 py-8">
      <PageHeader
        title="Earnings"
        description={
          data?.payoutSetup
            ? `A student’s payment is held until they mark the job completed, then your share, less the platform’s ${formatPercent(data.commissionBasisPoints)} commission, is sent to your Stripe account.`
            : data
              ? `A student’s payment is held until they mark the job completed, then it is yours to pay out, less the platform’s ${formatPercent(data.commissionBasisPoints)} commission.`
              : 'A student’s payment is held until they mark the job completed, then it is yours to pay out.'
        }
      />
      {earnings.isError ? (
        <QueryError title="Your earnings could not be loaded" query={earnings} />
      ) : (
        <>
          <Totals earnings={data} />
          {data &&
            (data.payoutSetup ? (
              <StripePayoutSetup earnings={data} setup={data.payoutSetup} />
            ) : (
              <PayoutPanel earnings={data} />
            ))}
          <section className="flex flex-col gap-3" aria-labelledby="earnings-jobs">
            <h2 id="earnings-jobs" className="text-lg font-semibold">
              Jobs
            </h2>
            {!data ? (
              <CardListSkeleton label="Loading your jobs" cardClassName="h-24" />
            ) : data.jobs.length === 0 ? (
              <EmptyState
                icon={<Inbox />}
                title="No paid jobs yet"
                description="When a student pays for a job with you, it shows here."
                headingLevel="h3"
              />
            ) : (
              <ul className="flex flex-col gap-3">
                {data.jobs.map((job) => (
                  <JobLine key={job.requestId} job={job} />
                ))}
              </ul>
            )}
          </section>
          {data && data.transfers.length > 0 && (
            <section className="flex flex-col gap-1" aria-labelledby="earnings-transfers">
              <h2 id="earnings-transfers" className="text-lg font-semibold">
                Transfers to your Stripe account
              </h2>
              {data.transfers.some((transfer) => transfer.delayed) && (
                <p className="text-sm text-muted-foreground">
                  A delayed transfer is still yours: Stripe has not taken it yet, and we are seeing to it.
                </p>
              )}
              <ul className="divide-y">
                {data.transfers.map((transfer) => (
                  <TransferLine
                    key={transfer.requestId}
                    transfer={transfer}
                    payoutsEnabled={data.payoutSetup?.payoutsEnabled ?? false}
                  />
                ))}
              </ul>
            </section>
          )}
          {data && data.payouts.length > 0 && (
            <section className="flex flex-col gap-1" aria-labelledby="earnings-payouts">
              <h2 id="earnings-payouts" className="text-lg font-semibold">
                Payouts
              </h2>
              <ul className="divide-y">
                {data.payouts.map((payout) => (
                  <PayoutLine key={payout.id} payout={payout} />
                ))}
              </ul>
            </section>
          )}
        </>
      )}
    </Container>
  );
}
