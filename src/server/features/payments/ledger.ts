import { and, eq, or, sql } from 'drizzle-orm';
import type {
  LEDGER_JOB_ACCOUNT_KINDS,
  LEDGER_PLATFORM_ACCOUNT_KINDS,
  LEDGER_TRANSACTION_KINDS,
  LEDGER_USER_ACCOUNT_KINDS,
} from '#shared/constants.ts';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema/auth.ts';
import {
  checkouts,
  ledgerAccounts,
  ledgerEntries,
  ledgerTransactions,
  type LedgerTransaction,
} from '../../db/schema/payments.ts';
import { AppError } from '../../http/errors.ts';

const ledgerMessages = {
  erasedPerson: 'This money event concerns an account that was deleted: it is not recorded.',
};

/** An account named by what it is: a user's, a job's (its request's), or one of the platform's. */
export type LedgerAccountRef =
  | { kind: (typeof LEDGER_USER_ACCOUNT_KINDS)[number]; userId: string }
  | { kind: (typeof LEDGER_JOB_ACCOUNT_KINDS)[number]; requestId: string }
  | { kind: (typeof LEDGER_PLATFORM_ACCOUNT_KINDS)[number] };

export type LedgerEntryInput = { account: LedgerAccountRef; amountCents: number };

export type PostLedgerTransactionOptions = {
  db: Executor;
  /** Names the money event (a provider's event id, a request's idempotency key, a job's release): posted once. */
  idempotencyKey: string;
  kind: (typeof LEDGER_TRANSACTION_KINDS)[number];
  /** The job the event belongs to, if any. */
  requestId?: string;
  /** Signed cents, summing to zero: what an account receives is positive, what it gives negative. */
  entries: LedgerEntryInput[];
};

export type LedgerPosting = {
  transaction: LedgerTransaction;
  entries: { accountId: string; amountCents: number }[];
  /** False when the key had been posted before: nothing was written, and this is that first posting. */
  posted: boolean;
};

const ownerOf = (account: LedgerAccountRef) => ({
  ownerUserId: 'userId' in account ? account.userId : null,
  ownerRequestId: 'requestId' in account ? account.requestId : null,
});

const isAccount = (account: LedgerAccountRef) => {
  const { ownerUserId, ownerRequestId } = ownerOf(account);
  return and(
    eq(ledgerAccounts.kind, account.kind),
    sql`${ledgerAccounts.ownerUserId} is not distinct from ${ownerUserId}`,
    sql`${ledgerAccounts.ownerRequestId} is not distinct from ${ownerRequestId}`,
  );
};

type AccountOwner = { kind: string; ownerUserId: string | null; ownerRequestId: string | null };
const accountKey = ({ kind, ownerUserId, ownerRequestId }: AccountOwner) =>
  `${kind}/${ownerUserId ?? ''}/${ownerRequestId ?? ''}`;

/**
 * The accounts' ids in the order given, each created on first use (racing first uses get the same one): two
 * statements however many accounts a posting names.
 */
export async function ensureLedgerAccounts({ db, accounts }: { db: Executor; accounts: LedgerAccountRef[] }) {
  const wanted = accounts.map((account) => ({ kind: account.kind, ...ownerOf(account) }));
  const distinct = [...new Map(wanted.map((account) => [accountKey(account), account])).values()];
  await db.insert(ledgerAccounts).values(distinct).onConflictDoNothing();
  const found = await db
    .select({
      id: ledgerAccounts.id,
      kind: ledgerAccounts.kind,
      ownerUserId: ledgerAccounts.ownerUserId,
      ownerRequestId: ledgerAccounts.ownerRequestId,
    })
    .from(ledgerAccounts)
    .where(or(...accounts.map(isAccount)));
  const idOf = new Map(found.map((account) => [accountKey(account), account.id]));
  return wanted.map((account) => idOf.get(accountKey(account))!);
}

/** The account's id, created on first use (racing first uses get the same one). */
export async function ensureLedgerAccount({ db, account }: { db: Executor; account: LedgerAccountRef }) {
  const [id] = await ensureLedgerAccounts({ db, accounts: [account] });
  return id!;
}

/** The account's balance in cents: the sum of its entries (0 for an account never used). */
export async function ledgerAccountBalance({ db, account }: { db: Executor; account: LedgerAccountRef }) {
  const [row] = await db
    .select({ cents: sql<number>`coalesce(sum(${ledgerEntries.amountCents}), 0)`.mapWith(Number) })
    .from(ledgerEntries)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
    .where(isAccount(account));
  return row!.cents;
}

/** What the posting under this key moved, in cents by account kind (nothing before it is posted). */
export async function postingCentsByKind(db: Executor, idempotencyKey: string) {
  const rows = await db
    .select({ kind: ledgerAccounts.kind, cents: ledgerEntries.amountCents })
    .from(ledgerEntries)
    .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
    .where(eq(ledgerTransactions.idempotencyKey, idempotencyKey));
  const moved: Partial<Record<LedgerAccountRef['kind'], number>> = {};
  for (const { kind, cents } of rows) moved[kind] = (moved[kind] ?? 0) + cents;
  return moved;
}

function assertBalanced(entries: LedgerEntryInput[]) {
  if (entries.length < 2) throw new RangeError('a ledger transaction needs at least two entries');
  for (const { amountCents } of entries) {
    if (!Number.isSafeInteger(amountCents) || amountCents === 0) {
      throw new RangeError(`a ledger entry is a non-zero whole number of cents, not ${amountCents}`);
    }
  }
  const total = entries.reduce((sum, entry) => sum + entry.amountCents, 0);
  if (total !== 0) throw new RangeError(`a ledger transaction's entries must sum to zero, not ${total} cents`);
}

async function findPosting(db: Executor, idempotencyKey: string): Promise<LedgerPosting> {
  const [transaction] = await db
    .select()
    .from(ledgerTransactions)
    .where(eq(ledgerTransactions.idempotencyKey, idempotencyKey));
  const entries = await db
    .select({ accountId: ledgerEntries.accountId, amountCents: ledgerEntries.amountCents })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.transactionId, transaction!.id))
    .orderBy(ledgerEntries.line);
  return { transaction: transaction!, entries, posted: false };
}

/**
 * Holds the rows of the people a posting concerns (the owners of its accounts, both sides of its job: of its checkouts
 * waiting for or having a payment, not of those that lapsed or were cancelled) until it commits, and refuses it for a
 * person already erased (decision 0062). The erasure locks the person's row for update
 * and checks their money in the same transaction: it waits for a posting in flight and then sees it, or it erases
 * first and the posting, having waited for it, is refused. Key-share locks leave ordinary updates of the rows free.
 */
async function lockPeopleOf(tx: Executor, entries: LedgerEntryInput[], requestId: string | undefined) {
  const owners = entries.flatMap(({ account }) => ('userId' in account ? [account.userId] : []));
  const liveCheckout = sql`${checkouts.requestId} = ${requestId} and ${checkouts.status} in ('awaiting_payment', 'paid')`;
  const jobSides = requestId
    ? sql`union select ${checkouts.studentId} from ${checkouts} where ${liveCheckout}
          union select ${checkouts.tutorId} from ${checkouts} where ${liveCheckout}`
    : sql``;
  const people = await tx.execute<{ erased: boolean }>(sql`
    select ${users.erasedAt} is not null as erased from ${users}
    where ${users.id} in (select unnest(${sql.param(owners)}::uuid[]) ${jobSides})
    order by ${users.id} for key share`);
  if (people.rows.some((person) => person.erased)) {
    throw new AppError('CONFLICT', { message: ledgerMessages.erasedPerson });
  }
}

/**
 * Posts one money event, in the caller's transaction when given one. The code refuses an unbalanced one before
 * writing; the database refuses it again at commit whatever wrote it. A key posted before posts nothing and returns
 * the first posting (a repeated webhook, a double click, a retried job), even while that one is still committing.
 */
export async function postLedgerTransaction({
  db,
  idempotencyKey,
  kind,
  requestId,
  entries,
}: PostLedgerTransactionOptions): Promise<LedgerPosting> {
  assertBalanced(entries);
  return db.transaction(async (tx) => {
    const [transaction] = await tx
      .insert(ledgerTransactions)
      .values({ idempotencyKey, kind, requestId })
      .onConflictDoNothing({ target: ledgerTransactions.idempotencyKey })
      .returning();
    if (!transaction) return findPosting(tx, idempotencyKey);
    // After the key's check: an event posted before an erasure is still answered with its first posting.
    await lockPeopleOf(tx, entries, requestId);
    const accountIds = await ensureLedgerAccounts({ db: tx, accounts: entries.map((entry) => entry.account) });
    const rows = entries.map((entry, index) => ({
      transactionId: transaction.id,
      line: index + 1,
      accountId: accountIds[index]!,
      amountCents: entry.amountCents,
    }));
    await tx.insert(ledgerEntries).values(rows);
    return {
      transaction,
      entries: rows.map(({ accountId, amountCents }) => ({ accountId, amountCents })),
      posted: true,
    };
  });
}
