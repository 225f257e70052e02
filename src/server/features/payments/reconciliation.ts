import { and, eq, gte, inArray, or, sql } from 'drizzle-orm';
import type { CheckoutProvider } from '#shared/constants.ts';
import type { PaymentMismatch, ReconciliationReport } from '#shared/schemas/admin-payments.ts';
import type { Database, Executor } from '../../db/client.ts';
import { checkouts, ledgerAccounts, ledgerEntries, ledgerTransactions } from '../../db/schema/payments.ts';
import { claimCheckout, recordCheckoutPayment, type AcceptPaidOffer } from './checkouts.ts';
import type { StripeGateway } from '../../platform/payments/stripe.ts';
import { paymentProvider, type PaymentProvider, type ProviderPayment } from './provider.ts';

// Reconciliation (docs/decisions/0043): the payments the provider holds against the payments the ledger records,
// matched by the key both carry (`payment:<checkoutId>`). A provider payment whose checkout still awaits its record
// (the server died between the provider's confirmation and the ledger write) is completed by the job; every other
// difference is reported to the admins and in the metrics.

/** A provider that can say which payments it holds (the `test` provider's books; Stripe's PaymentIntents). */
export type PaymentLister = {
  name: CheckoutProvider;
  listPayments: NonNullable<PaymentProvider['listPayments']>;
};

/**
 * The configured provider's listing (Stripe's through its gateway), or null for `none` and for a provider that takes
 * no money itself.
 */
export function paymentListerFor(
  name: CheckoutProvider | 'none',
  db: Executor,
  stripe: StripeGateway | null = null,
): PaymentLister | null {
  if (name === 'none') return null;
  const { listPayments } = paymentProvider(name, db, stripe);
  return listPayments ? { name, listPayments } : null;
}

/** How far back a run looks: payments older than this were reconciled by earlier runs. */
export const RECONCILIATION_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;
/** The provider's list reaches this much further back, so a payment recorded just inside the window is matched. */
const PROVIDER_MARGIN_MS = 24 * 60 * 60 * 1000;

const PAYMENT_KEY_PREFIX = 'payment:';
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The checkout a payment key names, or null for a key that names none. */
const checkoutIdOf = (key: string) => {
  const id = key.slice(PAYMENT_KEY_PREFIX.length);
  return key.startsWith(PAYMENT_KEY_PREFIX) && UUID_PATTERN.test(id) ? id : null;
};

/** A provider payment whose checkout awaits its record, unclaimed: the job records it. */
export type CompletablePayment = ProviderPayment & { checkoutId: string };

/**
 * Compares the provider's payments with the ledger's for the provider's checkouts. Reads only: the call to the
 * provider and the reads run with no transaction open.
 */
export async function comparePayments({
  db,
  lister,
  now = new Date(),
}: {
  db: Database;
  lister: PaymentLister;
  now?: Date;
}): Promise<{ report: ReconciliationReport; completable: CompletablePayment[] }> {
  const since = new Date(now.getTime() - RECONCILIATION_WINDOW_MS);
  const held = await lister.listPayments({ since: new Date(since.getTime() - PROVIDER_MARGIN_MS) });
  const heldKeys = held.map((payment) => payment.idempotencyKey);

  // The ledger's payments of this provider's checkouts in the window, and those of the keys the provider holds.
  const heldCents = sql<number>`coalesce((${db
    .select({ cents: sql`sum(${ledgerEntries.amountCents})` })
    .from(ledgerEntries)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
    .where(
      and(eq(ledgerEntries.transactionId, ledgerTransactions.id), eq(ledgerAccounts.kind, 'held_funds')),
    )}), 0)`.mapWith(Number);
  const recorded = await db
    .select({
      key: ledgerTransactions.idempotencyKey,
      requestId: ledgerTransactions.requestId,
      createdAt: ledgerTransactions.createdAt,
      heldCents,
    })
    .from(ledgerTransactions)
    .innerJoin(checkouts, sql`${ledgerTransactions.idempotencyKey} = ${PAYMENT_KEY_PREFIX} || ${checkouts.id}::text`)
    .where(
      and(
        eq(ledgerTransactions.kind, 'payment'),
        eq(checkouts.provider, lister.name),
        or(
          gte(ledgerTransactions.createdAt, since),
          heldKeys.length > 0 ? inArray(ledgerTransactions.idempotencyKey, heldKeys) : undefined,
        ),
      ),
    );
  const recordedByKey = new Map(recorded.map((row) => [row.key, row]));
  const heldCheckoutIds = heldKeys.map(checkoutIdOf).filter((id) => id !== null);
  const heldCheckouts =
    heldCheckoutIds.length === 0
      ? []
      : await db
          .select({
            id: checkouts.id,
            requestId: checkouts.requestId,
            status: checkouts.status,
            claimed: sql<boolean>`coalesce(${checkouts.claimedUntil} > now(), false)`,
          })
          .from(checkouts)
          .where(inArray(checkouts.id, heldCheckoutIds));
  const checkoutById = new Map(heldCheckouts.map((checkout) => [checkout.id, checkout]));

  const mismatches: PaymentMismatch[] = [];
  const completable: CompletablePayment[] = [];
  for (const payment of held) {
    const inLedger = recordedByKey.get(payment.idempotencyKey);
    const checkoutId = checkoutIdOf(payment.idempotencyKey);
    const checkout = checkoutId === null ? undefined : checkoutById.get(checkoutId);
    const mismatch = {
      checkoutId: checkout?.id ?? null,
      requestId: checkout?.requestId ?? null,
      providerPaymentId: payment.providerPaymentId,
      providerCents: payment.amountCents,
      at: payment.createdAt.toISOString(),
    };
    if (inLedger) {
      if (inLedger.heldCents !== payment.amountCents) {
        mismatches.push({ kind: 'amount_differs', ...mismatch, ledgerCents: inLedger.heldCents });
      }
    } else if (checkout?.status === 'awaiting_payment' && !checkout.claimed) {
      completable.push({ ...payment, checkoutId: checkout.id });
    } else if (!checkout?.claimed) {
      // A pay in flight (its checkout claimed) records its own outcome; anything else is money the ledger lacks.
      mismatches.push({ kind: 'missing_in_ledger', ...mismatch, ledgerCents: null });
    }
  }
  const heldByKey = new Set(heldKeys);
  for (const row of recorded) {
    if (row.createdAt >= since && !heldByKey.has(row.key)) {
      mismatches.push({
        kind: 'missing_at_provider',
        checkoutId: checkoutIdOf(row.key),
        requestId: row.requestId,
        providerPaymentId: null,
        providerCents: null,
        ledgerCents: row.heldCents,
        at: row.createdAt.toISOString(),
      });
    }
  }
  return {
    report: {
      provider: lister.name,
      checkedAt: now.toISOString(),
      since: since.toISOString(),
      providerPayments: held.filter((payment) => payment.createdAt >= since).length,
      ledgerPayments: recorded.filter((row) => row.createdAt >= since).length,
      // Awaiting their record, they are no mismatch yet: the job records them on its next run.
      awaitingRecord: completable.length,
      mismatches,
    },
    completable,
  };
}

/**
 * Records a provider payment for its awaiting checkout as a card's success does (claim, then the same record);
 * false when another claimed or recorded it first.
 */
export type CompletePayment = (payment: CompletablePayment) => Promise<boolean>;

/**
 * The job's completion: claims the checkout as a pay does and records the provider's payment through the pay's own
 * record (docs/decisions/0043). A record that fails keeps the claim until it lapses, and the next run tries again.
 */
export function completeThroughRecord(db: Database, acceptPaidOffer: AcceptPaidOffer): CompletePayment {
  return async ({ checkoutId, providerPaymentId, feeCents }) => {
    const claimed = await claimCheckout(db, checkoutId);
    if (!claimed) return false;
    const published = await db.transaction((tx) =>
      recordCheckoutPayment({
        db: tx,
        checkoutId,
        token: claimed.token,
        providerPaymentId,
        feeCents,
        // A Stripe checkout keeps the assignment's deadline set as its payment started; others have none here.
        deadline: claimed.checkout.deadline,
        acceptPaidOffer,
      }),
    );
    published?.publish();
    return published !== null;
  };
}

/** What one run found and did. */
export type ReconciliationRun = { report: ReconciliationReport; completed: number };

/**
 * One reconciliation: compares, then completes each checkout whose provider payment lacks its ledger record. A
 * completion that fails is logged and left for the next run; the others go on.
 */
export async function reconcilePaymentsOnce({
  db,
  lister,
  completePayment,
  log,
}: {
  db: Database;
  lister: PaymentLister;
  completePayment: CompletePayment;
  log: { error(fields: object, message: string): void };
}): Promise<ReconciliationRun> {
  const { report, completable } = await comparePayments({ db, lister });
  let completed = 0;
  for (const payment of completable) {
    try {
      if (await completePayment(payment)) completed++;
    } catch (error) {
      log.error({ err: error, checkoutId: payment.checkoutId }, 'a provider payment could not be recorded');
    }
  }
  return { report, completed };
}

/**
 * Reconciles at start and every intervalMs, never two runs at once in a process. Runs on every node: the claim lets
 * one of them complete a checkout, and the comparison only reads. stop() waits for the run in hand.
 */
export function startPaymentReconciliation({
  intervalMs,
  onRun,
  ...options
}: Parameters<typeof reconcilePaymentsOnce>[0] & {
  intervalMs: number;
  /** Told what each run found (metrics, logs). */
  onRun: (run: ReconciliationRun) => void;
}) {
  let running: Promise<void> | undefined;
  const tick = () => {
    if (running) return;
    running = reconcilePaymentsOnce(options)
      .then(onRun)
      .catch((error: unknown) => options.log.error({ err: error }, 'payments could not be reconciled'))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  tick();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
