import { DECLINED_CARD } from '../support/checkout.ts';
import { createBid, createRequest, createSubject, createTeacher } from '../support/factories.ts';
import { expect, expectNoAxeViolations, payAtCheckout, test } from './fixtures.ts';

test('a declined card keeps the offer open; the test card then pays it and opens the chat', async ({
  page,
  db,
  signInAs,
  allowConsoleError,
}) => {
  // The browser logs the 402 of the declined card as a failed resource.
  allowConsoleError(/status of 402/);
  const subject = await createSubject(db, { name: `Geometry ${Date.now()}` });
  const tutor = await createTeacher(db, { subjectIds: [subject.id] });
  const student = await signInAs('student');
  const request = await createRequest(db, { studentId: student.id, subjectId: subject.id });
  await createBid(db, { requestId: request.id, tutorId: tutor.id, amountCents: 1500 });

  await page.goto(`/student/offers/${request.id}`);
  await page
    .getByRole('article', { name: `Offer from ${tutor.username}` })
    .getByRole('button', { name: 'Accept Offer' })
    .click();
  await page.getByRole('dialog', { name: 'Accept this offer?' }).getByRole('button', { name: 'Accept Offer' }).click();
  await expect(page.getByLabel('What you pay for')).toContainText(`One ${subject.name} session of up to an hour`);
  await expect(page.getByText(/The offer is held for you for (29|30):/)).toBeVisible();

  const form = await payAtCheckout(page, { card: DECLINED_CARD });
  await expect(form.getByRole('alert')).toContainText('Your card was declined. Nothing was charged');
  await expect(form.getByLabel('Card number')).toBeFocused();
  await expectNoAxeViolations(page, 'a declined card');

  await form.getByLabel('Card number').fill('4242 4242 4242 4242');
  await form.getByRole('button', { name: 'Pay $15' }).click();
  await expect(page.getByText('Bid Accepted!')).toBeVisible();
  await expect(page.getByRole('region', { name: `Conversation with ${tutor.username}` })).toBeVisible();
});

test('a student cancels a checkout and the offer is open again', async ({ page, db, signInAs }) => {
  const subject = await createSubject(db, { name: `Calculus ${Date.now()}` });
  const tutor = await createTeacher(db, { subjectIds: [subject.id] });
  const student = await signInAs('student');
  const request = await createRequest(db, { studentId: student.id, subjectId: subject.id, type: 'assignment' });
  await createBid(db, { requestId: request.id, tutorId: tutor.id });

  await page.goto(`/student/offers/${request.id}`);
  await page
    .getByRole('article', { name: `Offer from ${tutor.username}` })
    .getByRole('button', { name: 'Accept Offer' })
    .click();
  await page.getByRole('dialog', { name: 'Accept this offer?' }).getByRole('button', { name: 'Accept Offer' }).click();
  // An assignment without a deadline asks for one on the checkout.
  await expect(page.getByLabel('Assignment deadline')).toBeVisible();
  await page.getByRole('button', { name: 'Cancel checkout' }).click();
  await expect(page.getByText('Checkout cancelled')).toBeVisible();
  await expectNoAxeViolations(page, 'a cancelled checkout');
  await page.getByRole('link', { name: 'Back to the offers' }).click();
  await expect(
    page.getByRole('article', { name: `Offer from ${tutor.username}` }).getByRole('button', { name: 'Accept Offer' }),
  ).toBeEnabled();
});
