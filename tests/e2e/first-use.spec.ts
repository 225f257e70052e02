import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Page } from '@playwright/test';
import { contactMessages } from '../../src/server/db/schema/pages.ts';
import { createUser, DEFAULT_TEST_PASSWORD } from '../support/factories.ts';
import { TINY_PNG } from '../support/files.ts';
import { expect, expectNoAxeViolations, test } from './fixtures.ts';

// A public page with a form works from its HTML and loads the app when the visitor first uses it
// (docs/decisions/0021-forms-that-load-on-first-use.md): nothing typed, pressed or sent meanwhile is lost.

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

/** Resolves once the app has taken the page over: with its form in place, it asks who is signed in. */
const takeoverOf = (page: Page) =>
  page.waitForRequest((request) => new URL(request.url()).pathname === '/api/auth/get-session');

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

  // Reading is no use of the page: a press beside the form, a link of the top bar need nothing.
  await page.getByRole('heading', { level: 1 }).click();
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
  await page.getByLabel('Profile picture (optional)').setInputFiles({
    name: 'me.png',
    mimeType: 'image/png',
    buffer: TINY_PNG,
  });
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
  // The picture chosen meanwhile is the form's, though the picker clears its input as it mounts.
  await expect(page.getByText('me.png')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Remove picture' })).toBeVisible();
});

test('a form sent before the app arrives is sent once it has, once only', async ({ page, db }) => {
  const subject = `Sent early ${randomBytes(4).toString('hex')}`;
  await page.goto('/contact');
  const app = await holdTheApp(page);

  await page.getByLabel('Name').fill('Early Visitor');
  await page.getByLabel('Email').fill('early@example.com');
  await page.getByLabel('Subject').fill(subject);
  await page.getByLabel('Message').fill('Typed before the app had arrived.');
  const send = page.getByRole('button', { name: 'Send Message' });
  await send.click();
  // Waiting for the app, not sent natively: the page stays, the button says it is waiting, and so does a status.
  const form = page.locator('form');
  await expect(form).toHaveAttribute('aria-busy', 'true');
  await expect(send).toHaveAttribute('aria-disabled', 'true');
  await expect(page.getByRole('status').filter({ hasText: 'Sending as soon as the page is ready.' })).toBeAttached();
  await expect(page).toHaveURL('/contact');
  // Sending again while waiting (Enter in a field) sends nothing more.
  await page.getByLabel('Subject').press('Enter');

  app.release();
  await expect(page.getByText('Message Sent')).toBeVisible();
  await expect(form).not.toHaveAttribute('aria-busy');
  await expect(send).not.toHaveAttribute('aria-disabled');
  await expect(page.getByLabel('Subject')).toHaveValue('');
  expect(await db.select().from(contactMessages).where(eq(contactMessages.subject, subject))).toHaveLength(1);
});

test("a word being composed on a phone's keyboard when the app arrives is left to finish, then handed over", async ({
  page,
}) => {
  const username = `ime${randomBytes(4).toString('hex')}`;
  await page.goto('/auth/register');
  const app = await holdTheApp(page);
  const field = page.getByLabel('Username');
  await field.fill(username.slice(0, 4));
  // An input method composing the rest of the word, as Android keyboards do with every word.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.imeSetComposition', { text: 'x', selectionStart: 1, selectionEnd: 1 });
  const takenOver = takeoverOf(page);
  app.release();
  await takenOver;
  await cdp.send('Input.insertText', { text: username.slice(4) });
  await expect(field).toHaveValue(username);
  await expect(page.getByText('Username is available')).toBeVisible();
});

test('a field the app finds already holding what was typed is left as it is: its selection and caret stay', async ({
  page,
}) => {
  const email = `again${randomBytes(4).toString('hex')}@example.com`;
  await page.goto('/auth/login');
  const app = await holdTheApp(page);
  const field = page.getByLabel('Email');
  await field.fill(email);
  // Typed over as a whole once the app is there: the new text replaces what is selected, as it would without the app.
  await field.selectText();
  let takenOver = takeoverOf(page);
  app.release();
  await takenOver;
  await page.keyboard.insertText(email);
  await expect(field).toHaveValue(email);

  // A correction in the middle of the address, typed as the app arrives, lands where the caret is.
  await page.goto('/auth/forgot-password');
  const later = await holdTheApp(page);
  const other = page.getByLabel('Email');
  await other.fill('name@example.com');
  await other.press('Home');
  for (let i = 0; i < 4; i++) await other.press('ArrowRight');
  takenOver = takeoverOf(page);
  later.release();
  await takenOver;
  await page.keyboard.insertText('x');
  await expect(other).toHaveValue('namex@example.com');
});

test("a visitor whose clock is in another year than the build's keeps what they typed", async ({ page }) => {
  // Until the next build after New Year the prerendered footer says the build's year: the app's first render must too.
  await page.clock.setFixedTime(new Date(`${new Date().getFullYear() + 1}-01-01T10:00:00`));
  await page.goto('/auth/forgot-password');
  const app = await holdTheApp(page);
  await page.getByLabel('Email').fill('someone@example.com');
  const takenOver = takeoverOf(page);
  app.release();
  await takenOver;
  await expect(page.getByRole('contentinfo')).toContainText(`© ${new Date().getFullYear() + 1} Virtual Help`);
  await expect(page.getByLabel('Email')).toHaveValue('someone@example.com');
});

test('a form filled in and sent before even the boot script has arrived is held, and sent once the app has', async ({
  page,
  db,
}) => {
  const subject = `Sent very early ${randomBytes(4).toString('hex')}`;
  let releaseBoot!: () => void;
  const bootReleased = new Promise<void>((resolve) => (releaseBoot = resolve));
  await page.route('**/assets/boot-*.js', async (route) => {
    await bootReleased;
    await route.continue();
  });
  await page.goto('/contact', { waitUntil: 'commit' });

  await page.getByLabel('Name').fill('Very Early Visitor');
  await page.getByLabel('Email').fill('very.early@example.com');
  await page.getByLabel('Subject').fill(subject);
  await page.getByLabel('Message').fill('Typed and sent before any script had run.');
  await page.getByRole('button', { name: 'Send Message' }).click();
  // Not posted natively, which would leave the page and lose what was typed.
  await expect(page.getByLabel('Subject')).toHaveValue(subject);
  await expect(page).toHaveURL('/contact');

  releaseBoot();
  await expect(page.getByText('Message Sent')).toBeVisible();
  await expect(page.getByLabel('Subject')).toHaveValue('');
  expect(await db.select().from(contactMessages).where(eq(contactMessages.subject, subject))).toHaveLength(1);
});

test('a form typed into before the boot script has arrived loads the app at once, without another press', async ({
  page,
  db,
}) => {
  const user = await createUser(db, { role: 'student' });
  let releaseBoot!: () => void;
  const bootReleased = new Promise<void>((resolve) => (releaseBoot = resolve));
  await page.route('**/assets/boot-*.js', async (route) => {
    await bootReleased;
    await route.continue();
  });
  await page.goto('/auth/login', { waitUntil: 'commit' });
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(DEFAULT_TEST_PASSWORD);

  // The visitor has used the form already: the boot script fetches the app as it runs, not at the next key.
  const takenOver = takeoverOf(page);
  releaseBoot();
  await takenOver;
  await expect(page.getByLabel('Email')).toHaveValue(user.email);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL('/chat');
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

test("when the app's code cannot be fetched, the page says so, and Try again or the submit asks again", async ({
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
  const notice = page.getByRole('alert');
  await expect(notice).toContainText('Connection error');
  await expect(notice).toContainText('Could not connect to the server. Please check your internet connection.');
  await notice.getByRole('button', { name: 'Try again' }).click();
  await expect(notice).toContainText('Connection error');
  // The notice goes with the button pressed: focus is back where the visitor was.
  await expect(page.getByLabel('Email')).toBeFocused();
  await expectNoAxeViolations(page, "a form whose app's code could not be fetched");

  await page.unroute(entry);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('dialog', { name: 'Check your e-mail' })).toBeVisible();
  await expect(page.getByText('Could not connect to the server.')).toHaveCount(0);
});

test('a page whose app has since been replaced by a new version asks to be reloaded', async ({
  page,
  allowConsoleError,
}) => {
  allowConsoleError(/Failed to load resource|dynamically imported module/);
  await page.goto('/contact');
  const entry = await appEntryOf(page);
  // A deployment since the page was opened: the server's page names another app, and this one's files are gone.
  const newPage = (await (await page.request.get('/contact')).text()).replace(
    new URL(entry).pathname,
    '/assets/index-newversion.js',
  );
  await page.route('/contact', (route) => route.fulfill({ contentType: 'text/html', body: newPage }));
  await page.route(entry, (route) => route.fulfill({ status: 404, body: 'Not found' }));
  await page.getByLabel('Name').fill('Visitor');
  const notice = page.getByRole('alert');
  await expect(notice).toContainText('This page could not be loaded');
  await expect(notice).toContainText('Virtual Help has been updated since this page was opened. Please reload it.');
  await expectNoAxeViolations(page, 'a form asking to be reloaded');
  await page.unroute('/contact');
  await page.unroute(entry);
  await notice.getByRole('button', { name: 'Reload' }).click();
  // A new page load: this one's HTML names the app that is there.
  await expect(page.getByLabel('Name')).toHaveValue('');
  await page.getByLabel('Name').fill('Visitor');
  await expect(notice).toHaveCount(0);
});

test('on a phone, the app takes the page over where the visitor is, without scrolling it', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/contact');
  const app = await holdTheApp(page);
  await page.getByLabel('Message').fill('Written far down the page.');
  const scrolled = await page.evaluate(() => window.scrollY);
  expect(scrolled).toBeGreaterThan(300);
  const takenOver = takeoverOf(page);
  app.release();
  await takenOver;
  expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
  await expect(page.getByLabel('Message')).toHaveValue('Written far down the page.');
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
