import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCheckout } from '../../../../tests/support/checkout.ts';
import { openTestDatabase } from '../../../../tests/support/test-database.ts';
import type { DatabaseHandle, Executor } from '../../db/client.ts';
import { checkouts, ledgerTransactions, nextReceiptNumber, type Checkout } from '../../db/schema/payments.ts';
import { tutoringRequests } from '../../db/schema/requests.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import {
  comparePayments,
  completeThroughRecord,
  ledgerAccountBalance,
  paymentListerFor,
  postLedgerTransaction,
} from './service.ts';
import { acceptPaidOfferFor } from './paid-offer.ts';
import { paymentProvider } from './provider.ts';
import { reconcilePaymentsOnce, type CompletablePayment } from './reconciliation.ts';

/** The test provider charged the good test card under the checkout's key, as a pay does. */
const chargeTestCard = async (db: Executor, row: Checkout, amountCents: number) => {
  const card = { number: '4242 4242 4242 4242', expiry: '12/40', cvc: '123', name: 'Ada Lovelace' };
  const outcome = await paymentProvider('test', db).chargeCard!({
    amountCents,
    card,
    idempotencyKey: `payment:${row.id}`,
  });
  expect(outcome.outcome).toBe('succeeded');
};

describe('reconciling the test provider’s payments with the ledger', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  const checkout = (values?: Parameters<typeof createCheckout>[1]) => createCheckout(database.db, values);
  const charged = (row: Checkout, amountCents = row.amountCents) => chargeTestCard(database.db, row, amountCents);

  /** The ledger recorded the checkout's payment of these cents. */
  const recorded = (row: Checkout, amountCents = row.amountCents) =>
    postLedgerTransaction({
      db: database.db,
      idempotencyKey: `payment:${row.id}`,
      kind: 'payment',
      requestId: row.requestId,
      entries: [
        { account: { kind: 'student_payments', userId: row.studentId }, amountCents: -amountCents },
        { account: { kind: 'held_funds', requestId: row.requestId }, amountCents },
      ],
    });

  const paid = { status: 'paid' as const, paidAt: new Date(), receiptNumber: nextReceiptNumber() };
  const compare = () => comparePayments({ db: database.db, lister: paymentListerFor('test', database.db)! });
  const findingsOf = async (row: Checkout) => {
    const { report, completable } = await compare();
    return {
      mismatches: report.mismatches.filter((mismatch) => mismatch.checkoutId === row.id),
      completable: completable.filter((payment) => payment.checkoutId === row.id),
    };
  };

  it('finds nothing wrong with a payment both the provider and the ledger hold, and counts both', async () => {
    const before = (await compare()).report;
    const row = await checkout(paid);
    await charged(row);
    await charged(row); // a repeated charge under the same key is the same payment
    await recorded(row);
    const { report } = await compare();
    expect(report.mismatches).toEqual(before.mismatches);
    expect(report.providerPayments).toBe(before.providerPayments + 1);
    expect(report.ledgerPayments).toBe(before.ledgerPayments + 1);
    expect(report.provider).toBe('test');
  });

  it('gives the job a payment whose checkout awaits its record, and leaves one being paid alone', async () => {
    const awaiting = await checkout();
    await charged(awaiting);
    expect(await findingsOf(awaiting)).toEqual({
      mismatches: [],
      completable: [expect.objectContaining({ checkoutId: awaiting.id, amountCents: 2_000, feeCents: 88 })],
    });
    expect((await compare()).report.awaitingRecord).toBeGreaterThanOrEqual(1);

    const beingPaid = await checkout({ claimToken: randomUUID(), claimedUntil: new Date(Date.now() + 60_000) });
    await charged(beingPaid);
    expect(await findingsOf(beingPaid)).toEqual({ mismatches: [], completable: [] });
    // Its claim lapsed (the pay died): now it awaits the record.
    await database.db
      .update(checkouts)
      .set({ claimedUntil: sql`now() - interval '1 second'` })
      .where(eq(checkouts.id, beingPaid.id));
    expect((await findingsOf(beingPaid)).completable).toHaveLength(1);
  });

  it('reports money the provider holds for a checkout that lapsed, the ledger never having it', async () => {
    const row = await checkout({ status: 'lapsed' });
    await charged(row);
    expect(await findingsOf(row)).toEqual({
      completable: [],
      mismatches: [
        {
          kind: 'missing_in_ledger',
          checkoutId: row.id,
          requestId: row.requestId,
          providerPaymentId: `test_payment:${row.id}`,
          providerCents: 2_000,
          ledgerCents: null,
          at: expect.any(String),
        },
      ],
    });
  });

  it('reports a payment the ledger records that the provider does not hold, and amounts that differ', async () => {
    const unknownToProvider = await checkout(paid);
    await recorded(unknownToProvider);
    expect((await findingsOf(unknownToProvider)).mismatches).toEqual([
      expect.objectContaining({ kind: 'missing_at_provider', providerPaymentId: null, ledgerCents: 2_000 }),
    ]);

    const differing = await checkout(paid);
    await charged(differing, 2_500);
    await recorded(differing);
    expect((await findingsOf(differing)).mismatches).toEqual([
      expect.objectContaining({ kind: 'amount_differs', providerCents: 2_500, ledgerCents: 2_000 }),
    ]);
  });

  it('completes what awaits its record and goes on past a completion that fails', async () => {
    const [first, second] = [await checkout(), await checkout()];
    await charged(first);
    await charged(second);
    const tried: string[] = [];
    const failures: object[] = [];
    const run = await reconcilePaymentsOnce({
      db: database.db,
      lister: paymentListerFor('test', database.db)!,
      completePayment: async (payment: CompletablePayment) => {
        tried.push(payment.checkoutId);
        if (payment.checkoutId === first.id) throw new Error('the database went away');
        return true;
      },
      log: { error: (fields) => failures.push(fields) },
    });
    expect(tried).toEqual(expect.arrayContaining([first.id, second.id]));
    expect(failures).toEqual([expect.objectContaining({ checkoutId: first.id })]);
    expect(run.completed).toBe(tried.length - 1);
  });
});

describe('the reconciliation job completing a payment whose record was lost', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('records it once through the pay’s own record: paid, posted, the offer accepted; a second run does nothing', async () => {
    const row = await createCheckout(t.db);
    await chargeTestCard(t.db, row, row.amountCents);
    const run = () =>
      reconcilePaymentsOnce({
        db: t.db,
        lister: paymentListerFor('test', t.db)!,
        completePayment: completeThroughRecord(
          t.db,
          acceptPaidOfferFor({ realtime: t.realtime, publicUrl: 'http://x', operator: t.config.operator }),
        ),
        log: { error: (fields) => expect.fail(JSON.stringify(fields)) },
      });
    expect((await run()).completed).toBeGreaterThanOrEqual(1);
    const [paid] = await t.db.select().from(checkouts).where(eq(checkouts.id, row.id));
    expect(paid).toMatchObject({ status: 'paid', providerPaymentId: `test_payment:${row.id}`, claimToken: null });
    const [request] = await t.db.select().from(tutoringRequests).where(eq(tutoringRequests.id, row.requestId));
    expect(request).toMatchObject({ status: 'accepted', acceptedBidId: row.bidId });
    const postings = () =>
      t.db
        .select()
        .from(ledgerTransactions)
        .where(eq(ledgerTransactions.idempotencyKey, `payment:${row.id}`));
    expect(await postings()).toHaveLength(1);
    expect(await ledgerAccountBalance({ db: t.db, account: { kind: 'held_funds', requestId: row.requestId } })).toBe(
      2_000,
    );

    // Racing runs and a later one find it recorded.
    const again = await Promise.all([run(), run()]);
    expect(again.map((result) => result.completed)).toEqual([0, 0]);
    expect(await postings()).toHaveLength(1);
  });
});
