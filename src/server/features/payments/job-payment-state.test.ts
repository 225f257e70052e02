import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBid, createRequest, createSubject, createUser } from '../../../../tests/support/factories.ts';
import { openTestDatabase } from '../../../../tests/support/test-database.ts';
import { fromNow, MINUTE_MS } from '../../../../tests/support/time.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { checkouts, nextReceiptNumber } from '../../db/schema/payments.ts';
import { tutoringRequests } from '../../db/schema/requests.ts';
import { isJobPaid, jobPaymentState, jobPaymentStates, postLedgerTransaction } from './service.ts';

describe("a job's payment state", () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  /** An offer of $12 on a new request, accepted (written straight to the tables) when asked. */
  async function offer({ accepted }: { accepted: boolean }) {
    const db = database.db;
    const [student, tutor, subject] = [
      await createUser(db),
      await createUser(db, { role: 'teacher' }),
      await createSubject(db),
    ];
    const request = await createRequest(db, { studentId: student.id, subjectId: subject.id });
    const bid = await createBid(db, {
      requestId: request.id,
      tutorId: tutor.id,
      status: accepted ? 'accepted' : 'pending',
    });
    if (accepted) {
      await db
        .update(tutoringRequests)
        .set({ status: 'accepted', acceptedBidId: bid.id })
        .where(eq(tutoringRequests.id, request.id));
    }
    return { student, tutor, request, bid };
  }

  async function checkout(o: Awaited<ReturnType<typeof offer>>, status: 'awaiting_payment' | 'paid' | 'lapsed') {
    const [row] = await database.db
      .insert(checkouts)
      .values({
        requestId: o.request.id,
        bidId: o.bid.id,
        studentId: o.student.id,
        tutorId: o.tutor.id,
        amountCents: o.bid.amountCents,
        provider: 'test',
        status,
        expiresAt: fromNow(30 * MINUTE_MS),
        paidAt: status === 'paid' ? new Date() : null,
        receiptNumber: status === 'paid' ? nextReceiptNumber() : null,
      })
      .returning();
    return row!;
  }

  const post = (o: Awaited<ReturnType<typeof offer>>, kind: 'payment' | 'release' | 'refund', cents: number) => {
    const other =
      kind === 'payment'
        ? { kind: 'student_payments' as const, userId: o.student.id }
        : kind === 'release'
          ? { kind: 'tutor_earnings_available' as const, userId: o.tutor.id }
          : { kind: 'refunds' as const, userId: o.student.id };
    const held = { kind: 'held_funds' as const, requestId: o.request.id };
    const sign = kind === 'payment' ? 1 : -1;
    return postLedgerTransaction({
      db: database.db,
      idempotencyKey: `${kind}:${randomUUID()}`,
      kind,
      requestId: o.request.id,
      entries: [
        { account: held, amountCents: sign * cents },
        { account: other, amountCents: -sign * cents },
      ],
    });
  };

  const stateOf = (o: Awaited<ReturnType<typeof offer>>) =>
    jobPaymentState({ db: database.db, requestId: o.request.id });

  it('is not charged, and paid, for a job without a checkout (before payments, or under none)', async () => {
    const job = await offer({ accepted: true });
    expect(await stateOf(job)).toBe('not_charged');
    expect(await isJobPaid({ db: database.db, requestId: job.request.id })).toBe(true);
  });

  it('is awaiting payment while a checkout holds the offer, which is not a paid job', async () => {
    const o = await offer({ accepted: false });
    await checkout(o, 'lapsed');
    await checkout(o, 'awaiting_payment');
    expect(await stateOf(o)).toBe('awaiting_payment');
    expect(await isJobPaid({ db: database.db, requestId: o.request.id })).toBe(false);
  });

  it('follows the held money: held, released, refunded, or partly both', async () => {
    const jobs = await Promise.all([1, 2, 3, 4].map(() => offer({ accepted: true })));
    for (const job of jobs) {
      await checkout(job, 'paid');
      await post(job, 'payment', 1200);
    }
    const [held, released, refunded, split] = jobs as [
      (typeof jobs)[0],
      (typeof jobs)[0],
      (typeof jobs)[0],
      (typeof jobs)[0],
    ];
    await post(released, 'release', 1200);
    await post(refunded, 'refund', 1200);
    await post(split, 'refund', 500);
    await post(split, 'release', 700);

    const states = await jobPaymentStates({ db: database.db, requestIds: jobs.map((job) => job.request.id) });
    expect(jobs.map((job) => states.get(job.request.id))).toEqual([
      'held',
      'released',
      'refunded',
      'partially_refunded',
    ]);
    expect(await isJobPaid({ db: database.db, requestId: held.request.id })).toBe(true);
  });

  it('is no paid job for an open request', async () => {
    const o = await offer({ accepted: false });
    expect(await isJobPaid({ db: database.db, requestId: o.request.id })).toBe(false);
    expect(await stateOf(o)).toBe('not_charged');
  });

  it('refuses a second live checkout on one request', async () => {
    const o = await offer({ accepted: false });
    await checkout(o, 'awaiting_payment');
    await expect(checkout(o, 'paid')).rejects.toThrow();
  });
});
