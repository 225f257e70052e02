import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Page } from '@playwright/test';
import { contactMessages } from '../../src/server/db/schema/pages.ts';
import { createUser, DEFAULT_TEST_PASSWORD } from '../support/factories.ts';
import { expect, test } from './fixtures.ts';

// A public page with a form works from its HTML and loads the app when the visitor first uses it
// (docs/decisions/0021-forms-that-load-on-first-use.md): nothing typed, pressed or sent meanwhile is lost.

const CONNECTION_ERROR = 'Connection error - Could not connect to the server. Please check your internet connection.';

/** The address of the app's entry, which the page's boot script loads on first use. */
async function appEntryOf(page: Page) {
  const entry = await page.locator('script[data-app]').getAttribute('data-app');
  if (!entry) throw new Error('The page names no app for its boot script to load');
  return new URL(entry, page.url()).href;
}

/** Holds the app's code back until the returned function is called, as a slow link would. */
async function holdTheApp(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let requested = false;
  await page.route(await appEntryOf(page), async (route) => {
    requested = true;
    await released;
    await route.continue();
  });
  return {
    release,
    wasRequested: () => requested,
  };
}

test('a page with a form loads its boot script alone, and the app once someone uses the page', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.goto('/auth/login');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in');
  const entry = new URL(await appEntryOf(page)).pathname;
  expect(scripts.length).toBeGreaterThan(0);
  for (const script of scripts) expect(script).toMatch(/^\/assets\/(boot|rolldown-runtime)-[\w-]+\.js$/);

  // A link of the top bar is no use of the page: it needs nothing.
  await page.getByRole('banner').getByRole('link', { name: 'About' }).hover();
  expect(scripts).not.toContain(entry);
  const appRequested = page.waitForRequest((request) => new URL(request.url()).pathname === entry);
  await page.getByLabel('Email').focus();
  await appRequested;
});

test('what is typed and pressed before the app arrives stays, and the form acts on it once the app is there', async ({
  page,
}) => {
  const username = `early${randomBytes(4).toString('hex')}`;
  await page.goto('/auth/register');
  const app = await holdTheApp(page);

  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Email').fill(`${username}@example.com`);
  await page.getByLabel('Password', { exact: true }).fill('Secret123');
  // Buttons that act in place: held until the app can act on them.
  await page.getByText('Teacher', { exact: true }).click();
  await page.getByRole('button', { name: 'Show password' }).click();
  expect(app.wasRequested()).toBe(true);
  await expect(page.getByRole('radio', { name: /Teacher/ })).not.toBeChecked();

  app.release();
  await expect(page.getByRole('radio', { name: /Teacher/ })).toBeChecked();
  await expect(page.getByLabel('Subject category')).toBeVisible();
  await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('type', 'text');
  // The form's own handlers saw what was typed: the live checks ran on it.
  await expect(page.getByText('Username is available')).toBeVisible();
  await expect(page.getByText('Email is available')).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: 'At least 6 characters' })).toHaveAttribute(
    'data-met',
    'true',
  );
  await expect(page.getByLabel('Username')).toHaveValue(username);
  await expect(page.getByLabel('Email')).toHaveValue(`${username}@example.com`);
});

test('a form sent before the app arrives is sent once it has, once only', async ({ page, db }) => {
  const subject = `Sent early ${randomBytes(4).toString('hex')}`;
  await page.goto('/contact');
  const app = await holdTheApp(page);

  await page.getByLabel('Name').fill('Early Visitor');
  await page.getByLabel('Email').fill('early@example.com');
  await page.getByLabel('Subject').fill(subject);
  await page.getByLabel('Message').fill('Typed before the app had arrived.');
  await page.getByRole('button', { name: 'Send Message' }).click();
  // Waiting for the app, not sent natively: the page stays, and the button looks busy.
  const form = page.locator('form');
  await expect(form).toHaveAttribute('aria-busy', 'true');
  await expect(page).toHaveURL('/contact');

  app.release();
  await expect(page.getByText('Message Sent')).toBeVisible();
  await expect(form).not.toHaveAttribute('aria-busy');
  await expect(page.getByLabel('Subject')).toHaveValue('');
  expect(await db.select().from(contactMessages).where(eq(contactMessages.subject, subject))).toHaveLength(1);
});

test('Enter on the sign-in form before the app arrives signs in once it has', async ({ page, db }) => {
  const user = await createUser(db, { role: 'student' });
  await page.goto('/auth/login');
  const app = await holdTheApp(page);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(DEFAULT_TEST_PASSWORD);
  await page.getByLabel('Password', { exact: true }).press('Enter');
  app.release();
  await expect(page.getByText('Logged in successfully! Redirecting to chat...')).toBeVisible();
  await expect(page).toHaveURL('/chat');
});

test("when the app's code cannot be fetched, the page says so, and the next use tries again", async ({
  page,
  db,
  allowConsoleError,
}) => {
  allowConsoleError(/Failed to load resource|dynamically imported module/);
  const user = await createUser(db);
  await page.goto('/auth/forgot-password');
  const entry = await appEntryOf(page);
  await page.route(entry, (route) => route.abort());
  await page.getByLabel('Email').fill(user.email);
  await expect(page.getByRole('alert')).toHaveText(CONNECTION_ERROR);

  await page.unroute(entry);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('dialog', { name: 'Check your e-mail' })).toBeVisible();
  await expect(page.getByText(CONNECTION_ERROR)).toHaveCount(0);
});

test.describe('without scripts', () => {
  test.use({ javaScriptEnabled: false });

  test('a form says that it needs them, and shows no fields to fill in for nothing', async ({ page }) => {
    await page.goto('/auth/login');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in');
    await expect(
      page.getByText('This form needs JavaScript. Please enable it in your browser and reload the page.'),
    ).toBeVisible();
    await expect(page.getByLabel('Email')).toBeHidden();
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeHidden();
  });
});
