import { DEFAULT_TEST_PASSWORD, createUser } from '../support/factories.ts';
import { TEST_ADMIN } from '../support/test-config.ts';
import { expect, test, type Page } from './fixtures.ts';

// Admin panel journeys: the login gate and the dashboard.

async function adminLogin(page: Page, email: string, password: string) {
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Admin Login' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login to Admin Panel' }).click();
}

test('a student is refused at /admin and signed out', async ({ page, db, allowConsoleError }) => {
  allowConsoleError(/status of 403/);
  const student = await createUser(db, { role: 'student' });
  await adminLogin(page, student.email, DEFAULT_TEST_PASSWORD);
  await expect(page.getByText('Access Denied', { exact: true })).toBeVisible();
  await expect(page.getByText('Invalid credentials or not authorized')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Admin Login' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Admin' })).toHaveCount(0);
  expect(await (await page.request.get('/api/auth/get-session')).json()).toBeNull();
});

test('the admin signs in with the configured credentials and sees the counters', async ({ page }) => {
  await adminLogin(page, TEST_ADMIN.email, TEST_ADMIN.password);
  await expect(page.getByText('Admin access granted')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  const menu = page.getByRole('navigation', { name: 'Admin' });
  for (const item of ['Dashboard', 'Report Management', 'Illegal Content', 'Meeting Stats', 'Sub-Admin Management']) {
    await expect(menu.getByRole('link', { name: item })).toBeVisible();
  }
  const stats = (await (await page.request.get('/api/admin/stats')).json()) as Record<string, number>;
  const counters = {
    'Total Chats': stats.totalChats,
    'Total Users': stats.totalUsers,
    'Active Reports': stats.activeReports,
    'Flagged Content': stats.flaggedContent,
  };
  for (const [label, value] of Object.entries(counters)) {
    await expect(
      page.getByRole('definition').filter({ hasText: /^\d/ }).nth(Object.keys(counters).indexOf(label)),
    ).toHaveText(String(value));
    await expect(page.getByRole('term').filter({ hasText: label })).toBeVisible();
  }
  if (process.env.ADMIN_SCREENSHOTS) {
    await page.screenshot({ path: 'test-results/admin-dashboard-1280.png', fullPage: true });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: 'test-results/admin-dashboard-375.png', fullPage: true });
  }
});
