import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/support/test-app.ts';
import { redactUrl } from './log-redaction.ts';

describe('request logs', () => {
  it('replace the secrets of reset and confirmation links', () => {
    expect(redactUrl('/api/auth/reset-password/Abc123?callbackURL=%2Fauth%2Freset-password')).toBe(
      '/api/auth/reset-password/[redacted]?callbackURL=%2Fauth%2Freset-password',
    );
    expect(redactUrl('/api/auth/verify-email?token=eyJhb.cd&callbackURL=%2F')).toBe(
      '/api/auth/verify-email?token=[redacted]&callbackURL=%2F',
    );
    expect(redactUrl('/auth/reset-password?error=x&TOKEN=secret')).toBe(
      '/auth/reset-password?error=x&TOKEN=[redacted]',
    );
    expect(redactUrl('/api/chat/rooms?cursor=abc')).toBe('/api/chat/rooms?cursor=abc');
  });

  describe('of a running app', () => {
    let t: TestApp;
    const lines: string[] = [];
    beforeAll(async () => {
      t = await createTestApp({ LOG_LEVEL: 'info' }, { logStream: { write: (line) => lines.push(line) } });
    });
    afterAll(() => t.close());

    it('never contain a token', async () => {
      const secret = 'S3cretToken0123456789';
      for (const url of [
        `/api/auth/reset-password/${secret}?callbackURL=%2Fauth%2Freset-password`,
        `/api/auth/verify-email?token=${secret}&callbackURL=%2F`,
        `/auth/reset-password?token=${secret}`,
      ]) {
        await t.app.inject({ method: 'GET', url });
      }
      const log = lines.join('');
      expect(log).toContain('/api/auth/verify-email?token=[redacted]');
      expect(log).not.toContain(secret);
    });
  });
});
