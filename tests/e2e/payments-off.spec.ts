import { createSessionCookie, createUser } from '../support/factories.ts';
import { startJourneyServer, type JourneyServer } from '../support/journey-server.ts';
import { connectToServerDatabase, expect, expectNoAxeViolations, test, type Page } from './fixtures.ts';

// A marketplace free of charge (PAYMENTS_PROVIDER=none): its own server from the same build, whose public pages and
// screens say nothing of paying, refunds or earnings (docs/decisions/0046).

test.describe.configure({ mode: 'serial' });

let server: JourneyServer;
let baseURL: string;
let dataDir: string;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startJourneyServer({ PAYMENTS_PROVIDER: 'none' });
  ({ url: baseURL, dataDir } = server);
});

test.afterAll(() => server.stop());

const PAYMENT_WORDS = /prepayment|refund|held until|commission|earnings/i;

test('the public pages leave out the payment texts', async ({ page }) => {
  await page.goto(`${baseURL}/terms`);
  const terms = page.getByRole('main');
  await expect(terms.getByRole('heading', { name: 'Conduct' })).toBeVisible();
  await expect(terms.getByRole('heading', { name: 'Payments and refunds' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Payments and refunds' })).toHaveCount(0);
  await expect(terms).not.toContainText(PAYMENT_WORDS);
  await expectNoAxeViolations(page, 'the terms without payments');
  for (const pagePath of ['/', '/about', '/disclaimer', '/auth/register']) {
    await page.goto(`${baseURL}${pagePath}`);
    await expect(page.getByRole('main'), pagePath).not.toContainText(PAYMENT_WORDS);
  }
});

/** Signs the page in on the free server as a new user of that role. */
async function signInAs(page: Page, role: 'student' | 'teacher') {
  const { pool, db } = connectToServerDatabase(dataDir);
  try {
    const user = await createUser(db, { role });
    const cookie = await createSessionCookie(db, user.id);
    await page.context().addCookies([{ name: cookie.name, value: cookie.value, url: baseURL, httpOnly: true }]);
  } finally {
    await pool.end();
  }
}

test("a tutor's menu has no Earnings, and the terms the app shows none either", async ({ page }) => {
  await signInAs(page, 'teacher');
  await page.goto(`${baseURL}/profile`);
  await page.getByRole('button', { name: /^User menu for/ }).click();
  await expect(page.getByRole('menuitem', { name: 'Profile' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Earnings' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  // Typing the address leads nowhere either.
  await page.goto(`${baseURL}/earnings`);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  // Signed in, the app itself renders the terms (not the prerendered page), from the server's settings.
  await page.goto(`${baseURL}/terms`);
  await expect(page.getByRole('main').getByRole('heading', { name: 'Conduct' })).toBeVisible();
  await expect(page.getByRole('main')).not.toContainText(PAYMENT_WORDS);
});

test("a student's menu has no Payments", async ({ page }) => {
  await signInAs(page, 'student');
  await page.goto(`${baseURL}/profile`);
  await page.getByRole('button', { name: /^User menu for/ }).click();
  await expect(page.getByRole('menuitem', { name: 'Profile' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Payments' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  for (const pagePath of ['/payments', '/payments/00000000-0000-4000-8000-000000000000/receipt']) {
    await page.goto(`${baseURL}${pagePath}`);
    await expect(page.getByRole('heading', { name: 'Page not found' }), pagePath).toBeVisible();
  }
});
