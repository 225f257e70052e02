import { randomBytes } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { asc, eq } from 'drizzle-orm';
import { users } from '../../src/server/db/schema/auth.ts';
import { subjects, teacherSpecializations } from '../../src/server/db/schema/subjects.ts';
import { createUser } from '../support/factories.ts';
import { TINY_PNG } from '../support/files.ts';
import { linkIn, waitForDevMails } from '../support/mailbox.ts';
import { expect, expectNoAxeViolations, test, type Page } from './fixtures.ts';

// Accounts journeys. Sign-in is rate limited per IP (5 a minute): only four real sign-ins
// happen in this file; every other signed-in state comes from the signInAs fixture.

const PASSWORD = 'Secret123';
function uniqueName(prefix: string) {
  return `${prefix}${randomBytes(5).toString('hex')}`;
}

/** The link of the newest mail to `to` whose subject matches, from the dev mailbox (waits for the outbox). */
const mailLink = async (devMailbox: APIRequestContext, to: string, subject: RegExp) =>
  linkIn((await waitForDevMails(devMailbox, to, { subject, timeoutMs: 20_000 }))[0]!.text);

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

async function fillAccount(page: Page, { username, email }: { username: string; email: string }) {
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await expect(page.getByText('Username is available')).toBeVisible();
  await expect(page.getByText('Email is available')).toBeVisible();
}

async function acceptTerms(page: Page) {
  await page.getByRole('checkbox', { name: /Terms and Conditions/ }).click();
  await page.getByRole('checkbox', { name: /Privacy Policy/ }).click();
  await page.getByRole('checkbox', { name: /at least 13 years old/ }).click();
}

async function signInWithForm(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test.describe('registration and sign-in', () => {
  test('a student registers, confirms through the e-mail link, and a guarded page brings them back after signing in', async ({
    page,
    devMailbox,
    db,
  }) => {
    const username = uniqueName('stu');
    const email = `${username}@example.com`;

    await page.goto('/auth/register?role=student');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Create your account');
    await expect(page.getByRole('radio', { name: /Student/ })).toBeChecked();
    await expect(
      page.getByText('Only lowercase letters and numbers allowed, no spaces or special characters'),
    ).toBeVisible();
    // Students choose no subjects.
    await expect(page.getByLabel('Subject category')).toHaveCount(0);

    const sixCharacters = page.getByRole('listitem').filter({ hasText: 'At least 6 characters' });
    await page.getByLabel('Password', { exact: true }).fill('abc');
    await expect(sixCharacters).toHaveAttribute('data-met', 'false');
    await fillAccount(page, { username, email });
    await expect(sixCharacters).toHaveAttribute('data-met', 'true');

    const terms = page.getByRole('link', { name: /Terms and Conditions/ });
    await expect(terms).toHaveAttribute('href', '/terms');
    await expect(terms).toHaveAttribute('target', '_blank');
    await expect(terms).toHaveAttribute('rel', /noopener/);
    await expect(page.getByRole('link', { name: /Privacy Policy/ }).first()).toHaveAttribute('href', '/privacy-policy');

    // Submitting without the two consents and the age confirmation names each.
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('You must accept the Terms and Conditions')).toBeVisible();
    await expect(page.getByText('You must accept the Privacy Policy')).toBeVisible();
    await expect(page.getByText('You must be at least 13 years old to use Virtual Help')).toBeVisible();
    await expectNoAxeViolations(page, 'the registration form with its errors');
    await acceptTerms(page);
    await page.getByRole('button', { name: 'Create account' }).click();

    await expect(page.getByText('Account created')).toBeVisible();
    await expect(page).toHaveURL('/auth/login');
    await expect(page.getByLabel('Email')).toHaveValue(email);

    const [stored] = await db.select().from(users).where(eq(users.email, email));
    expect(stored).toMatchObject({ username, role: 'student', emailVerified: false });
    expect(stored!.vhNumber).toBeGreaterThanOrEqual(100);
    expect(stored!.vhNumber).toBeLessThanOrEqual(999);

    // The confirmation link goes through the server and lands on the sign-in page.
    await page.goto(await mailLink(devMailbox, email, /confirm/i));
    await expect(page).toHaveURL(/\/auth\/login\?confirmed=1$/);
    await expect(page.getByText('Your e-mail is confirmed. You can sign in now.')).toBeVisible();
    await expectNoAxeViolations(page, 'the sign-in page after confirming');

    // Signed out on a student page: to sign-in, and back after signing in.
    await page.goto('/student/posts');
    await expect(page).toHaveURL('/auth/login?redirectTo=%2Fstudent%2Fposts');
    await signInWithForm(page, email, PASSWORD);
    await expect(page.getByText('Logged in successfully! Redirecting to chat...')).toBeVisible();
    await expect(page).toHaveURL('/student/posts');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/my requests/i);
    await expect(mainNav(page).getByRole('link')).toHaveText(['Home', 'Chat', 'My Requests', 'Find Tutors', 'About']);
  });

  test('a teacher registers with two Mathematics subjects, must confirm first, then lands on /chat with Find Jobs', async ({
    page,
    devMailbox,
    db,
    allowConsoleError,
  }) => {
    const username = uniqueName('tea');
    const email = `${username}@example.com`;

    await page.goto('/auth/register?role=teacher');
    await expect(page.getByRole('radio', { name: /Teacher/ })).toBeChecked();
    await fillAccount(page, { username, email });

    // Category first; Mathematics allows several subjects, any other category one, and a switch clears the choice.
    const category = page.getByLabel('Subject category');
    await category.selectOption('Mathematics');
    const mathSubjects = page.getByRole('group', { name: /Mathematics subjects/ });
    await mathSubjects.getByRole('checkbox', { name: 'Algebra', exact: true }).click();
    await mathSubjects.getByRole('checkbox', { name: 'Calculus', exact: true }).click();
    await expect(page.getByText('Chosen:')).toBeVisible();
    await category.selectOption('Sciences');
    await expect(page.getByText('No subject chosen yet.')).toBeVisible();
    await expect(
      page
        .getByRole('radiogroup', { name: /Sciences subject/ })
        .getByRole('radio')
        .first(),
    ).toBeVisible();
    await category.selectOption('Mathematics');
    await mathSubjects.getByRole('checkbox', { name: 'Algebra', exact: true }).click();
    await mathSubjects.getByRole('checkbox', { name: 'Calculus', exact: true }).click();
    // SPEC.md §9: the subject list scrolls at 200 px.
    const maxHeight = await mathSubjects.locator('..').evaluate((element) => getComputedStyle(element).maxHeight);
    expect(maxHeight).toBe('200px');

    // The avatar: a wrong type is refused with the SPEC.md message, a PNG is previewed.
    const avatar = page.getByLabel('Profile picture (optional)');
    await avatar.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await expect(page.getByText('Only .jpg, .jpeg, .png and .webp formats are supported')).toBeVisible();
    await avatar.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: TINY_PNG });
    await expect(page.getByText('Only .jpg, .jpeg, .png and .webp formats are supported')).toHaveCount(0);
    await expect(page.getByText('me.png')).toBeVisible();
    await expectNoAxeViolations(page, "a teacher's registration form");

    await acceptTerms(page);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page).toHaveURL('/auth/login');

    const [stored] = await db.select().from(users).where(eq(users.email, email));
    expect(stored).toMatchObject({ username, role: 'teacher' });
    expect(stored!.image).toMatch(/^\/api\/files\/avatars\//);
    const chosen = await db
      .select({ name: subjects.name })
      .from(teacherSpecializations)
      .innerJoin(subjects, eq(subjects.id, teacherSpecializations.subjectId))
      .where(eq(teacherSpecializations.teacherId, stored!.id))
      .orderBy(asc(subjects.name));
    expect(chosen.map((subject) => subject.name)).toEqual(['Algebra', 'Calculus']);

    // Before confirming: a clear message and a way to get a new link. (The browser logs the 403 answer.)
    allowConsoleError(/status of 403/);
    await signInWithForm(page, email, PASSWORD);
    await expect(page.getByRole('alert').filter({ hasText: 'Please confirm your e-mail address' })).toBeVisible();
    await expectNoAxeViolations(page, 'the sign-in refusing an unconfirmed address');
    await page.getByRole('button', { name: 'Resend confirmation e-mail' }).click();
    await expect(page.getByText('Confirmation e-mail sent')).toBeVisible();

    await page.goto(await mailLink(devMailbox, email, /confirm/i));
    await expect(page.getByText('Your e-mail is confirmed. You can sign in now.')).toBeVisible();
    await signInWithForm(page, email, PASSWORD);
    await expect(page).toHaveURL('/chat');
    await expect(mainNav(page).getByRole('link')).toHaveText(['Home', 'Chat', 'Find Jobs', 'About']);

    // The profile shows the account and the same subjects.
    await page.goto('/profile');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Profile');
    await expect(page.getByText(email)).toBeVisible();
    const specializations = page.getByRole('list', { name: 'Specializations' });
    await expect(specializations.getByRole('listitem')).toHaveText(['Algebra', 'Calculus']);
    await expectNoAxeViolations(page, "a teacher's profile");
  });

  test('the sign-in form checks its fields before asking the server', async ({ page }) => {
    await page.goto('/auth/login');
    await expect(page.getByRole('link', { name: 'Forgot your password?' })).toHaveAttribute(
      'href',
      '/auth/forgot-password',
    );
    await expect(page.getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', '/auth/register');
    await page.getByLabel('Email').fill('not-an-address');
    await page.getByLabel('Password', { exact: true }).fill('123');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('Invalid email address')).toBeVisible();
    await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();
    await expect(page.getByLabel('Email')).toBeFocused();
    await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
    await expectNoAxeViolations(page, 'the sign-in form with its errors');
  });

  test('a taken username is reported live and blocks the submit button', async ({ page, db }) => {
    const taken = await createUser(db);
    await page.goto('/auth/register');
    await page.getByLabel('Username').fill(taken.username);
    await expect(page.getByText('This username is already taken')).toBeVisible();
    await expect(page.getByText('Username taken')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Create account' })).toBeDisabled();
    await expectNoAxeViolations(page, 'the registration form with a taken username');
    await page.getByLabel('Username').fill(`${taken.username}x`);
    await expect(page.getByText('Username is available')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Create account' })).toBeEnabled();
  });
});

test.describe('registration dialogs', () => {
  test('an e-mail taken meanwhile opens Account Already Exists; a server failure opens Profile Creation Issue', async ({
    page,
    db,
    allowConsoleError,
  }) => {
    const existing = await createUser(db);
    allowConsoleError(/status of (409|500)/);
    // The live check answered before someone else took the address: only the server still knows.
    await page.route('**/api/accounts/availability?email=*', (route) =>
      route.fulfill({ json: { available: true, message: 'Email is available' } }),
    );
    await page.goto('/auth/register');
    await fillAccount(page, { username: uniqueName('late'), email: existing.email });
    await acceptTerms(page);
    await page.getByRole('button', { name: 'Create account' }).click();
    const exists = page.getByRole('dialog', { name: 'Account Already Exists' });
    await expect(exists).toContainText(existing.email);
    await expectNoAxeViolations(page, 'Account Already Exists');
    await exists.getByRole('button', { name: 'Go to Sign In' }).click();
    await expect(page).toHaveURL('/auth/login');
    await expect(page.getByLabel('Email')).toHaveValue(existing.email);

    await page.route('**/api/accounts/register', (route) =>
      route.fulfill({
        status: 500,
        json: { code: 'INTERNAL', message: 'Something went wrong on our side. Please try again.' },
      }),
    );
    await page.goto('/auth/register');
    await fillAccount(page, { username: uniqueName('late'), email: `${uniqueName('new')}@example.com` });
    await acceptTerms(page);
    await page.getByRole('button', { name: 'Create account' }).click();
    const issue = page.getByRole('dialog', { name: 'Profile Creation Issue' });
    await expect(issue).toBeVisible();
    await expectNoAxeViolations(page, 'Profile Creation Issue');
    await issue.getByRole('button', { name: 'Back to the form' }).click();
    await expect(issue).toBeHidden();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Create your account');
  });

  test('an e-mail already registered is reported inline with a way to sign in', async ({ page, db }) => {
    const existing = await createUser(db);
    await page.goto('/auth/register');
    await page.getByLabel('Email').fill(existing.email);
    await expect(page.getByText('An account with this email already exists', { exact: true })).toBeVisible();
    await expect(page.getByText('Email already in use')).toBeVisible();
    await expectNoAxeViolations(page, 'the registration form with a registered address');
    await expect(page.getByRole('button', { name: 'Create account' })).toBeDisabled();
    await page.getByRole('link', { name: 'Sign in instead' }).click();
    await expect(page).toHaveURL('/auth/login');
    await expect(page.getByLabel('Email')).toHaveValue(existing.email);
  });
});

test.describe('password reset', () => {
  test('forgot → mail → reset → sign in with the new password; the same link is refused the second time', async ({
    page,
    devMailbox,
    db,
  }) => {
    const user = await createUser(db);
    const newPassword = 'NewPassword9';

    await page.goto('/auth/forgot-password');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Reset your password');
    await page.getByLabel('Email').fill('nope');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByText('Invalid email address')).toBeVisible();
    await page.getByLabel('Email').fill(user.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    const dialog = page.getByRole('dialog', { name: 'Check your e-mail' });
    await expect(dialog).toContainText('expires after 10 minutes');
    await expect(dialog).toContainText('spam');
    await expectNoAxeViolations(page, 'Check your e-mail');

    const link = await mailLink(devMailbox, user.email, /reset/i);
    await page.goto(link);
    await expect(page).toHaveURL(/\/auth\/reset-password\?token=/);

    const password = page.getByLabel('New password', { exact: true });
    await password.fill('short');
    await page.getByLabel('Confirm new password').fill('other');
    await page.getByRole('button', { name: 'Update password' }).click();
    await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();
    await expect(page.getByText("Passwords don't match")).toBeVisible();
    await password.fill('longenough1');
    await expect(page.getByText('Password must contain at least one uppercase letter')).toBeVisible();
    await expectNoAxeViolations(page, 'the new password form with its errors');

    await password.fill(newPassword);
    await page.getByLabel('Confirm new password').fill(newPassword);
    await page.getByRole('button', { name: 'Update password' }).click();
    await expect(page.getByText('Password Updated').first()).toBeVisible();
    await expect(page.getByText(/sign-in page in 2 seconds/)).toBeVisible();
    await expect(page).toHaveURL('/auth/login');

    await signInWithForm(page, user.email, newPassword);
    await expect(page).toHaveURL('/chat');

    // The link works once.
    await page.goto(link);
    await expect(page).toHaveURL(/\/auth\/reset-password\?error=/);
    await expect(page.getByText('The password reset link is invalid or has expired.')).toBeVisible();
    await expectNoAxeViolations(page, 'a used reset link');
    await page.getByRole('link', { name: 'Request New Reset Link' }).click();
    await expect(page).toHaveURL('/auth/forgot-password');
  });

  test('without a token the reset page says so and offers a new link', async ({ page }) => {
    await page.goto('/auth/reset-password');
    await expect(page.getByText('No valid reset token found. Please request a new password reset link.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Request New Reset Link' })).toHaveAttribute(
      'href',
      '/auth/forgot-password',
    );
  });
});

test.describe('profile', () => {
  test('a teacher changes the picture and the subjects', async ({ page, signInAs, db }) => {
    const teacher = await signInAs('teacher');
    await page.goto('/profile');
    await expect(page.getByRole('heading', { name: 'Account details' })).toBeVisible();
    await expect(page.getByText(teacher.email)).toBeVisible();
    await expect(page.getByRole('main').getByText(`VH number ${teacher.vhNumber}`)).toBeVisible();

    // Change picture: the type is checked before anything is sent, then the upload replaces the avatar.
    await page.getByRole('button', { name: 'Change picture' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change picture' });
    const picture = dialog.getByLabel('New picture');
    await picture.setInputFiles({ name: 'big.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
    await expect(dialog.getByText('Only .jpg, .jpeg, .png and .webp formats are supported')).toBeVisible();
    await expectNoAxeViolations(page, 'Change picture refusing a file');
    await picture.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: TINY_PNG });
    await dialog.getByRole('button', { name: 'Save picture' }).click();
    await expect(page.getByText('Profile picture updated')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('button', { name: /User menu/ }).locator('img')).toHaveAttribute(
      'src',
      /^\/api\/files\/avatars\//,
    );

    // Specializations: the registration picker; one subject outside Mathematics.
    await page.getByRole('button', { name: 'Edit specializations' }).click();
    await page.getByLabel('Subject category').selectOption('Sciences');
    await page.getByRole('radio', { name: 'Physics' }).click();
    await expectNoAxeViolations(page, 'the specializations editor');
    await page.getByRole('button', { name: 'Save specializations' }).click();
    await expect(page.getByText('Specializations updated')).toBeVisible();
    await expect(page.getByRole('list', { name: 'Specializations' }).getByRole('listitem')).toHaveText(['Physics']);
    const saved = await db
      .select({ name: subjects.name })
      .from(teacherSpecializations)
      .innerJoin(subjects, eq(subjects.id, teacherSpecializations.subjectId))
      .where(eq(teacherSpecializations.teacherId, teacher.id));
    expect(saved).toEqual([{ name: 'Physics' }]);
  });

  test('a student has no specializations to edit', async ({ page, signInAs }) => {
    const student = await signInAs('student');
    await page.goto('/profile');
    await expect(page.getByText(student.username).first()).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Account details' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Specializations' })).toHaveCount(0);
  });
});

test.describe('route guards', () => {
  test('signed out, guarded pages lead to sign-in and remember where the user was going', async ({ page }) => {
    await page.goto('/teacher/jobs?highlight=abc');
    await expect(page).toHaveURL('/auth/login?redirectTo=%2Fteacher%2Fjobs%3Fhighlight%3Dabc');
    await expect(page.getByText('Please sign in to continue to that page.')).toBeVisible();
    await page.goto('/profile');
    await expect(page).toHaveURL('/auth/login?redirectTo=%2Fprofile');
  });

  test('a teacher on a student page is told it is for students', async ({ page, signInAs }) => {
    await signInAs('teacher');
    await page.goto('/student/posts');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('This page is for students');
    await expect(page.getByText(/signed in with a teacher account/)).toBeVisible();
    await expectNoAxeViolations(page, 'a student page refusing a teacher');
    await page.getByRole('link', { name: 'Go to Chat' }).click();
    await expect(page).toHaveURL('/chat');
  });

  test('a student on a teacher page is told it is for teachers', async ({ page, signInAs }) => {
    await signInAs('student');
    await page.goto('/search-student');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('This page is for teachers');
  });

  test('logging out on a guarded page goes home, not to the sign-in page', async ({ page, signInAs }) => {
    const student = await signInAs('student');
    await page.goto('/profile');
    await page.getByRole('button', { name: new RegExp(student.username) }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await expect(page.getByText('Logged out successfully')).toBeVisible();
    await expect(page).toHaveURL('/');
  });

  test('signed-in users skip the sign-in and registration pages, and redirectTo stays on this site', async ({
    page,
    signInAs,
  }) => {
    await signInAs('student');
    await page.goto('/auth/login');
    await expect(page).toHaveURL('/chat');
    await page.goto('/auth/register?role=teacher');
    await expect(page).toHaveURL('/chat');
    await page.goto('/auth/login?redirectTo=%2Fprofile');
    await expect(page).toHaveURL('/profile');
    await page.goto(`/auth/login?redirectTo=${encodeURIComponent('//evil.example/steal')}`);
    await expect(page).toHaveURL('/chat');
  });
});
