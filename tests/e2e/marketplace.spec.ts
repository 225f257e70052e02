import { randomUUID } from 'node:crypto';
import { createRequest, createSubject, createTeacher, createUser } from '../support/factories.ts';
import { answerTutoringSteps, expect, expectLive, expectNoAxeViolations, payAtCheckout, test } from './fixtures.ts';

// Marketplace journeys: requests, jobs, bids, the bell, offers and accepting one.

test('a student asks with the assistant, a teacher bids live, the student accepts and lands in the chat', async ({
  page,
  db,
  openBrowserAs,
  signInAs,
}) => {
  test.slow();
  const subject = await createSubject(db);
  const teacher = await createTeacher(db, { subjectIds: [subject.id] });
  const teacherBrowser = await openBrowserAs(teacher.id);
  const teacherPage = teacherBrowser.page;

  await teacherPage.goto('/teacher/jobs');
  await expect(teacherPage.getByRole('heading', { name: 'Available Jobs in Your Subjects' })).toBeVisible();
  await expect(teacherPage.getByText('No jobs available in your subjects.')).toBeVisible();
  await expectLive(teacherPage);
  await expectNoAxeViolations(teacherPage, 'the empty jobs page');

  // The student posts a tutoring request through the step-by-step assistant.
  await signInAs('student');
  await page.goto('/student/posts');
  await expect(
    page.getByText('Open requests will automatically close after 48 hours if no tutor is assigned.'),
  ).toBeVisible();
  await expectLive(page);
  await page.getByRole('button', { name: 'New Request' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create New Request' });
  const next = dialog.getByRole('button', { name: 'Next' });
  await expect(dialog.getByRole('progressbar')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeVisible();
  await expect(next).toBeDisabled();
  await expectNoAxeViolations(page, 'the request assistant');
  await dialog.getByRole('radio', { name: /Find a Tutor/ }).click();
  await next.click();
  await dialog.getByRole('radio', { name: 'Undergraduate' }).click();
  await next.click();
  await expect(next).toBeDisabled();
  await expectNoAxeViolations(page, "the request assistant's subject step");
  await answerTutoringSteps(dialog, {
    subject: subject.name,
    topic: 'Eigenvalues',
    support: 'Exam preparation',
    schedule: 'Weekday evenings',
  });
  await expectNoAxeViolations(page, "the request assistant's summary");
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(
    page.getByText('Your request has been created and teachers with matching specializations have been notified.'),
  ).toBeVisible();
  await expect(dialog).toBeHidden();
  const card = page.getByRole('link', { name: /Tutoring Request/ });
  await expect(card).toContainText(subject.name);
  await expect(card).toContainText('0 Offers');
  await expect(card).toContainText('$8 - $15');
  await expect(card).toContainText(/Closes in 4[78] hours/);
  await expectNoAxeViolations(page, 'My Requests with a request');

  // The teacher hears about it live, follows the toast, bids out of range, then in range.
  await expect(teacherPage.getByText('New Job Available!')).toBeVisible();
  await teacherPage.getByRole('button', { name: 'View' }).click();
  await expect(teacherPage).toHaveURL(/\/teacher\/jobs\?highlight=/);
  const job = teacherPage.locator('[aria-current="true"]');
  await expect(job).toContainText(subject.name);
  await expect(teacherPage.getByRole('tab', { name: 'All Jobs (1)' })).toBeVisible();
  await expectNoAxeViolations(teacherPage, 'the jobs page with a job');
  await job.getByRole('button', { name: 'Submit Bid' }).click();
  const bid = teacherPage.getByRole('dialog', { name: 'Submit Your Bid' });
  await expect(bid.getByRole('button', { name: 'Place Bid' })).toBeDisabled();
  await bid.getByLabel('Bid Amount (USD)').fill('20');
  await bid.getByRole('button', { name: 'Place Bid' }).click();
  await expect(bid.getByText('Your bid must be between 8 and 15.')).toBeVisible();
  await expectNoAxeViolations(teacherPage, 'the bid dialog with its error');
  // A fraction of a cent is no amount: Place Bid stays disabled.
  await bid.getByLabel('Bid Amount (USD)').fill('12.505');
  await expect(bid.getByText('Please enter a valid bid amount.')).toBeVisible();
  await expect(bid.getByRole('button', { name: 'Place Bid' })).toBeDisabled();
  await bid.getByLabel('Bid Amount (USD)').fill('12.5');
  await bid.getByLabel('Message to Student (optional)').fill('Happy to help with eigenvalues.');
  await bid.getByRole('button', { name: 'Place Bid' }).click();
  await expect(teacherPage.getByText('Bid submitted successfully')).toBeVisible();
  await expect(job.getByRole('button', { name: 'Already Bid' })).toBeDisabled();
  await expectNoAxeViolations(teacherPage, 'the jobs page after a bid');

  // The student's bell counts it, and leads to the offers page.
  const bell = page.getByRole('button', { name: /^Notifications/ });
  await expect(bell.getByTestId('notification-count')).toHaveText('1');
  await bell.click();
  await expect(page.getByRole('dialog', { name: 'Notifications' }).getByRole('button').first()).toBeVisible();
  await expectNoAxeViolations(page, 'the open notifications');
  await page.getByRole('dialog', { name: 'Notifications' }).getByRole('button').filter({ hasText: /./ }).last().click();
  await expect(page).toHaveURL(/\/student\/offers\//);
  await expect(page.getByText('1 tutor notified')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Tutor Offers (1)' })).toBeVisible();
  const offer = page.getByRole('article', { name: `Offer from ${teacher.username}` });
  await expect(offer).toContainText('$12.50');
  await expect(offer).toContainText('Happy to help with eigenvalues.');
  await expect(bell.getByTestId('notification-count')).toBeHidden();
  await expectNoAxeViolations(page, 'the offers page');

  const visited: string[] = [];
  page.on('framenavigated', (frame) => frame === page.mainFrame() && visited.push(frame.url()));
  await offer.getByRole('button', { name: 'Accept Offer' }).click();
  const accept = page.getByRole('dialog', { name: 'Accept this offer?' });
  await expect(accept).toBeVisible();
  await expectNoAxeViolations(page, 'the accept dialog');
  await accept.getByRole('button', { name: 'Accept Offer' }).click();
  await expect(page.getByRole('heading', { name: 'Checkout' })).toBeVisible();
  await expect(page.getByLabel('What you pay for')).toContainText('$12.50');
  await expectNoAxeViolations(page, 'the checkout');
  await payAtCheckout(page);
  await expect(page.getByText('Bid Accepted!')).toBeVisible();
  // The chat opens the room with the tutor (and may then tidy tutorId out of the address).
  await expect.poll(() => visited.some((url) => url.endsWith(`/chat?tutorId=${teacher.id}`))).toBe(true);
  await expect(page.getByText(teacher.username).first()).toBeVisible();
  await expectNoAxeViolations(page, 'the chat after accepting');
});

test('empty states of My Requests and the jobs page', async ({ page, db, signInAs, openBrowserAs }) => {
  await signInAs('student');
  await page.goto('/student/posts');
  await expect(page.getByText('No live requests. Create one to get started!')).toBeVisible();
  await page.getByRole('tab', { name: 'Expired Requests' }).click();
  await expect(page.getByText('No expired requests yet.')).toBeVisible();
  await expectNoAxeViolations(page, 'the empty expired requests');

  const [first, second] = [await createSubject(db), await createSubject(db)];
  const teacher = await createTeacher(db, { subjectIds: [first.id, second.id] });
  const other = await openBrowserAs(teacher.id);
  await other.page.goto('/teacher/jobs');
  await expect(other.page.getByText('No jobs available in your subjects.')).toBeVisible();
  await other.page.getByRole('tab', { name: 'Tutoring (0)' }).click();
  await expect(other.page.getByText('No tutoring requests available.')).toBeVisible();
  // Two subjects: the filter is offered.
  await expect(other.page.getByLabel('Subject')).toContainText('All Subjects');
  await expectNoAxeViolations(other.page, 'the empty tutoring jobs');
});

test('the standard form shows the validation messages, resets budgets by type and posts the cents typed', async ({
  page,
  signInAs,
}) => {
  await signInAs('student');
  await page.goto('/student/posts');
  await page.getByRole('button', { name: 'New Request' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create New Request' });
  await dialog.getByRole('button', { name: 'Use the standard form' }).click();
  await expect(dialog.getByLabel('Minimum Budget ($)')).toHaveValue('8');
  await expect(dialog.getByLabel('Maximum Budget ($)')).toHaveValue('15');
  await dialog.getByRole('button', { name: 'Create Request' }).click();
  await expect(dialog.getByText('Please choose a subject')).toBeVisible();
  await expect(dialog.getByText('Description must be at least 10 characters')).toBeVisible();
  await expectNoAxeViolations(page, 'the standard request form with its errors');

  await dialog.getByLabel('Request Type').selectOption('assignment');
  await expect(dialog.getByLabel('Minimum Budget ($)')).toHaveValue('5');
  await expect(dialog.getByLabel('Maximum Budget ($)')).toHaveValue('100');
  await dialog.getByLabel('Minimum Budget ($)').fill('50');
  await dialog.getByLabel('Maximum Budget ($)').fill('10');
  await dialog.getByRole('button', { name: 'Create Request' }).click();
  await expect(dialog.getByText('Maximum budget must be greater than or equal to minimum budget')).toBeVisible();

  await dialog.getByLabel('Request Type').selectOption('tutoring');
  await dialog.getByLabel('Maximum Budget ($)').fill('40');
  await dialog.getByRole('button', { name: 'Create Request' }).click();
  await expect(dialog.getByText('Budget must be within allowed range for the selected request type')).toBeVisible();

  // Dollars and cents as typed: a third decimal is no budget; two are posted and shown to the cent.
  await dialog.getByLabel('Minimum Budget ($)').fill('8.50');
  await dialog.getByLabel('Maximum Budget ($)').fill('12.255');
  await dialog.getByRole('button', { name: 'Create Request' }).click();
  await expect(dialog.getByText('Please enter a budget')).toBeVisible();
  await dialog.getByLabel('Maximum Budget ($)').fill('12.25');
  await dialog.getByLabel('Subject').selectOption({ index: 1 });
  await dialog.getByLabel('Description').fill('Help with adding fractions, please');
  await dialog.getByRole('button', { name: 'Create Request' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('$8.50 - $12.25')).toBeVisible();
});

test('an unknown or foreign request shows "Request not found"', async ({ page, db, signInAs, allowConsoleError }) => {
  allowConsoleError(/404/);
  const owner = await createUser(db, { role: 'student' });
  const subject = await createSubject(db);
  const foreign = await createRequest(db, { studentId: owner.id, subjectId: subject.id });
  await signInAs('student');
  for (const id of [randomUUID(), foreign.id]) {
    await page.goto(`/student/offers/${id}`);
    await expect(page.getByRole('heading', { name: 'Request not found' })).toBeVisible();
    await expect(page.getByText("The request you're looking for doesn't exist or has been removed.")).toBeVisible();
  }
  await expectNoAxeViolations(page, 'Request not found');
  await page.getByRole('link', { name: 'View My Requests' }).click();
  await expect(page).toHaveURL('/student/posts');
});
