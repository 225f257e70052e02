import { createBid, createRequest, createSubject, createTeacher } from '../support/factories.ts';
import { expect, expectNoAxeViolations, payAtCheckout, test } from './fixtures.ts';

// Earnings: the tutor's side of a paid job, from pending money to a payout.

test('the tutor sees pending earnings once the student pays, available ones once the job is completed, and pays them out', async ({
  page,
  db,
  signInAs,
  openBrowserAs,
}) => {
  test.slow();
  const subject = await createSubject(db, { name: `Algebra ${Date.now()}` });
  const tutor = await createTeacher(db, { subjectIds: [subject.id] });
  const student = await signInAs('student');
  const request = await createRequest(db, { studentId: student.id, subjectId: subject.id });
  await createBid(db, { requestId: request.id, tutorId: tutor.id, amountCents: 2_000 });

  // Before any payment the tutor's page says there is nothing yet.
  const tutorPage = (await openBrowserAs(tutor.id)).page;
  await tutorPage.goto('/earnings');
  await expect(tutorPage.getByRole('heading', { name: 'No paid jobs yet' })).toBeVisible();
  await expectNoAxeViolations(tutorPage, 'empty earnings');

  // The student pays $20 at accept.
  await page.goto(`/student/offers/${request.id}`);
  await page
    .getByRole('article', { name: `Offer from ${tutor.username}` })
    .getByRole('button', { name: 'Accept Offer' })
    .click();
  await page.getByRole('dialog').getByRole('button', { name: 'Accept Offer' }).click();
  await payAtCheckout(page);
  await expect(page.getByRole('region', { name: `Conversation with ${tutor.username}` })).toBeVisible();

  // The tutor's share, less 15 %, is pending.
  await tutorPage.reload();
  const totals = tutorPage.getByRole('definition');
  await expect(totals.nth(0)).toHaveText('$17');
  await expect(totals.nth(1)).toHaveText('$0');
  const job = tutorPage.getByRole('listitem').filter({ hasText: subject.name });
  await expect(job).toContainText('Pending');
  await expect(job).toContainText('Commission:$3');
  await expect(tutorPage.getByRole('button', { name: 'Request payout' })).toHaveCount(0);

  // The student marks the job completed on the offers page; the money becomes available.
  await page.goto(`/student/offers/${request.id}`);
  await page
    .getByRole('article', { name: `Offer from ${tutor.username}` })
    .getByRole('button', { name: 'Mark as completed' })
    .click();
  await expect(page.getByText('Job marked as completed')).toBeVisible();
  await tutorPage.reload();
  await expect(totals.nth(0)).toHaveText('$0');
  await expect(totals.nth(1)).toHaveText('$17');
  await expect(job).toContainText('Available');

  // A first payout needs the tutor to confirm being an adult.
  const confirm = tutorPage.getByRole('button', { name: 'Confirm' });
  await expect(confirm).toBeDisabled();
  await tutorPage.getByLabel('I confirm that I am 18 or older').check();
  await expectNoAxeViolations(tutorPage, 'earnings before the adult confirmation');
  await confirm.click();
  await expect(tutorPage.getByText('Thank you. You can now request payouts.')).toBeVisible();
  await tutorPage.getByRole('button', { name: 'Request payout' }).click();
  await expect(tutorPage.getByText('$17 was paid out to you')).toBeVisible();
  await expect(totals.nth(1)).toHaveText('$0');
  await expect(totals.nth(2)).toHaveText('$17');
  await expect(tutorPage.getByRole('region', { name: 'Payouts' }).getByRole('listitem')).toContainText('Paid');
  await expect(tutorPage.getByRole('button', { name: 'Request payout' })).toBeDisabled();
  await expectNoAxeViolations(tutorPage, 'earnings after a payout');
});
