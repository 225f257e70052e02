import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from './smtp-sink.ts';

describe('SMTP sink', () => {
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(() => sink.close());

  it('receives and parses a real SMTP delivery', async () => {
    const transport = nodemailer.createTransport(sink.url);
    await transport.sendMail({ from: 'a@example.com', to: 'b@example.com', subject: 'Hello', text: 'Body text' });
    const mail = await sink.waitForMail('b@example.com');
    expect(mail).toMatchObject({ from: 'a@example.com', subject: 'Hello' });
    expect(mail.text.trim()).toBe('Body text');
  });

  it('fails deliveries on demand so senders can be tested for retries', async () => {
    sink.failNext(1);
    const transport = nodemailer.createTransport(sink.url);
    await expect(
      transport.sendMail({ from: 'a@example.com', to: 'c@example.com', subject: 'x', text: 'y' }),
    ).rejects.toThrow(/451/);
    await transport.sendMail({ from: 'a@example.com', to: 'c@example.com', subject: 'x', text: 'y' });
    expect(sink.mails.filter((mail) => mail.to.includes('c@example.com'))).toHaveLength(1);
  });
});
