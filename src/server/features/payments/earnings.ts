import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { CheckoutProvider } from '#shared/constants.ts';
import { paths } from '#shared/paths.ts';
import { splitReleasedCents } from '#shared/rules/commission.ts';
import { formatCents } from '#shared/rules/money.ts';
import type { Earnings, EarningsJob, Payout } from '#shared/schemas/earnings.ts';
import type { Operator } from '#shared/schemas/payments.ts';
import type { Database, Executor } from '../../db/client.ts';
import { users } from '../../db/schema/auth.ts';
import {
  checkouts,
  ledgerAccounts,
  ledgerEntries,
  ledgerTransactions,
  payouts,
  type PayoutRow,
} from '../../db/schema/payments.ts';
import { subjects } from '../../db/schema/subjects.ts';
import { tutoringRequests } from '../../db/schema/requests.ts';
import { AppError } from '../../http/errors.ts';
import { claimWork, recordWorkOutcome, type ClaimedWork } from '../../platform/jobs/claimed-work.ts';
import type { PaymentProvider } from '../../platform/payments/provider.ts';
import { confirmAdult } from '../auth/service.ts';
import { createNotification } from '../notifications/service.ts';
import { jobPaymentStates } from './job-payment-state.ts';
import { ledgerAccountBalance, postLedgerTransaction } from './ledger.ts';
import { payoutSetupOf } from './stripe-connect.ts';
import { listStripeTransfers } from './stripe-transfers.ts';

// A tutor's earnings (docs/decisions/0042): pending is derived from the money held for their jobs, available and
// paid out are ledger balances, and a payout moves the whole available balance to the tutor.

const JOBS_SHOWN = 100;
const PAYOUTS_SHOWN = 50;

/**
 * Who pays payouts out: the provider's call, or none under `manual`, where an admin records each bank transfer, and
 * under `stripe`, whose payouts follow Stripe's schedule from the tutor's connected account.
 */
export type Payouts = {
  provider: CheckoutProvider;
  pay: Pick<PaymentProvider, 'payout'> | null;
  /** For the receipt's link. */
  publicUrl: string;
  /** Who pays, as the receipt names them. */
  operator: Operator;
};

const toPayout = (row: PayoutRow): Payout => ({
  id: row.id,
  amountCents: row.amountCents,
  status: row.status,
  requestedAt: row.createdAt.toISOString(),
  paidAt: row.paidAt?.toISOString() ?? null,
});

/** Each named job's cents per account kind in its release, and when it was released. */
async function releasesOf(db: Executor, requestIds: string[]) {
  if (requestIds.length === 0) return new Map<string, { tutorCents: number; commissionCents: number; at: Date }>();
  const rows = await db
    .select({
      requestId: ledgerTransactions.requestId,
      kind: ledgerAccounts.kind,
      cents: sql<number>`sum(${ledgerEntries.amountCents})`.mapWith(Number),
      at: sql<Date>`max(${ledgerTransactions.createdAt})`.mapWith((value: string) => new Date(value)),
    })
    .from(ledgerTransactions)
    .innerJoin(ledgerEntries, eq(ledgerEntries.transactionId, ledgerTransactions.id))
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
    .where(and(eq(ledgerTransactions.kind, 'release'), inArray(ledgerTransactions.requestId, requestIds)))
    .groupBy(ledgerTransactions.requestId, ledgerAccounts.kind);
  const releases = new Map<string, { tutorCents: number; commissionCents: number; at: Date }>();
  for (const row of rows) {
    const release = releases.get(row.requestId!) ?? { tutorCents: 0, commissionCents: 0, at: row.at };
    if (row.kind === 'tutor_earnings_available') release.tutorCents += row.cents;
    if (row.kind === 'platform_commission') release.commissionCents += row.cents;
    releases.set(row.requestId!, release);
  }
  return releases;
}

/** Cents still held for each named job. */
async function heldCentsOf(db: Executor, requestIds: string[]) {
  if (requestIds.length === 0) return new Map<string, number>();
  const rows = await db
    .select({
      requestId: ledgerAccounts.ownerRequestId,
      cents: sql<number>`coalesce(sum(${ledgerEntries.amountCents}), 0)`.mapWith(Number),
    })
    .from(ledgerAccounts)
    .innerJoin(ledgerEntries, eq(ledgerEntries.accountId, ledgerAccounts.id))
    .where(and(eq(ledgerAccounts.kind, 'held_funds'), inArray(ledgerAccounts.ownerRequestId, requestIds)))
    .groupBy(ledgerAccounts.ownerRequestId);
  return new Map(rows.map((row) => [row.requestId!, row.cents]));
}

/** The tutor's paid jobs, newest payment first, each with its money from the tutor's side. */
async function listEarningsJobs(db: Executor, tutorId: string, commissionBasisPoints: number) {
  const rows = await db
    .select({
      requestId: checkouts.requestId,
      subjectName: subjects.name,
      studentName: users.username,
      amountCents: checkouts.amountCents,
      paidAt: checkouts.paidAt,
    })
    .from(checkouts)
    .innerJoin(tutoringRequests, eq(tutoringRequests.id, checkouts.requestId))
    .innerJoin(subjects, eq(subjects.id, tutoringRequests.subjectId))
    .innerJoin(users, eq(users.id, checkouts.studentId))
    .where(and(eq(checkouts.tutorId, tutorId), eq(checkouts.status, 'paid')))
    .orderBy(desc(checkouts.paidAt))
    .limit(JOBS_SHOWN);
  const requestIds = rows.map((row) => row.requestId);
  const [states, releases, held] = await Promise.all([
    jobPaymentStates({ db, requestIds }),
    releasesOf(db, requestIds),
    heldCentsOf(db, requestIds),
  ]);
  return rows.map((row): EarningsJob => {
    const release = releases.get(row.requestId);
    // Held money is shown with the commission today's rate would take when it is released.
    const share = release ?? splitReleasedCents({ releasedCents: held.get(row.requestId) ?? 0, commissionBasisPoints });
    return {
      ...row,
      state: states.get(row.requestId)!,
      commissionCents: share.commissionCents,
      tutorCents: share.tutorCents,
      paidAt: row.paidAt!.toISOString(),
      releasedAt: release?.at.toISOString() ?? null,
    };
  });
}

/** What the tutor has earned: pending (their share of held money), available, paid out, each job and payout. */
export async function getEarnings({
  db,
  tutorId,
  commissionBasisPoints,
  provider,
}: {
  db: Executor;
  tutorId: string;
  commissionBasisPoints: number;
  /** Under `stripe` Earnings shows the payout set-up and the transfers. */
  provider: CheckoutProvider;
}): Promise<Earnings> {
  const [jobs, availableCents, paidOutCents, payoutRows, [tutor]] = await Promise.all([
    listEarningsJobs(db, tutorId, commissionBasisPoints),
    ledgerAccountBalance({ db, account: { kind: 'tutor_earnings_available', userId: tutorId } }),
    ledgerAccountBalance({ db, account: { kind: 'payouts', userId: tutorId } }),
    db.select().from(payouts).where(eq(payouts.tutorId, tutorId)).orderBy(desc(payouts.createdAt)).limit(PAYOUTS_SHOWN),
    db.select({ adultConfirmedAt: users.adultConfirmedAt }).from(users).where(eq(users.id, tutorId)),
  ]);
  const stripe = provider === 'stripe';
  const [payoutSetup, transfers] = stripe
    ? await Promise.all([payoutSetupOf(db, tutorId), listStripeTransfers(db, tutorId)])
    : [null, []];
  const pendingCents = jobs
    .filter((job) => job.state === 'held' || job.state === 'frozen')
    .reduce((sum, job) => sum + job.tutorCents, 0);
  return {
    pendingCents,
    availableCents,
    paidOutCents,
    commissionBasisPoints,
    adultConfirmedAt: tutor?.adultConfirmedAt?.toISOString() ?? null,
    jobs,
    payouts: payoutRows.map(toPayout),
    payoutSetup,
    transfers,
  };
}

/** The teacher confirms being 18 or older, which a payout needs. */
export async function confirmAdultForPayouts({ db, tutorId }: { db: Executor; tutorId: string }) {
  return { adultConfirmedAt: (await confirmAdult({ db, userId: tutorId })).toISOString() };
}

/**
 * Marks a requested payout paid, posts `payout:<id>` (available → paid out) and sends the tutor its receipt, in the
 * caller's transaction; null when it was paid already.
 */
async function markPayoutPaid(
  db: Executor,
  {
    payoutId,
    providerPayoutId,
    recordedBy,
    publicUrl,
    operator,
  }: { payoutId: string; providerPayoutId: string; recordedBy?: string; publicUrl: string; operator: Operator },
) {
  const [paid] = await db
    .update(payouts)
    .set({ status: 'paid', paidAt: sql`now()`, providerPayoutId, recordedBy })
    .where(and(eq(payouts.id, payoutId), eq(payouts.status, 'requested')))
    .returning();
  if (!paid) return null;
  await postLedgerTransaction({
    db,
    idempotencyKey: `payout:${paid.id}`,
    kind: 'payout',
    entries: [
      { account: { kind: 'tutor_earnings_available', userId: paid.tutorId }, amountCents: -paid.amountCents },
      { account: { kind: 'payouts', userId: paid.tutorId }, amountCents: paid.amountCents },
    ],
  });
  await createNotification({
    db,
    publicUrl,
    userId: paid.tutorId,
    message: `Payout receipt: ${formatCents(paid.amountCents)} of your earnings was paid out to you. Payout reference ${providerPayoutId}.`,
    link: paths.earnings.getHref(),
    email: { type: 'payout_paid', sender: 'Virtual Help', operator },
  });
  return paid;
}

/**
 * The provider's payout of requested payouts: claimed in one statement, paid by the provider with no transaction
 * open, recorded as paid with its ledger posting. A call that fails leaves the payout requested for the next claim.
 */
export const payoutWork = ({
  pay,
  publicUrl,
  operator,
}: {
  pay: Pick<PaymentProvider, 'payout'>;
  publicUrl: string;
  operator: Operator;
}): ClaimedWork<typeof payouts, { payoutId: string }> => ({
  name: 'payouts',
  table: payouts,
  due: and(eq(payouts.status, 'requested'), eq(payouts.provider, 'test'))!,
  order: payouts.createdAt,
  batchSize: 10,
  leaseMs: 60_000,
  maxClaims: 5,
  call: (row) => pay.payout({ idempotencyKey: `payout:${row.id}`, payeeId: row.tutorId, amountCents: row.amountCents }),
  async record({ db, row, outcome }) {
    if (outcome.ok) {
      await markPayoutPaid(db, { payoutId: row.id, providerPayoutId: outcome.value.payoutId, publicUrl, operator });
    }
  },
  // Left requested: an admin sees it in the payments section.
  giveUp: async () => {},
});

/** Pays this one payout now (claim, call, record); when another holder has its claim, that one pays it. */
async function payNow(db: Database, provider: Payouts & { pay: Pick<PaymentProvider, 'payout'> }, payoutId: string) {
  const work = payoutWork(provider);
  const { token, rows } = await claimWork({
    db,
    work: { ...work, due: and(work.due, eq(payouts.id, payoutId))!, batchSize: 1 },
  });
  for (const row of rows) {
    const outcome = await work.call(row).then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    await recordWorkOutcome({ db, work, token, row, outcome });
  }
}

/**
 * The tutor asks for their whole available balance. Under the same idempotency key a repeat answers with the first
 * payout. Refused without the adult confirmation (403), with nothing available (409) or while a payout is still
 * requested (409). The provider pays it at once when it can; under `manual` it waits for an admin's record.
 */
export async function requestPayout({
  db,
  payouts: provider,
  tutorId,
  idempotencyKey,
}: {
  db: Database;
  payouts: Payouts;
  tutorId: string;
  idempotencyKey: string;
}) {
  // Under Stripe released earnings are transferred to the tutor's account: there is nothing to ask for.
  if (provider.provider === 'stripe') throw new AppError('NOT_FOUND');
  const payout = await db.transaction(async (tx) => {
    // One request of the tutor's at a time: the balance read below stays theirs to pay out.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`payouts:${tutorId}`}))`);
    const [repeat] = await tx
      .select()
      .from(payouts)
      .where(and(eq(payouts.tutorId, tutorId), eq(payouts.idempotencyKey, idempotencyKey)));
    if (repeat) return repeat;
    const [tutor] = await tx
      .select({ adultConfirmedAt: users.adultConfirmedAt })
      .from(users)
      .where(eq(users.id, tutorId));
    if (!tutor?.adultConfirmedAt) throw new AppError('ADULT_CONFIRMATION_REQUIRED');
    const [open] = await tx
      .select({ id: payouts.id })
      .from(payouts)
      .where(and(eq(payouts.tutorId, tutorId), eq(payouts.status, 'requested')));
    if (open) throw new AppError('PAYOUT_IN_PROGRESS');
    const availableCents = await ledgerAccountBalance({
      db: tx,
      account: { kind: 'tutor_earnings_available', userId: tutorId },
    });
    if (availableCents <= 0) throw new AppError('NOTHING_TO_PAY_OUT');
    const [created] = await tx
      .insert(payouts)
      .values({ tutorId, amountCents: availableCents, provider: provider.provider, idempotencyKey })
      .returning();
    return created!;
  });
  if (payout.status === 'requested' && provider.pay) await payNow(db, { ...provider, pay: provider.pay }, payout.id);
  const [current] = await db.select().from(payouts).where(eq(payouts.id, payout.id));
  return toPayout(current!);
}

/**
 * An admin records a requested payout as paid (a bank transfer under `manual`), with their reference; the caller
 * audits it in the same transaction. Not found: 404; paid already: 409.
 */
export async function recordPayoutPaid({
  db,
  publicUrl,
  operator,
  payoutId,
  adminId,
  reference,
}: {
  db: Executor;
  publicUrl: string;
  operator: Operator;
  payoutId: string;
  adminId: string;
  reference: string;
}) {
  const paid = await markPayoutPaid(db, {
    payoutId,
    providerPayoutId: reference,
    recordedBy: adminId,
    publicUrl,
    operator,
  });
  if (paid) return toPayout(paid);
  const [existing] = await db.select({ id: payouts.id }).from(payouts).where(eq(payouts.id, payoutId));
  if (!existing) throw new AppError('NOT_FOUND', { message: 'Payout not found' });
  throw new AppError('CONFLICT', { message: 'This payout has been recorded as paid already.' });
}
