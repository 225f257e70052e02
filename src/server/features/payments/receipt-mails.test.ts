import { randomUUID } from 'node:crypto';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Receipt } from '#shared/schemas/payments.ts';
import { mailOutbox, notifications } from '../../db/schema/notifications.ts';
import { receiptFooter } from '../../platform/mail/templates.ts';
import { call } from '../../../../tests/support/callers.ts';
import { payCheckout } from '../../../../tests/support/checkout.ts';
import { createSubject } from '../../../../tests/support/factories.ts';
import { createPaidJob } from '../../../../tests/support/paid-job.ts';
import { startSmtpSink, type SmtpSink } from '../../../../tests/support/smtp-sink.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';

// Every receipt mail (a payment, a refund, a payout) names the operator at its foot, delivered over SMTP.

const OPERATOR_LINES = [
  'Virtual Help Ltd',
  'Seestrasse 1, 6000 Lucerne, Switzerland',
  'VAT number CHE-123.456.789 MWST',
];

describe('receipts by e-mail', () => {
  let sink: SmtpSink;
  let t: TestApp;
  let subjectId: string;
  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await createTestApp(
      {
        SMTP_URL: sink.url,
        MAIL_FROM: 'Virtual Help <no-reply@virtualhelp.example>',
        OPERATOR_LEGAL_NAME: 'Virtual Help Ltd',
        OPERATOR_ADDRESS: 'Seestrasse 1, 6000 Lucerne, Switzerland',
        OPERATOR_VAT_NUMBER: 'CHE-123.456.789 MWST',
      },
      { mailOutbox: { intervalMs: 50, retryBaseMs: 10 } },
    );
    subjectId = (await createSubject(t.db, { name: 'Geology' })).id;
  });
  afterAll(async () => {
    await t.close();
    await sink.close();
  });

  const expectOperatorAtTheFoot = (mail: { text: string; html: string }) => {
    expect(mail.text).toContain(`Receipt issued by:\n${OPERATOR_LINES.join('\n')}`);
    expect(mail.html).toContain(`Receipt issued by:<br>${OPERATOR_LINES.join('<br>')}`);
  };

  it('mails the student a payment receipt once the payment is recorded, and only once', async () => {
    const job = await createPaidJob(t, { subjectId, cents: 3_125 });
    const receipt = (await call(t, job.student, 'GET', `/api/payments/${job.checkoutId}/receipt`)).json<Receipt>();
    const mail = await sink.waitForMail(
      (candidate) => candidate.to.includes(job.student.user.email) && candidate.subject.startsWith('Payment receipt'),
    );
    expect(mail.subject).toBe('Payment receipt - Virtual Help');
    expect(mail.text).toContain(
      `Payment receipt ${receipt.receiptNumber}: you paid $31.25 for Geology tutoring with ${job.tutor.user.username} (VH ${job.tutor.user.vhNumber}), by Test card ending in 4242 (test mode: no real money moved).`,
    );
    expect(mail.text).toContain(`${t.config.publicUrl}/payments/${job.checkoutId}/receipt`);
    expectOperatorAtTheFoot(mail);

    // Paying again answers the paid checkout and records nothing, so no second receipt is queued.
    expect((await payCheckout(t, job.student, job.checkoutId)).statusCode).toBe(200);
    const receipts = and(
      eq(mailOutbox.toAddress, job.student.user.email),
      like(mailOutbox.subject, 'Payment receipt%'),
    );
    expect(await t.db.$count(mailOutbox, receipts)).toBe(1);
    const [bell] = await t.db
      .select({ link: notifications.link })
      .from(notifications)
      .where(and(eq(notifications.userId, job.student.user.id), like(notifications.message, 'Payment receipt%')));
    expect(bell).toEqual({ link: `/payments/${job.checkoutId}/receipt` });
  });

  it('mails the student a refund receipt naming the operator when the refund is made', async () => {
    const job = await createPaidJob(t, { subjectId, cents: 1_800 });
    expect((await call(t, job.tutor, 'POST', `/api/refunds/jobs/${job.requestId}/withdraw`, {})).statusCode).toBe(201);
    const mail = await sink.waitForMail(
      (candidate) => candidate.to.includes(job.student.user.email) && candidate.subject.startsWith('Refund receipt'),
    );
    expect(mail.text).toContain('Refund receipt: $18 of your payment of $18 was refunded');
    expectOperatorAtTheFoot(mail);
  });

  it('mails the tutor a payout receipt naming the operator', async () => {
    const job = await createPaidJob(t, { subjectId, cents: 2_000 });
    expect((await call(t, job.student, 'POST', `/api/requests/${job.requestId}/complete`)).statusCode).toBe(200);
    expect((await call(t, job.tutor, 'POST', '/api/earnings/adult-confirmation', { confirmed: true })).statusCode).toBe(
      200,
    );
    const payout = await call(
      t,
      job.tutor,
      'POST',
      '/api/earnings/payouts',
      {},
      {
        headers: { 'idempotency-key': randomUUID() },
      },
    );
    expect(payout.json()).toMatchObject({ status: 'paid', amountCents: 1_700 });
    const mail = await sink.waitForMail(
      (candidate) => candidate.to.includes(job.tutor.user.email) && candidate.subject.startsWith('Payout receipt'),
    );
    expect(mail.text).toContain('Payout receipt: $17 of your earnings was paid out to you.');
    expectOperatorAtTheFoot(mail);
  });
});

describe('the foot of a receipt mail', () => {
  it('leaves out the address and VAT number the operator did not set, and escapes what it prints', () => {
    expect(receiptFooter({ legalName: 'Virtual Help', address: null, vatNumber: null })).toEqual({
      text: 'Receipt issued by:\nVirtual Help',
      html: '<p style="font-size: 13px; color: #6b7280;">Receipt issued by:<br>Virtual Help</p>',
    });
    expect(receiptFooter({ legalName: 'Help & Co <AG>', address: null, vatNumber: 'CHE-1' }).html).toContain(
      'Help &#38; Co &#60;AG&#62;<br>VAT number CHE-1',
    );
  });
});
