import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import { expect, expectNoAxeViolations, test, type Page } from './fixtures.ts';

// Notification settings: the channels per kind of news, kept; the devices with push, removable.

/** Full-page screenshots at 1280 and 375 px, to look at the layout. */
async function screenshots(page: Page, name: string) {
  await page.screenshot({ path: `test-results/notifications-${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: `test-results/notifications-${name}-375.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** A browser's push subscription at a public address (Chromium's own would need a push service on the Internet). */
function pushSubscription() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint: `https://8.8.8.8/push/${randomUUID()}`,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
  };
}

test('the user menu leads to the notification settings; a change is kept, a device with push is removed', async ({
  page,
  signInAs,
}) => {
  await signInAs('teacher');
  await page.goto('/profile');
  await page.getByRole('button', { name: /User menu/ }).click();
  await page.getByRole('menuitem', { name: 'Notification settings' }).click();
  await expect(page).toHaveURL('/settings/notifications');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Notification settings');

  const offersPush = page.getByRole('checkbox', { name: 'Offers and bids: Push' });
  const newsEmail = page.getByRole('checkbox', { name: 'Product news: E-mail' });
  await expect(offersPush).toBeChecked();
  await expect(newsEmail).not.toBeChecked();
  await offersPush.click();
  await newsEmail.click();
  await expect(offersPush).not.toBeChecked();
  await expect(newsEmail).toBeChecked();

  expect((await page.request.post('/api/push/subscriptions', { data: pushSubscription() })).status()).toBe(201);
  await page.reload();
  await expect(offersPush).not.toBeChecked();
  await expect(newsEmail).toBeChecked();
  await expect(page.getByRole('button', { name: 'Turn on notifications on this device' })).toBeVisible();
  const devices = page.getByRole('list', { name: 'Devices with push notifications' });
  await expect(devices.getByRole('listitem')).toHaveCount(1);
  await expectNoAxeViolations(page, 'notification settings');
  await screenshots(page, 'settings');

  await devices.getByRole('button', { name: /^Remove / }).click();
  await expect(page.getByText('No device receives push notifications yet.')).toBeVisible();
});
