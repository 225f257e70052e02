import { createUser } from '../support/factories.ts';
import { expect, test } from './fixtures.ts';

// What a visitor sees before any script has run: the public pages are whole HTML documents that name one small
// boot script, and every other page starts from the frame (top bar, footer, the page loading).

test('a public page names only the boot script, which loads the app after the first paint', async ({ request }) => {
  const html = await (await request.get('/about')).text();
  const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map(([tag]) => tag);
  expect(scripts).toHaveLength(1);
  expect(scripts[0]).toMatch(/src="\/assets\/boot-[\w-]+\.js" data-app="\/assets\/index-[\w-]+\.js"/);
  expect(html).not.toContain('modulepreload');
});

test.describe('without scripts', () => {
  test.use({ javaScriptEnabled: false });

  test('a public page shows its content and its links lead on', async ({ page }) => {
    await page.goto('/about');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/about/i);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Contact', exact: true }).click();
    await expect(page).toHaveURL(/\/contact$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/contact/i);
  });

  test('on a small screen the menu opens and closes', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto('/');
    const menu = page.locator('#mobile-menu');
    await expect(menu).toBeHidden();
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(menu.getByRole('link', { name: 'About' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
  });

  test('another page shows the frame: the top bar, the page loading and the footer', async ({ page }) => {
    await page.goto('/chat');
    await expect(page.getByRole('banner').getByRole('link', { name: /virtual help/i })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Loading page' })).toBeAttached();
    await expect(page.getByRole('contentinfo')).toBeAttached();
    // The frame is no page in particular: no menu item is marked as the current one.
    await expect(page.locator('[aria-current]')).toHaveCount(0);
  });
});

test('the app replaces the frame with the page, without errors', async ({ page, signInAs }) => {
  await signInAs('student');
  await page.goto('/chat');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/chat/i);
  // One top bar and one footer: React replaced the frame rather than adding to it.
  await expect(page.getByRole('banner')).toHaveCount(1);
  await expect(page.getByRole('contentinfo')).toHaveCount(1);
  await expect(page.getByText('Loading page')).toHaveCount(0);
});

test('a page whose code does not arrive shows the error page with a retry', async ({
  page,
  signInAs,
  allowConsoleError,
}) => {
  allowConsoleError(/Failed to load resource|dynamically imported module/);
  await signInAs('student');
  await page.route(/\/assets\/chat-page-[\w-]+\.js$/, (route) => route.abort());
  await page.goto('/chat');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('This page could not be loaded');
  await expect(page.getByRole('button', { name: 'Retry' })).toBeVisible();
});

test('a dialog whose form does not arrive says so in its place, and loads it on Try again', async ({
  page,
  db,
  signInAs,
  allowConsoleError,
}) => {
  allowConsoleError(/Failed to load resource|dynamically imported module/);
  await signInAs('teacher');
  const student = await createUser(db, { role: 'student' });
  await page.route(/\/assets\/schedule-meeting-form-[\w-]+\.js$/, (route) => route.abort());
  await page.goto(`/chat?tutorId=${student.id}`);
  await page.getByRole('button', { name: 'Schedule meeting' }).click();
  const dialog = page.getByRole('dialog', { name: 'Schedule meeting' });
  await expect(dialog.getByRole('alert')).toContainText('Connection error');
  // Only the dialog's part failed, not the page.
  await expect(page.getByRole('heading', { name: 'This page could not be loaded' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: /^Conversation with/ })).toBeAttached();

  await page.unroute(/\/assets\/schedule-meeting-form-[\w-]+\.js$/);
  await dialog.getByRole('button', { name: 'Try again' }).click();
  await expect(dialog.getByLabel('Title')).toBeFocused();
});
