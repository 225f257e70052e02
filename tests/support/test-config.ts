import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseConfig } from '../../src/server/config.ts';

export const TEST_AUTH_SECRET = 'test-secret-0123456789-abcdefghijklmnopqrstuvwxyz';
export const TEST_ADMIN = { email: 'admin@virtualhelp.example', password: 'Admin-password-1' };

/** A config for one test file: its own temporary data directory, quiet logs, fixed secrets. */
export function testConfig(overrides: Record<string, string> = {}) {
  return parseConfig({
    NODE_ENV: 'test',
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'vh-test-')),
    LOG_LEVEL: 'silent',
    AUTH_SECRET: TEST_AUTH_SECRET,
    ADMIN_EMAIL: TEST_ADMIN.email,
    ADMIN_PASSWORD: TEST_ADMIN.password,
    REQUIRE_EMAIL_CONFIRMATION: 'true',
    // Files run side by side on a busy machine, whose event loops lag; the test of the bound sets its own.
    READY_MAX_EVENT_LOOP_LAG_MS: '60000',
    ...overrides,
  });
}
