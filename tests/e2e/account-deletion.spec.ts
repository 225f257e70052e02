import { eq } from 'drizzle-orm';
import { accountDeletions } from '../../src/server/db/schema/account.ts';
import { users } from '../../src/server/db/schema/auth.ts';
import { DEFAULT_TEST_PASSWORD } from '../support/factories.ts';
import { expect, expectNoAxeViolations, test, type Page } from './fixtures.ts';

// "Delete my account" on the account settings, then "Restore my account" at sign-in within the 14 days.

/** Full-page screenshots at 1280 and 375 px, when ACCOUNT_SCREENSHOTS is set (to look at the layout). */
async function screenshots(page: Page, name: string) {
  if (!process.env.ACCOUNT_SCREENSHOTS) return;
  await page.screenshot({ path: `test-results/account-${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: `test-results/account-${name}-375.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('a student deletes their account; signing in offers "Restore my account", which gives it back', async ({
  page,
  signInAs,
  db,
  allowConsoleError,
}) => {
  // The refused password and the refused sign-in are 4xx answers, which the browser logs.
  allowConsoleError(/Failed to load resource/);
  const user = await signInAs('student');
  await page.goto('/settings/account');
  const section = page.getByRole('region', { name: 'Delete my account' });
  await expect(section).toContainText('For 14 days you can change your mind');
  await section.getByLabel('Current password').fill('not my password');
  await section.getByRole('button', { name: 'Delete my account' }).click();
  await expect(section.getByText('This password is not right.')).toBeVisible();
  await expect.poll(async () => db.$count(accountDeletions, eq(accountDeletions.userId, user.id))).toBe(0);
  await expectNoAxeViolations(page, 'the deletion form refusing a wrong password');
  await section.scrollIntoViewIfNeeded();
  await screenshots(page, 'delete');

  await section.getByLabel('Current password').fill(DEFAULT_TEST_PASSWORD);
  await section.getByRole('button', { name: 'Delete my account' }).click();
  await expect(page).toHaveURL(/\/auth\/login\?accountDeleted=1/);
  await expect(page.getByText('Your account is being deleted')).toBeVisible();
  await expectNoAxeViolations(page, 'the sign-in page after a deletion');
  await screenshots(page, 'deleted');
  const [locked] = await db.select().from(users).where(eq(users.id, user.id));
  expect(locked!.deletionRequestedAt).not.toBeNull();

  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(DEFAULT_TEST_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const offer = page.getByRole('alert').filter({ hasText: 'This account is being deleted' });
  await expect(offer).toBeVisible();
  await expectNoAxeViolations(page, 'the offer to restore the account');
  await screenshots(page, 'restore');

  await offer.getByRole('button', { name: 'Restore my account' }).click();
  await expect(page.getByText('Your account has been restored. Welcome back!')).toBeVisible();
  await expect(page).not.toHaveURL(/\/auth\/login/);
  const [restored] = await db.select().from(users).where(eq(users.id, user.id));
  expect(restored!.deletionRequestedAt).toBeNull();
  const [deletion] = await db.select().from(accountDeletions).where(eq(accountDeletions.userId, user.id));
  expect(deletion!.status).toBe('restored');
});
