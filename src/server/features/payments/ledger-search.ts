import { and, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import {
  adminPaymentsMessages,
  ledgerSearchTarget,
  type AdminLedgerAccount,
  type AdminLedgerTransaction,
  type LedgerSearchAnswer,
  type PaymentTotals,
} from '#shared/schemas/admin-payments.ts';
import { formatLedgerDollars } from '#shared/rules/money.ts';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema/auth.ts';
import { ledgerAccounts, ledgerEntries, ledgerTransactions } from '../../db/schema/payments.ts';
import { tutoringRequests } from '../../db/schema/requests.ts';
import { subjects } from '../../db/schema/subjects.ts';
import { AppError } from '../../http/errors.ts';

// The admin's view of the ledger: a job's or a user's transactions with their entries and balances, as the page
// shows them and as the CSV lists them. Read only: admins change money through the flows that post to the ledger.

/** The most transactions a search shows; the CSV has them all. */
export const LEDGER_SEARCH_LIMIT = 100;

type Subject = LedgerSearchAnswer['subject'];

/** A job as the admin recognises it: its subject and topic ("Mathematics: Fractions"), or its subject and type. */
const jobTitle = sql<string>`${subjects.name} || coalesce(': ' || ${tutoringRequests.topic}, ' ' || ${tutoringRequests.type})`;

/** The job or users a search names, and the condition on accounts that are theirs; 404 when it names nobody. */
async function findSubject(db: Executor, q: string): Promise<{ subject: Subject; owns: SQL }> {
  const target = ledgerSearchTarget(q);
  if (target?.kind === 'job') {
    const [job] = await db
      .select({ id: tutoringRequests.id, title: jobTitle })
      .from(tutoringRequests)
      .innerJoin(subjects, eq(subjects.id, tutoringRequests.subjectId))
      .where(eq(tutoringRequests.id, target.requestId));
    if (!job) throw new AppError('NOT_FOUND', { message: adminPaymentsMessages.searchNotFound });
    return {
      subject: { kind: 'job', requestId: job.id, title: job.title },
      owns: eq(ledgerAccounts.ownerRequestId, job.id),
    };
  }
  if (!target) throw new AppError('VALIDATION_FAILED', { message: adminPaymentsMessages.searchInvalid });
  const found = await db
    .select({ id: users.id, username: users.username, vhNumber: users.vhNumber, email: users.email })
    .from(users)
    .where(
      and(
        eq(users.isSystem, false),
        target.kind === 'vh' ? eq(users.vhNumber, target.vhNumber) : sql`lower(${users.email}) = ${target.email}`,
      ),
    )
    .orderBy(users.username);
  if (found.length === 0) throw new AppError('NOT_FOUND', { message: adminPaymentsMessages.searchNotFound });
  return {
    subject: { kind: 'users', users: found },
    owns: inArray(
      ledgerAccounts.ownerUserId,
      found.map((user) => user.id),
    ),
  };
}

/** The accounts with their owners' names, as the admin reads them. */
async function describeAccounts(db: Executor, accountIds: string[]) {
  if (accountIds.length === 0) return new Map<string, AdminLedgerAccount>();
  const rows = await db
    .select({
      id: ledgerAccounts.id,
      kind: ledgerAccounts.kind,
      userId: users.id,
      username: users.username,
      vhNumber: users.vhNumber,
      requestId: tutoringRequests.id,
      title: jobTitle,
    })
    .from(ledgerAccounts)
    .leftJoin(users, eq(users.id, ledgerAccounts.ownerUserId))
    .leftJoin(tutoringRequests, eq(tutoringRequests.id, ledgerAccounts.ownerRequestId))
    .leftJoin(subjects, eq(subjects.id, tutoringRequests.subjectId))
    .where(inArray(ledgerAccounts.id, accountIds));
  return new Map(
    rows.map((row): [string, AdminLedgerAccount] => [
      row.id,
      {
        id: row.id,
        kind: row.kind,
        owner:
          row.userId !== null
            ? { type: 'user', id: row.userId, username: row.username!, vhNumber: row.vhNumber! }
            : row.requestId !== null
              ? { type: 'job', id: row.requestId, title: row.title }
              : { type: 'platform' },
      },
    ]),
  );
}

/**
 * The ledger of a job (its request id) or of users (a VH number, which several may share, or an e-mail address):
 * their accounts' balances and the transactions touching them, newest first, each with all its entries. `limit`
 * caps the transactions (the page); the CSV passes none.
 */
export async function searchLedger({
  db,
  q,
  limit,
}: {
  db: Executor;
  q: string;
  limit?: number;
}): Promise<LedgerSearchAnswer> {
  const { subject, owns } = await findSubject(db, q);
  const balanceRows = await db
    .select({
      accountId: ledgerAccounts.id,
      balanceCents: sql<number>`coalesce(sum(${ledgerEntries.amountCents}), 0)`.mapWith(Number),
    })
    .from(ledgerAccounts)
    .leftJoin(ledgerEntries, eq(ledgerEntries.accountId, ledgerAccounts.id))
    .where(owns)
    .groupBy(ledgerAccounts.id);
  const touching = db
    .select({ id: ledgerEntries.transactionId })
    .from(ledgerEntries)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
    .where(owns);
  const jobRequestId = subject.kind === 'job' ? subject.requestId : null;
  const newestFirst = db
    .select()
    .from(ledgerTransactions)
    .where(
      or(
        inArray(ledgerTransactions.id, touching),
        jobRequestId ? eq(ledgerTransactions.requestId, jobRequestId) : undefined,
      ),
    )
    .orderBy(desc(ledgerTransactions.createdAt), desc(ledgerTransactions.id))
    .$dynamic();
  const transactionRows = await (limit === undefined ? newestFirst : newestFirst.limit(limit + 1));
  const shown = limit === undefined ? transactionRows : transactionRows.slice(0, limit);
  const entryRows =
    shown.length === 0
      ? []
      : await db
          .select()
          .from(ledgerEntries)
          .where(
            inArray(
              ledgerEntries.transactionId,
              shown.map((transaction) => transaction.id),
            ),
          )
          .orderBy(ledgerEntries.transactionId, ledgerEntries.line);
  const accounts = await describeAccounts(db, [
    ...new Set([...balanceRows.map((row) => row.accountId), ...entryRows.map((entry) => entry.accountId)]),
  ]);
  const transactions = shown.map((transaction): AdminLedgerTransaction => ({
    id: transaction.id,
    kind: transaction.kind,
    idempotencyKey: transaction.idempotencyKey,
    requestId: transaction.requestId,
    createdAt: transaction.createdAt.toISOString(),
    entries: entryRows
      .filter((entry) => entry.transactionId === transaction.id)
      .map((entry) => ({ account: accounts.get(entry.accountId)!, amountCents: entry.amountCents })),
  }));
  return {
    subject,
    balances: balanceRows.map((row) => ({ account: accounts.get(row.accountId)!, balanceCents: row.balanceCents })),
    transactions,
    truncated: shown.length < transactionRows.length,
  };
}

/** The dashboard's money counters: the platform's commission balance and the money held for jobs. */
export async function paymentTotals(db: Executor): Promise<PaymentTotals> {
  const balanceOf = (kind: 'platform_commission' | 'held_funds') =>
    db
      .select({ cents: sql<number>`coalesce(sum(${ledgerEntries.amountCents}), 0)`.mapWith(Number) })
      .from(ledgerEntries)
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
      .where(eq(ledgerAccounts.kind, kind));
  const [[revenue], [held]] = await Promise.all([balanceOf('platform_commission'), balanceOf('held_funds')]);
  return { revenueCents: revenue!.cents, heldCents: held!.cents };
}

/**
 * One CSV cell: quoted when it holds a separator, a quote or a line break; text a spreadsheet would run as a
 * formula (starting with = + - @ or a tab) is prefixed with an apostrophe.
 */
function csvCell(value: string, { text = true } = {}) {
  const safe = text && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

const ownerLabel = ({ owner }: AdminLedgerAccount) =>
  owner.type === 'user' ? `${owner.username} (VH ${owner.vhNumber})` : owner.type === 'job' ? owner.title : 'Platform';

/** A search's transactions as CSV, one line per entry, oldest first (as a ledger is read). */
export function ledgerCsv(answer: LedgerSearchAnswer) {
  const header = ['date', 'transaction', 'kind', 'key', 'job', 'account', 'owner', 'amount_cents', 'amount_usd'];
  const lines = answer.transactions
    .toReversed()
    .flatMap((transaction) =>
      transaction.entries.map((entry) =>
        [
          csvCell(transaction.createdAt),
          csvCell(transaction.id),
          csvCell(transaction.kind),
          csvCell(transaction.idempotencyKey),
          csvCell(transaction.requestId ?? ''),
          csvCell(entry.account.kind),
          csvCell(ownerLabel(entry.account)),
          csvCell(String(entry.amountCents), { text: false }),
          csvCell(formatLedgerDollars(entry.amountCents), { text: false }),
        ].join(','),
      ),
    );
  return `${[header.join(','), ...lines].join('\r\n')}\r\n`;
}
