import { createBid, createRequest, createSubject, createTeacher, createUser } from '../support/factories.ts';
import { expect, expectNoAxeViolations, payAtCheckout, test } from './fixtures.ts';

// Trust: finished jobs, ratings and reviews, and the tutor's public page.

test('a student completes a job and rates it, the tutor replies, the next student sees the rating and the review', async ({
  page,
  db,
  signInAs,
  openBrowserAs,
}) => {
  test.slow();
  const subject = await createSubject(db, { name: `Statistics ${Date.now()}` });
  const tutor = await createTeacher(db, { subjectIds: [subject.id] });
  const student = await signInAs('student');
  const request = await createRequest(db, { studentId: student.id, subjectId: subject.id });
  await createBid(db, { requestId: request.id, tutorId: tutor.id, message: 'Glad to help.' });

  // The student accepts the offer and lands in the chat with the tutor.
  await page.goto(`/student/offers/${request.id}`);
  const offer = page.getByRole('article', { name: `Offer from ${tutor.username}` });
  await expect(offer.getByRole('link', { name: /No reviews yet.*0 jobs completed/ })).toBeVisible();
  await expectNoAxeViolations(page, 'an offer from a new tutor');
  await offer.getByRole('button', { name: 'Accept Offer' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Accept Offer' }).click();
  await payAtCheckout(page);
  await expect(page.getByRole('region', { name: `Conversation with ${tutor.username}` })).toBeVisible();

  // The tutor marks the job delivered in the chat: a job completed within the hour counts only then.
  const tutorBrowser = await openBrowserAs(tutor.id);
  const tutorPage = tutorBrowser.page;
  await tutorPage.goto(`/chat?tutorId=${student.id}`);
  await tutorPage.getByRole('button', { name: 'Mark as delivered' }).click();
  await expect(tutorPage.getByText(`${student.username} was asked to mark the job as completed`)).toBeVisible();
  await expect(tutorPage.getByText(`Your ${subject.name} job is marked as delivered.`)).toBeVisible();

  // Back on the offers page, marks it completed with the keyboard (the chat's own button is the accessibility
  // journey's): the link to rate it replaces the button and takes its focus, and leads to the rating form.
  await page.goto(`/student/offers/${request.id}`);
  await offer.getByRole('button', { name: 'Mark as completed' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Job marked as completed')).toBeVisible();
  await expect(offer.getByRole('link', { name: 'Rate in chat' })).toBeFocused();
  await page.keyboard.press('Enter');

  // Rates it 5 stars with the keyboard and a review.
  const rating = page.getByRole('radiogroup', { name: 'Your rating' });
  await rating.getByRole('radio', { name: '1 star' }).focus();
  await page.keyboard.press('Space');
  await expect(rating.getByRole('radio', { name: '1 star' })).toBeChecked();
  // Arrows move between the stars (a key held as briefly as a test's selects only where it lands with Space).
  for (const stars of [2, 3, 4, 5]) {
    await page.keyboard.press('ArrowRight');
    await expect(rating.getByRole('radio', { name: `${stars} stars` })).toBeFocused();
  }
  await page.keyboard.press('Space');
  await expect(rating.getByRole('radio', { name: '5 stars' })).toBeChecked();
  await expectNoAxeViolations(page, 'the rating form');
  await page.getByLabel('Your review (optional)').fill('Explained p-values until they finally made sense.');
  await page.getByRole('button', { name: 'Submit review' }).click();
  await expect(page.getByText('Thank you for your review!')).toBeVisible();

  // The tutor reads it on their page and replies once.
  await tutorPage.goto(`/tutors/${tutor.id}`);
  const review = tutorPage.getByRole('listitem', { name: `Review by ${student.username}` });
  await expect(review).toContainText('Explained p-values until they finally made sense.');
  await review.getByRole('button', { name: 'Reply' }).click();
  await expectNoAxeViolations(tutorPage, "the tutor's page with the reply form");
  await review.getByLabel('Your public reply').fill('Thank you, it was a pleasure!');
  await review.getByRole('button', { name: 'Post reply' }).click();
  await expect(review.getByText('Thank you, it was a pleasure!')).toBeVisible();
  await expect(review.getByRole('button', { name: 'Reply' })).toBeHidden();

  // A second student sees the rating on the tutor's next offer and opens the profile with the review.
  const next = await createUser(db, { role: 'student' });
  const nextRequest = await createRequest(db, { studentId: next.id, subjectId: subject.id });
  await createBid(db, { requestId: nextRequest.id, tutorId: tutor.id, amountCents: 1000 });
  const nextPage = (await openBrowserAs(next.id)).page;
  await nextPage.goto(`/student/offers/${nextRequest.id}`);
  const trust = nextPage
    .getByRole('article', { name: `Offer from ${tutor.username}` })
    .getByRole('link', { name: /5\.0.*\(1 review\).*1 job completed/ });
  await expect(trust).toBeVisible();
  await trust.click();
  await expect(nextPage.getByRole('heading', { level: 1, name: tutor.username })).toBeVisible();
  await expect(nextPage.getByRole('img', { name: 'Rated 5 out of 5' }).first()).toBeVisible();
  await expect(nextPage.getByText('Explained p-values until they finally made sense.')).toBeVisible();
  await expect(nextPage.getByText('Thank you, it was a pleasure!')).toBeVisible();
  await expectNoAxeViolations(nextPage, "a rated tutor's page");
});
