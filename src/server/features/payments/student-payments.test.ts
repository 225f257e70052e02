import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVALID_CURSOR_MESSAGE } from '#shared/schemas/cursor.ts';
import type { PaymentsPage, Receipt } from '#shared/schemas/payments.ts';
import { checkouts } from '../../db/schema/payments.ts';
import { call, signedInStudent, signedInTeacher, signIn, type Caller } from '../../../../tests/support/callers.ts';
import { payCheckout, startCheckout } from '../../../../tests/support/checkout.ts';
import { createBid, createRequest, createSubAdmin, createSubject } from '../../../../tests/support/factories.ts';
import { createPaidJob, writePaidJob } from '../../../../tests/support/paid-job.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { PAYMENTS_PAGE_SIZE } from './student-payments.ts';

const OPERATOR = {
  OPERATOR_LEGAL_NAME: 'Virtual Help Ltd',
  OPERATOR_ADDRESS: 'Seestrasse 1, 6000 Lucerne, Switzerland',
  OPERATOR_VAT_NUMBER: 'CHE-123.456.789 MWST',
};

describe('the student’s payments and receipts', () => {
  let t: TestApp;
  let subjectId: string;
  beforeAll(async () => {
    t = await createTestApp(OPERATOR);
    subjectId = (await createSubject(t.db, { name: 'Chemistry' })).id;
  });
  afterAll(() => t.close());

  const payments = async (student: Caller, cursor?: string) => {
    const response = await call(t, student, 'GET', `/api/payments${cursor ? `?cursor=${cursor}` : ''}`);
    expect(response.statusCode).toBe(200);
    return response.json<PaymentsPage>();
  };
  const receipt = (caller: Caller | undefined, checkoutId: string) =>
    call(t, caller, 'GET', `/api/payments/${checkoutId}/receipt`);

  it('lists each paid job, newest first, with the tutor, the amount and the money’s state from the ledger', async () => {
    const first = await createPaidJob(t, { subjectId, cents: 2_000 });
    const { student } = first;
    const tutor = await signedInTeacher(t, [subjectId]);
    const request = await createRequest(t.db, { studentId: student.user.id, subjectId, topic: 'Moles' });
    const bid = await createBid(t.db, { requestId: request.id, tutorId: tutor.user.id, amountCents: 1_250 });
    const { checkoutId } = await startCheckout(t, student, request.id, bid.id);
    // A checkout awaiting payment is no payment yet.
    expect((await payments(student)).items.map((item) => item.id)).toEqual([first.checkoutId]);

    expect((await payCheckout(t, student, checkoutId!)).statusCode).toBe(200);
    expect((await call(t, student, 'POST', `/api/requests/${first.requestId}/complete`)).statusCode).toBe(200);
    const page = await payments(student);
    expect(page).toEqual({
      items: [
        {
          id: checkoutId,
          requestId: request.id,
          job: 'Chemistry: Moles',
          tutor: { id: tutor.user.id, username: tutor.user.username, vhNumber: tutor.user.vhNumber },
          amountCents: 1_250,
          paidAt: expect.any(String),
          state: 'held',
        },
        expect.objectContaining({
          id: first.checkoutId,
          job: 'Chemistry tutoring',
          amountCents: 2_000,
          state: 'released',
        }),
      ],
      nextCursor: null,
    });
    // Nobody else's payments show.
    expect(await payments(await signedInStudent(t))).toEqual({ items: [], nextCursor: null });
  });

  it('pages by the time of payment with a cursor, and refuses a cursor it did not give', async () => {
    const student = await signedInStudent(t);
    const tutor = await signedInTeacher(t, [subjectId]);
    for (let index = 0; index <= PAYMENTS_PAGE_SIZE; index++) {
      await writePaidJob(t.db, { studentId: student.user.id, tutorId: tutor.user.id, amountCents: 100 + index });
    }
    const first = await payments(student);
    expect(first.items).toHaveLength(PAYMENTS_PAGE_SIZE);
    expect(first.nextCursor).not.toBeNull();
    const second = await payments(student, first.nextCursor!);
    expect(second).toEqual({ items: [expect.objectContaining({ amountCents: 100 })], nextCursor: null });
    expect(new Set([...first.items, ...second.items].map((item) => item.id)).size).toBe(PAYMENTS_PAGE_SIZE + 1);

    const refused = await call(t, student, 'GET', '/api/payments?cursor=yesterday');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(INVALID_CURSOR_MESSAGE);
  });

  it('answers only a signed-in student', async () => {
    expect((await call(t, undefined, 'GET', '/api/payments')).statusCode).toBe(401);
    expect((await call(t, await signedInTeacher(t, [subjectId]), 'GET', '/api/payments')).statusCode).toBe(403);
  });

  it('gives the payer a numbered receipt naming the operator, the people, the job, the card and the amount', async () => {
    const job = await createPaidJob(t, { subjectId, cents: 3_500 });
    const response = await receipt(job.student, job.checkoutId);
    expect(response.statusCode).toBe(200);
    const body = response.json<Receipt>();
    const [row] = await t.db.select().from(checkouts).where(eq(checkouts.id, job.checkoutId));
    expect(body).toEqual({
      receiptNumber: String(row!.receiptNumber).padStart(6, '0'),
      paidAt: row!.paidAt!.toISOString(),
      operator: {
        legalName: 'Virtual Help Ltd',
        address: 'Seestrasse 1, 6000 Lucerne, Switzerland',
        vatNumber: 'CHE-123.456.789 MWST',
      },
      payer: {
        id: job.student.user.id,
        username: job.student.user.username,
        vhNumber: job.student.user.vhNumber,
        email: job.student.user.email,
      },
      tutor: { id: job.tutor.user.id, username: job.tutor.user.username, vhNumber: job.tutor.user.vhNumber },
      job: { requestId: job.requestId, title: 'Chemistry tutoring' },
      amountCents: 3_500,
      method: { kind: 'test_card', last4: '4242' },
      state: 'held',
      refunds: [],
      refundedCents: 0,
      netCents: 3_500,
    });
    // Receipts are numbered in the order of payment.
    const next = await createPaidJob(t, { subjectId });
    const nextNumber = (await receipt(next.student, next.checkoutId)).json<Receipt>().receiptNumber;
    expect(Number(nextNumber)).toBeGreaterThan(Number(body.receiptNumber));
  });

  it('lists the refunds of a payment on its receipt, and the state says refunded', async () => {
    const job = await createPaidJob(t, { subjectId, cents: 2_400 });
    const withdrawn = await call(t, job.tutor, 'POST', `/api/refunds/jobs/${job.requestId}/withdraw`, {});
    expect(withdrawn.statusCode).toBe(201);
    const body = (await receipt(job.student, job.checkoutId)).json<Receipt>();
    expect(body).toMatchObject({
      state: 'refunded',
      refunds: [{ amountCents: 2_400, refundedAt: expect.any(String), reference: expect.any(String) }],
      refundedCents: 2_400,
      netCents: 0,
    });
    expect((await payments(job.student)).items[0]).toMatchObject({ id: job.checkoutId, state: 'refunded' });
  });

  it('shows a receipt to its payer alone: anyone else, an admin too, or an unpaid checkout is 404', async () => {
    const job = await createPaidJob(t, { subjectId });
    expect((await receipt(undefined, job.checkoutId)).statusCode).toBe(401);
    expect((await receipt(job.tutor, job.checkoutId)).statusCode).toBe(403);
    expect((await receipt(await signedInStudent(t), job.checkoutId)).statusCode).toBe(404);
    const admin = await signIn(t, await createSubAdmin(t.db, ['payments']));
    expect((await receipt(admin, job.checkoutId)).statusCode).toBe(404);
    expect((await receipt(job.student, randomUUID())).statusCode).toBe(404);

    const request = await createRequest(t.db, { studentId: job.student.user.id, subjectId });
    const bid = await createBid(t.db, { requestId: request.id, tutorId: job.tutor.user.id });
    const { checkoutId } = await startCheckout(t, job.student, request.id, bid.id);
    expect((await receipt(job.student, checkoutId!)).statusCode).toBe(404);

    const malformed = await receipt(job.student, 'not-a-payment');
    expect(malformed.statusCode).toBe(400);
  });
});

describe('payments under PAYMENTS_PROVIDER=none', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PAYMENTS_PROVIDER: 'none' });
  });
  afterAll(() => t.close());

  it('has no list of payments', async () => {
    expect((await call(t, await signedInStudent(t), 'GET', '/api/payments')).statusCode).toBe(404);
    expect((await call(t, undefined, 'GET', '/api/payments')).statusCode).toBe(401);
  });

  it('shows no receipt, not even of a payment made before the site became free of charge', async () => {
    const student = await signedInStudent(t);
    const tutor = await signedInTeacher(t, []);
    const { requestId } = await writePaidJob(t.db, { studentId: student.user.id, tutorId: tutor.user.id });
    const [checkout] = await t.db.select().from(checkouts).where(eq(checkouts.requestId, requestId));
    expect((await call(t, student, 'GET', `/api/payments/${checkout!.id}/receipt`)).statusCode).toBe(404);
  });
});
