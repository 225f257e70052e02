import { eq } from 'drizzle-orm';
import { sessions, users } from '../../src/server/db/schema/auth.ts';
import { DEFAULT_TEST_PASSWORD, createSessionCookie } from '../support/factories.ts';
import { readFile } from 'node:fs/promises';
import { linkIn, waitForDevMails } from '../support/mailbox.ts';
import { readZip } from '../support/zip.ts';
import { expect, expectNoAxeViolations, test, type Page } from './fixtures.ts';

// The account settings: signed-in devices, e-mail change through both mails, password change.

const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const WINDOWS_FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

/** Full-page screenshots at 1280 and 375 px, when ACCOUNT_SCREENSHOTS is set (to look at the layout). */
async function screenshots(page: Page, name: string) {
  if (!process.env.ACCOUNT_SCREENSHOTS) return;
  await page.screenshot({ path: `test-results/account-${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: `test-results/account-${name}-375.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
}

test.describe('account settings', () => {
  test('the user menu leads to the devices; one device and then every other one is signed out', async ({
    page,
    signInAs,
    db,
  }) => {
    const user = await signInAs('student');
    await createSessionCookie(db, user.id, undefined, { userAgent: IPHONE_SAFARI });
    await createSessionCookie(db, user.id, undefined, { userAgent: WINDOWS_FIREFOX });

    await page.goto('/profile');
    await page.getByRole('button', { name: /User menu/ }).click();
    await page.getByRole('menuitem', { name: 'Account settings' }).click();
    await expect(page).toHaveURL('/settings/account');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Account settings');

    const devices = page.getByRole('list', { name: 'Signed-in devices' });
    await expect(devices.getByRole('listitem')).toHaveCount(3);
    await expect(devices.getByRole('listitem').filter({ hasText: 'This device' })).toHaveCount(1);
    await expect(devices).toContainText('Safari 18 on iPhone');
    await expect(devices).toContainText('Firefox 133 on Windows computer');
    await expectNoAxeViolations(page, 'account settings');
    await screenshots(page, 'settings');

    await page.getByRole('button', { name: 'Sign out Safari 18 on iPhone' }).click();
    await expect(devices.getByRole('listitem')).toHaveCount(2);
    await expect(devices).not.toContainText('iPhone');

    await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await expect(devices.getByRole('listitem')).toHaveCount(1);
    await expect(page.getByText('You are not signed in anywhere else.')).toBeVisible();
    expect(await db.$count(sessions, eq(sessions.userId, user.id))).toBe(1);
  });

  test('the e-mail address changes through the link mailed to the new address; the old one gets a notice', async ({
    page,
    signInAs,
    devMailbox,
    db,
    allowConsoleError,
  }) => {
    allowConsoleError(/Failed to load resource/);
    const user = await signInAs('teacher');
    const newEmail = `moved.${user.username}@example.org`;
    await page.goto('/settings/account');
    const emailSection = page.getByRole('region', { name: 'E-mail address' });
    await expect(emailSection).toContainText(user.email);

    await emailSection.getByLabel('New e-mail address').fill(newEmail);
    await emailSection.getByLabel('Current password').fill('not my password');
    await emailSection.getByRole('button', { name: 'Change e-mail' }).click();
    await expect(emailSection.getByText('This password is not right.')).toBeVisible();
    await expectNoAxeViolations(page, 'the e-mail form refusing a wrong password');

    await emailSection.getByLabel('Current password').fill(DEFAULT_TEST_PASSWORD);
    await emailSection.getByRole('button', { name: 'Change e-mail' }).click();
    await expect(emailSection.getByText('Check your inbox')).toBeVisible();
    await expectNoAxeViolations(page, 'the e-mail change sent');
    await screenshots(page, 'email-sent');

    const [notice] = await waitForDevMails(devMailbox, user.email, { subject: /about to change/, timeoutMs: 20_000 });
    expect(notice!.text).not.toContain('/api/account/email/confirm');
    const [confirmation] = await waitForDevMails(devMailbox, newEmail, { subject: /Confirm/, timeoutMs: 20_000 });
    await page.goto(linkIn(confirmation!.text));
    await expect(page).toHaveURL('/settings/account?emailChange=changed');
    await expect(page.getByText('Your e-mail address has been changed.')).toBeVisible();
    await expect(emailSection).toContainText(newEmail);
    expect((await db.select().from(users).where(eq(users.id, user.id)))[0]!.email).toBe(newEmail);

    // The link works once.
    await page.goto(linkIn(confirmation!.text));
    await expect(page.getByText('This confirmation link is invalid or has expired.')).toBeVisible();
    await expectNoAxeViolations(page, 'a used e-mail change link');
  });

  test('the password changes with the current one; this tab stays signed in and other devices are signed out', async ({
    page,
    signInAs,
    db,
    allowConsoleError,
  }) => {
    allowConsoleError(/Failed to load resource/);
    const user = await signInAs('student');
    await createSessionCookie(db, user.id, undefined, { userAgent: WINDOWS_FIREFOX });
    await page.goto('/settings/account');
    const passwordSection = page.getByRole('region', { name: 'Password' });

    await passwordSection.getByLabel('Current password').fill('wrong-Password1');
    await passwordSection.getByLabel('New password', { exact: true }).fill('Another-pass1');
    await passwordSection.getByLabel('Confirm new password').fill('Another-pass1');
    await passwordSection.getByRole('button', { name: 'Change password' }).click();
    await expect(passwordSection.getByText('This password is not right.')).toBeVisible();

    await passwordSection.getByLabel('Current password').fill(DEFAULT_TEST_PASSWORD);
    await passwordSection.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText('Password changed')).toBeVisible();
    const devices = page.getByRole('list', { name: 'Signed-in devices' });
    await expect(devices.getByRole('listitem')).toHaveCount(1);
    await expect(page).toHaveURL('/settings/account');
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Account settings');
    expect(await db.$count(sessions, eq(sessions.userId, user.id))).toBe(1);
  });

  test('"Download my data" prepares a zip that downloads and opens, with the notice by e-mail', async ({
    page,
    signInAs,
    devMailbox,
  }) => {
    const user = await signInAs('student');
    await page.goto('/settings/account');
    const dataSection = page.getByRole('region', { name: 'Your data' });
    await dataSection.getByRole('button', { name: 'Prepare my data' }).click();
    const download = dataSection.getByRole('link', { name: 'Download my data' });
    await expect(download).toBeVisible({ timeout: 20_000 });
    await expect(dataSection).toContainText('The download works until');
    await expectNoAxeViolations(page, 'a data export ready to download');
    await screenshots(page, 'export-ready');

    const saving = page.waitForEvent('download');
    await download.click();
    const saved = await saving;
    expect(saved.suggestedFilename()).toMatch(/^virtual-help-data-\d{4}-\d{2}-\d{2}\.zip$/);
    const files = readZip(await readFile(await saved.path()));
    expect(files.get('README.txt')!.toString()).toContain('Your Virtual Help data');
    expect(JSON.parse(files.get('profile.json')!.toString())).toMatchObject({ email: user.email });

    await waitForDevMails(devMailbox, user.email, { subject: /ready to download/, timeoutMs: 20_000 });
  });
});
