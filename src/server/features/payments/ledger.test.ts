import { randomUUID } from 'node:crypto';
import { count, eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBid, createRequest, createSubject, createUser } from '../../../../tests/support/factories.ts';
import { openTestDatabase } from '../../../../tests/support/test-database.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { users } from '../../db/schema/auth.ts';
import {
  checkouts,
  ledgerAccounts,
  ledgerEntries,
  ledgerTransactions,
  nextReceiptNumber,
} from '../../db/schema/payments.ts';
import {
  ensureLedgerAccount,
  ledgerAccountBalance,
  postLedgerTransaction,
  type LedgerAccountRef,
  type LedgerEntryInput,
} from './service.ts';

describe('the money ledger', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  const uniqueKey = () => `test:${randomUUID()}`;

  /** A student, a tutor and a job between them: the accounts a payment and its release touch. */
  async function parties() {
    const db = database.db;
    const [student, tutor, subject] = [
      await createUser(db),
      await createUser(db, { role: 'teacher' }),
      await createSubject(db),
    ];
    const request = await createRequest(db, { studentId: student.id, subjectId: subject.id });
    return {
      request,
      studentPayments: { kind: 'student_payments', userId: student.id },
      held: { kind: 'held_funds', requestId: request.id },
      tutorPending: { kind: 'tutor_earnings_pending', userId: tutor.id },
      commission: { kind: 'platform_commission' },
    } satisfies Record<string, LedgerAccountRef | object>;
  }

  /** A student's payment of these cents into the job's held funds, posted through the code. */
  const payment = (p: Awaited<ReturnType<typeof parties>>, cents: number, idempotencyKey = uniqueKey()) => ({
    db: database.db,
    idempotencyKey,
    kind: 'payment' as const,
    entries: [
      { account: p.studentPayments, amountCents: -cents },
      { account: p.held, amountCents: cents },
    ],
  });

  const balance = (account: LedgerAccountRef) => ledgerAccountBalance({ db: database.db, account });
  const transactionCount = async () => (await database.db.select({ n: count() }).from(ledgerTransactions))[0]!.n;
  const entryCount = async () => (await database.db.select({ n: count() }).from(ledgerEntries))[0]!.n;

  /** Runs statements on one connection in one transaction, as a console session would, and commits. */
  async function rawTransaction(statements: (client: pg.PoolClient) => Promise<void>) {
    const client = await database.pool.connect();
    try {
      await client.query('begin');
      try {
        await statements(client);
        await client.query('commit');
      } catch (error) {
        await client.query('rollback');
        throw error;
      }
    } finally {
      client.release();
    }
  }

  async function rawPosting(entries: { accountId: string; amountCents: number }[]) {
    await rawTransaction(async (client) => {
      const { rows } = await client.query<{ id: string }>(
        `insert into ledger_transactions (idempotency_key, kind) values ($1, 'adjustment') returning id`,
        [uniqueKey()],
      );
      // One by one: the balance is checked at commit, not after each statement.
      for (const [index, entry] of entries.entries()) {
        await client.query(
          `insert into ledger_entries (transaction_id, line, account_id, amount_cents) values ($1, $2, $3, $4)`,
          [rows[0]!.id, index + 1, entry.accountId, entry.amountCents],
        );
      }
    });
  }

  it('posts a payment, a release and a commission as balanced entries, each balance the sum of its entries', async () => {
    const p = await parties();
    const paid = await postLedgerTransaction({ ...payment(p, 2_000), requestId: p.request.id });
    expect(paid.posted).toBe(true);
    expect(paid.transaction).toMatchObject({ kind: 'payment', requestId: p.request.id });
    await postLedgerTransaction({
      db: database.db,
      idempotencyKey: uniqueKey(),
      kind: 'release',
      requestId: p.request.id,
      entries: [
        { account: p.held, amountCents: -2_000 },
        { account: p.tutorPending, amountCents: 1_700 },
        { account: p.commission, amountCents: 300 },
      ],
    });
    expect(await balance(p.studentPayments)).toBe(-2_000);
    expect(await balance(p.held)).toBe(0);
    expect(await balance(p.tutorPending)).toBe(1_700);
    expect(await balance({ kind: 'refunds', userId: p.studentPayments.userId })).toBe(0);
  });

  it('posts a repeated idempotency key once and answers the repeat with the first posting', async () => {
    const p = await parties();
    const idempotencyKey = uniqueKey();
    const first = await postLedgerTransaction(payment(p, 500, idempotencyKey));
    const [transactionsBefore, entriesBefore] = [await transactionCount(), await entryCount()];
    const repeat = await postLedgerTransaction(payment(p, 900, idempotencyKey));
    expect(repeat).toEqual({ ...first, posted: false });
    expect([await transactionCount(), await entryCount()]).toEqual([transactionsBefore, entriesBefore]);
    expect(await balance(p.held)).toBe(500);
  });

  it('posts once when the same key races itself', async () => {
    const p = await parties();
    const idempotencyKey = uniqueKey();
    const postings = await Promise.all(
      Array.from({ length: 5 }, () => postLedgerTransaction(payment(p, 700, idempotencyKey))),
    );
    expect(postings.filter((posting) => posting.posted)).toHaveLength(1);
    expect(new Set(postings.map((posting) => posting.transaction.id)).size).toBe(1);
    expect(await balance(p.held)).toBe(700);
  });

  it('refuses unbalanced, fractional, zero and single entries in the code, writing nothing', async () => {
    const p = await parties();
    const before = [await transactionCount(), await entryCount()];
    for (const entries of [
      [
        { account: p.studentPayments, amountCents: -500 },
        { account: p.held, amountCents: 499 },
      ],
      [
        { account: p.studentPayments, amountCents: -0.5 },
        { account: p.held, amountCents: 0.5 },
      ],
      [
        { account: p.studentPayments, amountCents: 0 },
        { account: p.held, amountCents: 0 },
      ],
      [{ account: p.held, amountCents: 100 }],
    ] satisfies LedgerEntryInput[][]) {
      await expect(
        postLedgerTransaction({ db: database.db, idempotencyKey: uniqueKey(), kind: 'adjustment', entries }),
      ).rejects.toThrow(RangeError);
    }
    expect([await transactionCount(), await entryCount()]).toEqual(before);
  });

  it('refuses at commit a transaction whose entries do not sum to zero, whatever wrote it, and keeps nothing of it', async () => {
    const p = await parties();
    const [studentPayments, held] = [
      await ensureLedgerAccount({ db: database.db, account: p.studentPayments }),
      await ensureLedgerAccount({ db: database.db, account: p.held }),
    ];
    const before = [await transactionCount(), await entryCount()];
    await expect(
      rawPosting([
        { accountId: studentPayments, amountCents: -500 },
        { accountId: held, amountCents: 400 },
      ]),
    ).rejects.toMatchObject({ code: '23514', message: expect.stringMatching(/does not balance/) });
    // A transaction without entries balances trivially, and is refused as well.
    await expect(rawPosting([])).rejects.toMatchObject({ code: '23514' });
    expect([await transactionCount(), await entryCount()]).toEqual(before);

    // Entries inserted one by one that balance at commit are taken.
    await rawPosting([
      { accountId: studentPayments, amountCents: -500 },
      { accountId: held, amountCents: 300 },
      { accountId: held, amountCents: 200 },
    ]);
    expect(await balance(p.held)).toBe(500);
  });

  it('refuses entries added later to a posted transaction, one that unbalances it or a pair that does not', async () => {
    const p = await parties();
    // Two postings in one caller's transaction are each written whole, and commit.
    const posting = await database.db.transaction(async (tx) => {
      await postLedgerTransaction({ ...payment(p, 40), db: tx });
      return postLedgerTransaction({ ...payment(p, 60), db: tx });
    });
    const [studentPayments, held] = posting.entries.map((entry) => entry.accountId);
    const added = (values: string, accounts: string[]) =>
      rawTransaction(async (client) => {
        await client.query(`insert into ledger_entries (transaction_id, line, account_id, amount_cents) ${values}`, [
          posting.transaction.id,
          ...accounts,
        ]);
      });
    await expect(added('values ($1, 3, $2, 50)', [held!])).rejects.toMatchObject({ code: '23514' });
    await expect(
      added('values ($1, 3, $2, -5000), ($1, 4, $3, 5000)', [studentPayments!, held!]),
    ).rejects.toMatchObject({ code: '23514' });
    expect(await balance(p.held)).toBe(100);
  });

  it('refuses every update, delete and truncate of entries, transactions and accounts', async () => {
    const p = await parties();
    const posting = await postLedgerTransaction(payment(p, 100));
    const { id: transactionId } = posting.transaction;
    const refusals = [
      sql`update ledger_entries set amount_cents = 1000 where transaction_id = ${transactionId}`,
      sql`delete from ledger_entries where transaction_id = ${transactionId}`,
      sql`truncate ledger_entries`,
      sql`update ledger_transactions set kind = 'refund' where id = ${transactionId}`,
      sql`delete from ledger_transactions where id = ${transactionId}`,
      sql`truncate ledger_transactions cascade`,
      sql`update ledger_accounts set owner_request_id = null where id = ${posting.entries[1]!.accountId}`,
      sql`delete from ledger_accounts where id = ${posting.entries[0]!.accountId}`,
      sql`truncate ledger_accounts cascade`,
    ];
    for (const statement of refusals) {
      await expect(database.db.execute(statement)).rejects.toMatchObject({
        cause: expect.objectContaining({ code: '42501', message: expect.stringMatching(/append-only/) }),
      });
    }
    const entries = await database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.transactionId, transactionId));
    expect(entries.map((entry) => entry.amountCents).sort()).toEqual([-100, 100]);
  });

  it('keeps each account kind to its owner, one account per kind and owner', async () => {
    const p = await parties();
    const refused = [
      { kind: 'tutor_earnings_pending' as const },
      { kind: 'held_funds' as const, ownerUserId: p.studentPayments.userId },
      { kind: 'platform_commission' as const, ownerRequestId: p.request.id },
    ];
    for (const values of refused) {
      await expect(database.db.insert(ledgerAccounts).values(values)).rejects.toMatchObject({
        cause: expect.objectContaining({ code: '23514' }),
      });
    }
    const ids = await Promise.all(
      Array.from({ length: 3 }, () => ensureLedgerAccount({ db: database.db, account: p.tutorPending })),
    );
    expect(new Set(ids).size).toBe(1);
    const platform = await Promise.all([
      ensureLedgerAccount({ db: database.db, account: p.commission }),
      ensureLedgerAccount({ db: database.db, account: p.commission }),
    ]);
    expect(platform[0]).toBe(platform[1]);
  });

  it('refuses a posting for a job whose student or paid tutor was erased, not for a tutor whose checkout lapsed', async () => {
    const db = database.db;
    const [student, lapsedTutor, paidTutor, subject] = [
      await createUser(db),
      await createUser(db, { role: 'teacher' }),
      await createUser(db, { role: 'teacher' }),
      await createSubject(db),
    ];
    const request = await createRequest(db, { studentId: student.id, subjectId: subject.id });
    for (const [tutor, status] of [
      [lapsedTutor, 'lapsed'],
      [paidTutor, 'paid'],
    ] as const) {
      const bid = await createBid(db, { requestId: request.id, tutorId: tutor.id, amountCents: 2_000 });
      await db.insert(checkouts).values({
        requestId: request.id,
        bidId: bid.id,
        studentId: student.id,
        tutorId: tutor.id,
        amountCents: 2_000,
        provider: 'test',
        status,
        expiresAt: new Date(),
        ...(status === 'paid'
          ? { paidAt: new Date(), providerPaymentId: `test_payment:${bid.id}`, receiptNumber: nextReceiptNumber() }
          : {}),
      });
    }
    const erase = (userId: string) => db.update(users).set({ erasedAt: new Date() }).where(eq(users.id, userId));
    const payment = () =>
      postLedgerTransaction({
        db,
        idempotencyKey: uniqueKey(),
        kind: 'payment',
        requestId: request.id,
        entries: [
          { account: { kind: 'student_payments', userId: student.id }, amountCents: -2_000 },
          { account: { kind: 'held_funds', requestId: request.id }, amountCents: 2_000 },
        ],
      });

    // The tutor whose checkout lapsed has nothing to do with the job's money any more.
    await erase(lapsedTutor.id);
    expect((await payment()).posted).toBe(true);
    await erase(paidTutor.id);
    await expect(payment()).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('stays balanced through any sequence of postings, replays and refused postings', async () => {
    const p = await parties();
    const other = await parties();
    const accounts: LedgerAccountRef[] = [
      p.studentPayments,
      p.held,
      p.tutorPending,
      p.commission,
      other.studentPayments,
      other.held,
      { kind: 'provider_fees' },
    ];
    const keyOf = (account: LedgerAccountRef) => JSON.stringify(account);
    // The platform's accounts are shared with the tests before: the property starts from their balances.
    const expected = new Map<string, number>();
    for (const account of accounts) expected.set(keyOf(account), await balance(account));
    const amount = fc.integer({ min: -1_000_000, max: 1_000_000 }).filter((cents) => cents !== 0);
    const entry = fc.record({ account: fc.constantFrom(...accounts), amountCents: amount });
    const balanced = fc.array(entry, { minLength: 1, maxLength: 4 }).chain((entries) => {
      const total = entries.reduce((sum, { amountCents }) => sum + amountCents, 0);
      return total === 0
        ? fc.constant(entries)
        : fc.constantFrom(...accounts).map((account) => [...entries, { account, amountCents: -total }]);
    });
    const unbalanced = fc
      .array(entry, { minLength: 2, maxLength: 4 })
      .filter((entries) => entries.reduce((sum, { amountCents }) => sum + amountCents, 0) !== 0);
    const step = fc.oneof(
      // A small pool of keys per run, so later postings replay earlier ones.
      fc.record({ type: fc.constant('post' as const), key: fc.integer({ min: 0, max: 3 }), entries: balanced }),
      fc.record({ type: fc.constant('unbalanced' as const), entries: unbalanced }),
      fc.record({ type: fc.constant('unbalanced-raw' as const), entries: unbalanced }),
    );

    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
        const prefix = `property:${randomUUID()}:${++run}`;
        const firstPostings = new Map<string, LedgerEntryInput[]>();
        for (const s of steps) {
          if (s.type === 'post') {
            const idempotencyKey = `${prefix}:${s.key}`;
            const posting = await postLedgerTransaction({
              db: database.db,
              idempotencyKey,
              kind: 'adjustment',
              entries: s.entries,
            });
            expect(posting.posted).toBe(!firstPostings.has(idempotencyKey));
            if (posting.posted) {
              firstPostings.set(idempotencyKey, s.entries);
              for (const { account, amountCents } of s.entries) {
                expected.set(keyOf(account), (expected.get(keyOf(account)) ?? 0) + amountCents);
              }
            }
          } else if (s.type === 'unbalanced') {
            await expect(
              postLedgerTransaction({
                db: database.db,
                idempotencyKey: `${prefix}:refused`,
                kind: 'adjustment',
                entries: s.entries,
              }),
            ).rejects.toThrow(RangeError);
          } else {
            const withIds = [];
            for (const { account, amountCents } of s.entries) {
              withIds.push({ accountId: await ensureLedgerAccount({ db: database.db, account }), amountCents });
            }
            await expect(rawPosting(withIds)).rejects.toMatchObject({ code: '23514' });
          }
        }

        const unbalancedTransactions = await database.db
          .select({ id: ledgerEntries.transactionId })
          .from(ledgerEntries)
          .groupBy(ledgerEntries.transactionId)
          .having(sql`sum(${ledgerEntries.amountCents}) <> 0 or count(*) < 2`);
        expect(unbalancedTransactions).toEqual([]);
        const [total] = await database.db
          .select({ cents: sql<number>`coalesce(sum(${ledgerEntries.amountCents}), 0)`.mapWith(Number) })
          .from(ledgerEntries);
        expect(total!.cents).toBe(0);
        for (const account of accounts) expect(await balance(account)).toBe(expected.get(keyOf(account)) ?? 0);
        const posted = await database.db
          .select({ n: count() })
          .from(ledgerTransactions)
          .where(sql`${ledgerTransactions.idempotencyKey} like ${`${prefix}:%`}`);
        expect(posted[0]!.n).toBe(firstPostings.size);
      }),
      { numRuns: 30 },
    );
    // Everything the property posted is in the ledger, no transaction left without entries.
    const empty = await database.db
      .select({ id: ledgerTransactions.id })
      .from(ledgerTransactions)
      .where(
        sql`not exists (select 1 from ${ledgerEntries} where ${ledgerEntries.transactionId} = ${ledgerTransactions.id})`,
      );
    expect(empty).toEqual([]);
  }, 120_000);
});
