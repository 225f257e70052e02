import { desc, eq } from 'drizzle-orm';
import {
  DEFAULT_COMMISSION_BASIS_POINTS,
  DEFAULT_RELEASE_AFTER_DAYS,
  MISSED_SESSION_GRACE_MS,
  REFUND_ANSWER_DAYS,
  type Role,
} from '#shared/constants.ts';
import { contactMessages } from '../../src/server/db/schema/pages.ts';
import type { Page } from '@playwright/test';
import { expandedStateOf, expect, expectLive, expectNoAxeViolations, test } from './fixtures.ts';

// Every route of SPEC.md §2, each with the heading a visitor should see first, and who may see it
// (guarded pages are seen signed in with that role; signed out they lead to sign-in, see accounts.spec.ts).
const ROUTES: Array<[path: string, heading: RegExp, role?: Role]> = [
  ['/', /verified expert tutors/i],
  ['/auth/login', /sign in|log in/i],
  ['/auth/register', /create your account/i],
  ['/auth/forgot-password', /reset your password/i],
  ['/auth/reset-password', /password/i],
  ['/chat', /chat/i, 'student'],
  ['/profile', /profile/i, 'student'],
  ['/search-student', /student/i, 'teacher'],
  ['/search-experts', /expert/i, 'student'],
  // No such user: the report page says so.
  ['/report-user/6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b', /report/i, 'student'],
  ['/student/posts', /my requests/i, 'student'],
  // No such request: the offers page says so.
  ['/student/offers/4b0c6f43-5b7e-4c8a-9d2e-1f3a5c7e9b10', /request not found/i, 'student'],
  ['/teacher/jobs', /jobs/i, 'teacher'],
  ['/about', /about/i],
  ['/contact', /contact/i],
  ['/privacy-policy', /privacy policy/i],
  ['/terms', /terms/i],
  ['/disclaimer', /disclaimer/i],
  ['/admin', /admin|dashboard/i],
  ['/admin/reports', /admin|report/i],
  ['/admin/illegal-content', /admin|illegal/i],
  ['/admin/meeting-stats', /admin|meeting/i],
  ['/admin/sub-admins', /admin|sub-admin/i],
];

test.describe('every route', () => {
  for (const [path, heading, role] of ROUTES) {
    test(`${path} renders its page`, async ({ page, signInAs, allowConsoleError }) => {
      if (role) await signInAs(role);
      if (path.startsWith('/student/offers/') || path.startsWith('/report-user/')) allowConsoleError(/status of 404/);
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
      await expect(page.getByRole('contentinfo')).toBeVisible();
      await expectNoAxeViolations(page, path);
    });
  }

  test('an unknown path shows the not-found page', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/page not found/i);
    await expectNoAxeViolations(page, 'the not-found page');
    await page.getByRole('link', { name: /home/i }).first().click();
    await expect(page).toHaveURL('/');
  });

  test('/search-tutors leads to the expert search', async ({ page, signInAs }) => {
    await signInAs('student');
    await page.goto('/search-tutors');
    await expect(page).toHaveURL('/search-experts');
  });

  test('the static pages carry the facts SPEC.md promises', async ({ page }) => {
    await page.goto('/privacy-policy');
    await expect(page.getByText('March 18, 2024')).toBeVisible();
    await page.goto('/terms');
    const terms = page.getByRole('main');
    await expect(terms).toContainText(/prepayment/i);
    await expect(terms).toContainText(/13/);
    await expect(terms).toContainText(/Lucerne, Switzerland/);
    await expect(terms).toContainText(/misses a session/i);
  });

  test('the terms say what the payments code does, with its numbers', async ({ page }) => {
    await page.goto('/terms');
    const payments = page.getByRole('main').locator('h2#payments + ul');
    // SPEC.md §1, word for word.
    await expect(payments).toContainText('Prepayment is required.');
    await expect(payments).toContainText(
      'Refunds apply only if a tutor misses a session or an assignment is not delivered.',
    );
    // The server's release delay and commission (the defaults here), and the refund rules' own constants.
    await expect(payments).toContainText(`${DEFAULT_RELEASE_AFTER_DAYS} days after the tutor marked it delivered`);
    await expect(payments).toContainText(new RegExp(`commission of ${DEFAULT_COMMISSION_BASIS_POINTS / 100}\\s%`));
    await expect(payments).toContainText(`press Join within ${MISSED_SESSION_GRACE_MS / 60_000} minutes of its start`);
    await expect(payments).toContainText(`contest it within ${REFUND_ANSWER_DAYS} days`);
    await expect(payments).toContainText('decided by our admins');
    await expect(payments).toContainText('Once a payment has been released to the tutor, it cannot be refunded');
    await expect(page.getByRole('link', { name: 'Payments and refunds' })).toHaveAttribute('href', '#payments');
  });
});

test.describe('the top bar', () => {
  const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

  test('signed out: Home, Chat, Find Tutors, About, and Log in / Sign up', async ({ page }) => {
    await page.goto('/about');
    await expect(nav(page).getByRole('link')).toHaveText(['Home', 'Chat', 'Find Tutors', 'About']);
    await expect(page.getByRole('banner').getByRole('link', { name: 'Log in' })).toBeVisible();
    await expect(page.getByRole('banner').getByRole('link', { name: 'Sign up' })).toBeVisible();
  });

  test('home page buttons lead to registration with the role', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('link', { name: "I'm a Student" })).toHaveAttribute(
      'href',
      '/auth/register?role=student',
    );
    await expect(page.getByRole('link', { name: "I'm a Teacher" })).toHaveAttribute(
      'href',
      '/auth/register?role=teacher',
    );
  });

  test('a student sees My Requests and Find Tutors, and a user menu with Profile and Logout', async ({
    page,
    signInAs,
    request,
  }) => {
    const student = await signInAs('student');
    await page.goto('/about');
    await expect(nav(page).getByRole('link')).toHaveText(['Home', 'Chat', 'My Requests', 'Find Tutors', 'About']);
    await expect(page.getByRole('banner').getByRole('link', { name: 'Log in' })).toHaveCount(0);
    const signedInCookies = (await page.context().cookies()).map(({ name, value }) => `${name}=${value}`).join('; ');
    await page.getByRole('button', { name: new RegExp(student.username) }).click();
    await expect(page.getByRole('menuitem', { name: 'Profile' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Saved tutors' })).toHaveAttribute('href', '/tutors/saved');
    await expectNoAxeViolations(page, 'the open user menu');
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await expect(page.getByText('Logged out successfully')).toBeVisible();
    await expect(page.getByRole('banner').getByRole('link', { name: 'Log in' })).toBeVisible();
    // The session ended on the server, not only in this browser: its old cookie is refused.
    const withOldCookie = await request.get('/api/profile', { headers: { cookie: signedInCookies } });
    expect(withOldCookie.status()).toBe(401);
  });

  test('a session ended on the server shows the open page signed out at once', async ({
    page,
    signInAs,
    request,
    baseURL,
  }) => {
    await signInAs('student');
    await page.goto('/about');
    await expectLive(page);
    const cookie = (await page.context().cookies()).map(({ name, value }) => `${name}=${value}`).join('; ');
    // The same session signed out from elsewhere: nothing in this page asks the server anything afterwards.
    const signOut = await request.post('/api/auth/sign-out', { headers: { cookie, origin: baseURL! }, data: {} });
    expect(signOut.status()).toBe(200);
    await expect(page.getByRole('banner').getByRole('link', { name: 'Log in' })).toBeVisible();
    await expect(page.locator('html')).not.toHaveAttribute('data-realtime', 'connected');
  });

  test('a teacher sees Find Jobs', async ({ page, signInAs }) => {
    await signInAs('teacher');
    await page.goto('/about');
    await expect(nav(page).getByRole('link')).toHaveText(['Home', 'Chat', 'Find Jobs', 'About']);
  });
});

test.describe('on a small screen', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('the collapsible menu shows the same items and closes on route change and Escape', async ({ page }) => {
    await page.goto('/');
    const toggle = page.getByRole('button', { name: 'Menu' });
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
    await toggle.click();
    const menu = page.locator('#mobile-menu');
    await expect(menu.getByRole('link', { name: 'About' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Log in' })).toBeVisible();
    await expectNoAxeViolations(page, 'the open mobile menu');
    await menu.getByRole('link', { name: 'About' }).click();
    await expect(page).toHaveURL('/about');
    await expect(menu.getByRole('link', { name: 'About' })).toBeHidden();
    await toggle.click();
    await expect.poll(() => expandedStateOf(page, 'Menu')).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => expandedStateOf(page, 'Menu')).toBe(false);
  });

  test('signed in, a route change inside the app closes the menu', async ({ page, signInAs }) => {
    await signInAs('student');
    await page.goto('/about');
    // The app has taken over from the frame (which knows no user, and whose menu it replaces).
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/about/i);
    const menu = page.locator('#mobile-menu');
    await page.getByRole('button', { name: 'Menu' }).click();
    await menu.getByRole('link', { name: 'My Requests' }).click();
    await expect(page).toHaveURL('/student/posts');
    await expect(menu).toBeHidden();
    await expect.poll(() => expandedStateOf(page, 'Menu')).toBe(false);
  });

  test('a page loaded afresh starts at its top, wherever the page before was scrolled', async ({ page, signInAs }) => {
    await signInAs('student');
    await page.goto('/student/posts');
    await expectLive(page);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
    // A typed address or a link from an e-mail: a new document in the same tab.
    await page.goto('/profile');
    await expectLive(page);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
  });
});

test.describe('the contact form', () => {
  test('names each missing field, then stores the message and clears the form', async ({ page, db }) => {
    await page.goto('/contact');
    await page.getByRole('button', { name: /send/i }).click();
    await expect(page.getByText('Name is required')).toBeVisible();
    await expect(page.getByText('Invalid email address')).toBeVisible();
    await expect(page.getByText('Subject is required')).toBeVisible();
    await expect(page.getByText('Message is required')).toBeVisible();
    await expectNoAxeViolations(page, 'the contact form with its errors');

    const subject = `Question ${Date.now()}`;
    await page.getByLabel('Name').fill('Grace Hopper');
    await page.getByLabel('Email').fill('grace@example.com');
    await page.getByLabel('Subject').fill(subject);
    await page.getByLabel('Message').fill('Do you offer help with compilers?');
    await page.getByRole('button', { name: /send/i }).click();
    await expect(page.getByText('Message Sent')).toBeVisible();
    await expect(page.getByLabel('Name')).toHaveValue('');
    await expectNoAxeViolations(page, 'the contact form sent');

    const [stored] = await db
      .select()
      .from(contactMessages)
      .where(eq(contactMessages.subject, subject))
      .orderBy(desc(contactMessages.createdAt));
    expect(stored).toMatchObject({
      name: 'Grace Hopper',
      email: 'grace@example.com',
      message: 'Do you offer help with compilers?',
    });
  });
});
