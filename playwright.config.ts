import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_PATH } from './tests/support/chromium.ts';
import { TEST_ADMIN, TEST_AUTH_SECRET } from './tests/support/test-config.ts';

// Chosen once in the runner; workers inherit them through the environment.
process.env.E2E_PORT ??= String(41000 + (process.pid % 20000));
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(os.tmpdir(), 'vh-e2e-'));
const baseURL = `http://127.0.0.1:${process.env.E2E_PORT}`;

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: process.env.CI ? 2 : undefined,
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  // The journeys sign up, mail and chat through a real server, two at a time on CI's two cores beside the server and
  // the browsers, where a journey takes twice what it takes on a quiet machine. The long ones (several people, many
  // live hops) say so with test.slow(), which triples this.
  timeout: 90_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL,
    // A trace costs a quarter of a journey's time, and CI keeps only what the run prints: traces are for a developer's
    // machine, where the HTML report opens them.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    // A service worker answers requests before page.route sees them: journeys run without one, but for the journey
    // of the installed app (installable.spec.ts), which allows it.
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [
    {
      name: 'desktop',
      use: { ...devices['Desktop Chrome'], channel: undefined, viewport: { width: 1280, height: 800 } },
    },
  ],
  webServer: {
    command: 'node dist/server/main.js',
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      NODE_ENV: 'test',
      PORT: process.env.E2E_PORT,
      HOST: '127.0.0.1',
      PUBLIC_URL: baseURL,
      DATA_DIR: process.env.E2E_DATA_DIR,
      AUTH_SECRET: TEST_AUTH_SECRET,
      ADMIN_EMAIL: TEST_ADMIN.email,
      ADMIN_PASSWORD: TEST_ADMIN.password,
      LOG_LEVEL: 'warn',
      // The tests speak as different clients through X-Forwarded-For (see fixtures.ts).
      TRUST_PROXY: 'loopback',
      // Receipts name the operator (tests/e2e/payments.spec.ts reads them).
      OPERATOR_LEGAL_NAME: 'Virtual Help Test Ltd',
      OPERATOR_ADDRESS: 'Seestrasse 1, 6000 Lucerne, Switzerland',
      OPERATOR_VAT_NUMBER: 'CHE-123.456.789 MWST',
    },
  },
});
