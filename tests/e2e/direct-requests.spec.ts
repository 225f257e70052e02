import { and, eq } from 'drizzle-orm';
import { tutoringRequests } from '../../src/server/db/schema/requests.ts';
import { createSubject, createTeacher } from '../support/factories.ts';
import { acceptOffer, expect, expectNoAxeViolations, payAtCheckout, test, type Page } from './fixtures.ts';

// Direct requests and saved tutors: a student finds a tutor, saves them, asks them directly; the tutor bids; the
// student pays and completes the job, then asks the saved tutor again in the same subject.

/** Screenshots at 1280 and 375 px, with axe at each (to look at the layout). */
async function lookAt(page: Page, name: string) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    await expectNoAxeViolations(page, `${name}, ${width} px`);
    await page.screenshot({ path: `test-results/direct-${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('a student filters, saves a tutor and asks them directly; the tutor bids, is paid, and is asked again', async ({
  page,
  db,
  signInAs,
  openBrowserAs,
}) => {
  test.slow();
  const tag = `Quillon${Date.now()}`;
  const subject = await createSubject(db, { name: `Calculus ${tag}` });
  const tutor = await createTeacher(db, {
    subjectIds: [subject.id],
    headline: `Limits and series ${tag}`,
    reviewCount: 4,
    reviewRatingSum: 19,
  });
  // Another tutor of the subject, who must never see the direct request.
  const other = await createTeacher(db, { subjectIds: [subject.id], headline: `Derivatives ${tag}` });
  const student = await signInAs('student');

  // Find Tutors, filtered by subject and rating, then the tutor's page.
  await page.goto(`/tutors?q=${tag}`);
  await page.getByRole('checkbox', { name: subject.name }).click();
  await expect(page).toHaveURL(new RegExp(`subjects=${subject.id}`));
  await page.getByLabel('Minimum rating').selectOption('4');
  const tutors = page.getByRole('region', { name: 'Tutors' });
  await expect(tutors.getByRole('heading', { level: 2 })).toHaveText([tutor.username]);
  await tutors.getByRole('link', { name: tutor.username }).click();
  await expect(page.getByRole('heading', { name: tutor.username, level: 1 })).toBeVisible();

  // The heart saves the tutor.
  const heart = page.getByRole('button', { name: `Save ${tutor.username}` });
  await expect(heart).toHaveAttribute('aria-pressed', 'false');
  await heart.click();
  await expect(heart).toHaveAttribute('aria-pressed', 'true');
  await lookAt(page, 'tutor-page');

  // "Ask {name} for help" opens the form addressed to that tutor, in their subjects only.
  await page.getByRole('link', { name: `Ask ${tutor.username} for help` }).click();
  const dialog = page.getByRole('dialog', { name: `Ask ${tutor.username} for help` });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Subject').selectOption({ label: subject.name });
  await expect(dialog.getByLabel('Subject').locator('option')).toHaveCount(2);
  await dialog.getByLabel('Description').fill('Please help me with convergence tests before Friday');
  await lookAt(page, 'ask-dialog');
  await dialog.getByRole('button', { name: `Send to ${tutor.username}` }).click();
  await expect(page.getByText(`Your request has been sent to ${tutor.username}.`)).toBeVisible();
  await expect(page.getByRole('link', { name: new RegExp(subject.name) })).toContainText(
    `Sent to ${tutor.username} · waiting for an answer`,
  );
  await lookAt(page, 'my-requests');
  const [request] = await db
    .select({ id: tutoringRequests.id })
    .from(tutoringRequests)
    .where(and(eq(tutoringRequests.studentId, student.id), eq(tutoringRequests.subjectId, subject.id)));

  // The other tutor of the subject does not see it; the tutor asked does, and bids.
  const otherPage = (await openBrowserAs(other.id)).page;
  await otherPage.goto('/teacher/jobs');
  await expect(otherPage.getByRole('heading', { name: 'Available Jobs', level: 1 })).toBeVisible();
  await expect(otherPage.getByRole('article', { name: `Tutoring Request: ${subject.name}` })).toHaveCount(0);
  const tutorPage = (await openBrowserAs(tutor.id)).page;
  await tutorPage.goto('/teacher/jobs');
  const job = tutorPage.getByRole('article', { name: `Tutoring Request: ${subject.name}` });
  await expect(job.getByText('Sent to you')).toBeVisible();
  await expect(job.getByRole('button', { name: 'Decline' })).toBeVisible();
  await lookAt(tutorPage, 'jobs');
  await job.getByRole('button', { name: 'Submit Bid' }).click();
  await tutorPage.getByLabel('Bid Amount (USD)').fill('12');
  await tutorPage.getByRole('dialog').getByRole('button', { name: 'Place Bid' }).click();
  await expect(job.getByRole('button', { name: 'Already Bid' })).toBeVisible();

  // The student accepts and pays with the test card, then marks the job completed.
  await acceptOffer(page, request!.id, tutor.username);
  await payAtCheckout(page);
  await expect(page).toHaveURL(/\/chat/);
  await page.goto(`/student/offers/${request!.id}`);
  await page.getByRole('button', { name: 'Mark as completed' }).click();
  const again = page.getByRole('link', { name: `Ask ${tutor.username} again` });
  await expect(again).toBeVisible();
  await lookAt(page, 'completed');

  // The saved tutor is on /tutors/saved; "Ask again" opens the form for them in the same subject.
  await page.goto('/tutors/saved');
  await expect(
    page.getByRole('list', { name: 'Saved tutors' }).getByRole('heading', { name: tutor.username }),
  ).toBeVisible();
  await lookAt(page, 'saved');
  await page.goto(`/student/offers/${request!.id}`);
  await again.click();
  const againDialog = page.getByRole('dialog', { name: `Ask ${tutor.username} for help` });
  await expect(againDialog.getByLabel('Subject')).toHaveValue(subject.id);
});
