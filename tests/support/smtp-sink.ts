import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export type SinkMail = { from: string; to: string[]; subject: string; text: string; html: string; parsed: ParsedMail };

/**
 * A real SMTP server on a free loopback port that keeps every message it receives.
 * `failNext(n)` makes the next n deliveries fail with a temporary error, to test retries.
 */
export async function startSmtpSink() {
  const mails: SinkMail[] = [];
  const waiters: Array<{ match: (mail: SinkMail) => boolean; resolve: (mail: SinkMail) => void }> = [];
  let failures = 0;

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      if (failures > 0) {
        failures--;
        stream.resume();
        stream.on('end', () =>
          callback(Object.assign(new Error('Temporary failure, try again'), { responseCode: 451 })),
        );
        return;
      }
      simpleParser(stream)
        .then((parsed) => {
          const mail: SinkMail = {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            parsed,
          };
          mails.push(mail);
          for (const waiter of waiters.filter((w) => w.match(mail))) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve(mail);
          }
          callback();
        })
        .catch(callback);
    },
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    mails,
    failNext(count: number) {
      failures = count;
    },
    /** Resolves with the first mail (already received or arriving later) to that address, or that matches. */
    waitForMail(to: string | ((mail: SinkMail) => boolean), timeoutMs = 10_000) {
      const match = typeof to === 'string' ? (mail: SinkMail) => mail.to.includes(to) : to;
      const existing = mails.find(match);
      if (existing) return Promise.resolve(existing);
      return new Promise<SinkMail>((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(new Error(`No mail ${typeof to === 'string' ? `to ${to}` : 'that matches'} within ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiters.push({ match, resolve: (mail) => (clearTimeout(timer), resolve(mail)) });
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type SmtpSink = Awaited<ReturnType<typeof startSmtpSink>>;
