import { createSubject, createTeacher, createUser } from '../support/factories.ts';
import type { Page } from '@playwright/test';
import { expandedStateOf, expect, expectNoAxeViolations, test } from './fixtures.ts';

// What a visitor sees before any script has run: the public pages are whole HTML documents (those with a form name
// one small boot script: first-use.spec.ts), and every other page starts from the frame (top bar, footer, the page
// loading).

test('a content page names no script; a page with a form names only the boot script, after its inline holder', async ({
  request,
}) => {
  const pageOf = async (pagePath: string) => {
    const html = await (await request.get(pagePath)).text();
    expect(html, pagePath).not.toContain('modulepreload');
    // Nothing asked for up front: a signed-out visitor's page needs no session.
    expect(html, pagePath).not.toContain('rel="preload"');
    return { html, scripts: [...html.matchAll(/<script\b[^>]*>/g)].map(([tag]) => tag) };
  };
  for (const pagePath of ['/', '/about', '/privacy-policy', '/terms', '/disclaimer']) {
    expect((await pageOf(pagePath)).scripts, pagePath).toEqual([]);
  }
  for (const pagePath of ['/contact', '/auth/login', '/auth/register', '/auth/forgot-password']) {
    const { html, scripts } = await pageOf(pagePath);
    // The inline script that holds a submit made before the boot script runs, then the boot script.
    expect(scripts, pagePath).toHaveLength(2);
    expect(scripts[0]).toBe('<script>');
    expect(scripts[1]).toMatch(/src="\/assets\/boot-[\w-]+\.js" data-app="\/assets\/index-[\w-]+\.js"/);
    // The server's settings, for the app that hydrates the page.
    expect(html, pagePath).toContain('<meta name="settings:supportEmail" content="support@virtualhelp.example">');
  }
});

test.describe('without scripts', () => {
  test.use({ javaScriptEnabled: false });

  test('a public page shows its content, its title, the support details and its links lead on', async ({ page }) => {
    await page.goto('/about');
    await expect(page).toHaveTitle('About · Virtual Help');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/about/i);
    // Filled in by the server from its settings: no placeholder, no loading state.
    const contactDetails = page.getByRole('contentinfo').locator('address');
    await expect(contactDetails.getByRole('link', { name: '+41 41 000 00 00' })).toHaveAttribute(
      'href',
      'tel:+41410000000',
    );
    await expect(contactDetails.getByRole('link', { name: 'support@virtualhelp.example' })).toBeVisible();
    await expect(page.getByRole('banner').getByRole('link', { name: 'Log in' })).toBeVisible();
    await page.getByRole('contentinfo').getByRole('link', { name: 'Contact', exact: true }).click();
    await expect(page).toHaveURL(/\/contact$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/contact/i);
  });

  test('on a small screen the menu opens and closes', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto('/');
    const menu = page.locator('#mobile-menu');
    await expect(menu).toBeHidden();
    const toggle = page.getByRole('button', { name: 'Menu' });
    expect(await expandedStateOf(page, 'Menu')).toBe(false);
    await toggle.click();
    await expect(menu.getByRole('link', { name: 'About' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Log in' })).toBeVisible();
    await expect.poll(() => expandedStateOf(page, 'Menu')).toBe(true);
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect.poll(() => expandedStateOf(page, 'Menu')).toBe(false);
    await expect(toggle).toBeFocused();
  });

  test("a teacher's jobs page shows its own frame: its title and heading, its jobs loading", async ({
    page,
    signInAs,
  }) => {
    await signInAs('teacher');
    await page.goto('/teacher/jobs?highlight=00000000-0000-0000-0000-000000000000');
    await expect(page).toHaveTitle('Available Jobs · Virtual Help');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Available Jobs in Your Subjects');
    await expect(page.getByRole('status').filter({ hasText: 'Loading jobs' })).toBeAttached();
    await expect(page.getByRole('contentinfo')).toBeAttached();
    // The teacher's menu items, as the app shows them: nothing moves when the session arrives.
    const menu = page.getByRole('navigation', { name: 'Main' });
    await expect(menu.getByRole('link')).toHaveText(['Home', 'Chat', 'Find Jobs', 'About']);
    await expect(menu.getByRole('link', { name: 'Find Jobs' })).toHaveAttribute('aria-current', 'page');
  });

  test("the chat shows its frame for the visitor's role: the role's buttons, the rooms loading", async ({
    page,
    signInAs,
  }) => {
    await signInAs('student');
    await page.goto('/chat');
    await expect(page).toHaveTitle('Chat · Virtual Help');
    const rooms = page.getByRole('complementary', { name: 'Chat rooms' });
    await expect(rooms.getByRole('link', { name: 'Search expert with ID' })).toBeVisible();
    await expect(rooms.getByRole('list', { name: 'Loading chat rooms' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link')).toHaveText([
      'Home',
      'Chat',
      'My Requests',
      'Find Tutors',
      'About',
    ]);
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
  const sessionRequests: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/auth/get-session') sessionRequests.push(request.resourceType());
  });
  await page.goto('/chat');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/chat/i);
  // One top bar and one footer: React replaced the frame rather than adding to it.
  await expect(page.getByRole('banner')).toHaveCount(1);
  await expect(page.getByRole('contentinfo')).toHaveCount(1);
  await expect(page.getByText('Loading page')).toHaveCount(0);
  // The page asked for the session before its scripts arrived, and the app used that answer rather than asking again.
  // (A request a script makes is of type "fetch"; the document's preload is not.)
  expect(sessionRequests).toEqual(['other']);
});

type LayoutShiftWindow = { layoutShiftSoFar(): number };

/**
 * Watches every page this tab loads from its first paint on: the observer starts with the document, before any of
 * its scripts. Call before `goto`.
 */
const watchLayoutShifts = (page: Page) =>
  page.addInitScript(() => {
    let total = 0;
    const add = (entries: PerformanceEntry[]) => {
      for (const entry of entries) total += (entry as unknown as { value: number }).value;
    };
    const observer = new PerformanceObserver((list) => add(list.getEntries()));
    observer.observe({ type: 'layout-shift', buffered: true });
    (window as unknown as LayoutShiftWindow).layoutShiftSoFar = () => {
      // Entries the observer has not been called back with yet count too.
      add(observer.takeRecords());
      return total;
    };
  });

/** The sum of the page's layout shifts so far (its Cumulative Layout Shift), 0 when there were none. */
const layoutShiftOf = (page: Page) => page.evaluate(() => (window as unknown as LayoutShiftWindow).layoutShiftSoFar());

test("the app takes over a page's own frame without moving what it shows", async ({ page, signInAs }) => {
  await signInAs('teacher');
  await watchLayoutShifts(page);
  const jobRequests: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/jobs') jobRequests.push(request.url());
  });
  await page.goto('/teacher/jobs');
  await expect(page.getByRole('tab', { name: 'All Jobs (0)' })).toBeVisible();
  await expect(page.getByText('No jobs available in your subjects.')).toBeVisible();
  await expect(page.getByRole('banner')).toHaveCount(1);
  expect(await layoutShiftOf(page)).toBeLessThanOrEqual(0.02);
  // Asked for once the session was known, before the page's code had arrived; the page used that answer.
  expect(jobRequests).toHaveLength(1);

  // A frame that differs by role: the chat's. On a phone, where the room list is the whole screen.
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/chat');
  await expect(page.getByRole('link', { name: 'Search the student' })).toBeVisible();
  await expect(page.getByText('No conversations yet')).toBeVisible();
  expect(await layoutShiftOf(page)).toBeLessThanOrEqual(0.02);
});

test('a teacher of several subjects gets the subject filter with the jobs, on a phone, without anything moving', async ({
  db,
  openBrowserAs,
}) => {
  const subjectIds = [(await createSubject(db)).id, (await createSubject(db)).id];
  const teacher = await createTeacher(db, { subjectIds });
  const { page } = await openBrowserAs(teacher.id);
  await watchLayoutShifts(page);
  const asked: string[] = [];
  page.on('request', (request) => asked.push(new URL(request.url()).pathname));
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/teacher/jobs');
  await expect(page.getByRole('combobox', { name: 'Subject' })).toBeVisible();
  await expect(page.getByText('No jobs available in your subjects.')).toBeVisible();
  expect(await layoutShiftOf(page)).toBeLessThanOrEqual(0.02);
  // Both asked for once, ahead of the page's code.
  expect(asked.filter((pathname) => pathname === '/api/jobs')).toHaveLength(1);
  expect(asked.filter((pathname) => pathname === '/api/profile')).toHaveLength(1);
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
  await expectNoAxeViolations(page, 'the error page');
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
  await expectNoAxeViolations(page, 'a dialog whose form did not arrive');

  await page.unroute(/\/assets\/schedule-meeting-form-[\w-]+\.js$/);
  await dialog.getByRole('button', { name: 'Try again' }).click();
  await expect(dialog.getByLabel('Title')).toBeFocused();
});
