import { Download, Search } from 'lucide-react';
import { useState, type SubmitEvent } from 'react';
import {
  adminPaymentsMessages,
  ledgerSearchTarget,
  type AdminLedgerAccount,
  type AdminLedgerTransaction,
  type LedgerSearchAnswer,
} from '#shared/schemas/admin-payments.ts';
import { formatLedgerCents } from '#shared/rules/money.ts';
import { Alert } from '#web/components/ui/alert.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card } from '#web/components/ui/card.tsx';
import { EmptyState } from '#web/components/ui/empty-state.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { ApiError, errorMessage } from '#web/lib/api.ts';
import { cn } from '#web/lib/utils.ts';
import { ledgerCsvHref, useLedgerSearch } from '../payments-api.ts';
import { adminDateTime } from './admin-format.tsx';
import { JobAdjustment } from './job-adjustment.tsx';
import { UserWithVhNumber } from './user-link.tsx';

const accountLabels: Record<AdminLedgerAccount['kind'], string> = {
  student_payments: 'Student payments',
  refunds: 'Refunds',
  tutor_earnings_pending: 'Tutor earnings, pending',
  tutor_earnings_available: 'Tutor earnings, available',
  payouts: 'Payouts',
  held_funds: 'Held for the job',
  platform_commission: 'Platform commission',
  provider_fees: 'Provider fees',
};

const transactionLabels: Record<AdminLedgerTransaction['kind'], string> = {
  payment: 'Payment',
  release: 'Release',
  refund: 'Refund',
  payout: 'Payout',
  provider_fee: 'Provider fee',
  adjustment: 'Adjustment',
};

/** Whose an account is: a user (linked for admins who may open users), a job, or the platform. */
function AccountOwner({ account }: { account: AdminLedgerAccount }) {
  const { owner } = account;
  if (owner.type === 'platform') return <span className="text-muted-foreground">Platform</span>;
  if (owner.type === 'job') return <span>{owner.title}</span>;
  return <UserWithVhNumber user={owner} />;
}

/** A signed amount: money in to the account plain, money out with its minus sign and muted. */
function Amount({ cents }: { cents: number }) {
  return (
    <span className={cn('font-medium whitespace-nowrap tabular-nums', cents < 0 && 'text-muted-foreground')}>
      {formatLedgerCents(cents)}
    </span>
  );
}

function SearchResult({ q, answer }: { q: string; answer: LedgerSearchAnswer }) {
  const { subject } = answer;
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex min-w-0 flex-col gap-1">
          <h2 className="text-xl font-semibold">
            {subject.kind === 'job'
              ? `Job: ${subject.title}`
              : subject.users.length === 1
                ? `User: ${subject.users[0]!.username}`
                : `${subject.users.length} users`}
          </h2>
          <p className="text-sm break-all text-muted-foreground">
            {subject.kind === 'job'
              ? subject.requestId
              : subject.users.map((user) => `${user.username} · VH ${user.vhNumber} · ${user.email}`).join('; ')}
          </p>
        </div>
        <Button asChild variant="outline">
          <a href={ledgerCsvHref(q)} download>
            <Download aria-hidden="true" />
            Download CSV
          </a>
        </Button>
      </div>

      <section aria-labelledby="ledger-balances" className="flex flex-col gap-3">
        <h3 id="ledger-balances" className="text-lg font-semibold">
          Balances
        </h3>
        {answer.balances.length === 0 ? (
          <p className="text-sm text-muted-foreground">No ledger accounts yet.</p>
        ) : (
          <dl className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
            {answer.balances.map(({ account, balanceCents }) => (
              <Card key={account.id} className="gap-1 px-4 py-3">
                <dt className="text-sm text-muted-foreground">
                  {accountLabels[account.kind]} · <AccountOwner account={account} />
                </dt>
                <dd className="text-2xl font-bold">
                  <Amount cents={balanceCents} />
                </dd>
              </Card>
            ))}
          </dl>
        )}
      </section>

      {subject.kind === 'job' && <JobAdjustment key={subject.requestId} requestId={subject.requestId} />}

      <section aria-labelledby="ledger-transactions" className="flex flex-col gap-3">
        <h3 id="ledger-transactions" className="text-lg font-semibold">
          Transactions
        </h3>
        {answer.transactions.length === 0 ? (
          <p className="text-sm text-muted-foreground">No transactions yet: nothing was paid, held or released here.</p>
        ) : (
          <ol className="flex flex-col gap-3">
            {answer.transactions.map((transaction) => (
              <li key={transaction.id}>
                <Card className="gap-3 px-4 py-4">
                  <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                    <Badge variant="info">{transactionLabels[transaction.kind]}</Badge>
                    <span className="text-sm">{adminDateTime(transaction.createdAt)}</span>
                    <code className="text-xs break-all text-muted-foreground">{transaction.idempotencyKey}</code>
                  </div>
                  <table className="w-full text-sm">
                    <caption className="sr-only">
                      {transactionLabels[transaction.kind]} of {adminDateTime(transaction.createdAt)}
                    </caption>
                    <thead className="sr-only">
                      <tr>
                        <th scope="col">Account</th>
                        <th scope="col">Whose</th>
                        <th scope="col">Amount</th>
                      </tr>
                    </thead>
                    <tbody>
                      {transaction.entries.map((entry, index) => (
                        <tr key={index} className="border-t align-top first:border-t-0">
                          <td className="py-1.5 pr-3">{accountLabels[entry.account.kind]}</td>
                          <td className="py-1.5 pr-3 break-words">
                            <AccountOwner account={entry.account} />
                          </td>
                          <td className="py-1.5 text-right">
                            <Amount cents={entry.amountCents} />
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </Card>
              </li>
            ))}
          </ol>
        )}
        {answer.truncated && (
          <p className="text-sm text-muted-foreground">
            Only the newest {answer.transactions.length} transactions are shown; the CSV has them all.
          </p>
        )}
      </section>
    </div>
  );
}

/** The ledger search: a job id, a VH number or an e-mail address, kept in the address (`q`) so it can be shared. */
export function LedgerSearch({ q, onSearch }: { q: string; onSearch: (q: string) => void }) {
  const [typed, setTyped] = useState(q);
  const [invalid, setInvalid] = useState(false);
  const result = useLedgerSearch(q);

  function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = typed.trim();
    const isValid = ledgerSearchTarget(value) !== null;
    setInvalid(!isValid);
    if (isValid) onSearch(value);
  }

  return (
    <div className="flex flex-col gap-6">
      <form
        role="search"
        aria-label="Ledger"
        noValidate
        onSubmit={submit}
        className="flex flex-col gap-3 sm:flex-row sm:items-end"
      >
        <FormField
          label="Job id, VH number or e-mail"
          className="sm:w-96"
          error={invalid ? adminPaymentsMessages.searchInvalid : undefined}
        >
          <Input
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            autoComplete="off"
            spellCheck={false}
          />
        </FormField>
        <Button type="submit" className={cn(invalid && 'sm:mb-7')}>
          <Search aria-hidden="true" />
          Search
        </Button>
      </form>
      {q === '' ? (
        <EmptyState
          title="Search the ledger"
          description="Enter a job's id to see its payment, what is held and where it went, or a user's VH number or e-mail address to see their money."
          headingLevel="h2"
        />
      ) : result.isError ? (
        result.error instanceof ApiError && result.error.status === 404 ? (
          <EmptyState title={adminPaymentsMessages.searchNotFound} headingLevel="h2" />
        ) : (
          <Alert variant="destructive" role="alert" title={adminPaymentsMessages.ledgerFailed}>
            {errorMessage(result.error)}
          </Alert>
        )
      ) : result.data ? (
        <SearchResult q={q} answer={result.data} />
      ) : (
        <div className="flex flex-col gap-3" aria-busy="true">
          <span className="sr-only">Loading the ledger…</span>
          <Skeleton className="h-8 w-64" />
          <Skeleton className="h-24 w-full" />
          <Skeleton className="h-24 w-full" />
        </div>
      )}
    </div>
  );
}
