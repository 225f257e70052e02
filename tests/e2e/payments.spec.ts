import { randomUUID } from 'node:crypto';
import { DECLINED_CARD } from '../support/checkout.ts';
import { acceptNewOffer, expect, expectNoAxeViolations, payAtCheckout, test } from './fixtures.ts';

test('a declined card keeps the offer open; the test card then pays it and opens the chat', async ({
  page,
  db,
  signInAs,
  allowConsoleError,
}) => {
  // The browser logs the 402 of the declined card as a failed resource.
  allowConsoleError(/status of 402/);
  const { subject, tutor } = await acceptNewOffer(
    { page, db, signInAs },
    { subjectName: 'Geometry', amountCents: 1500 },
  );
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
  const { tutor } = await acceptNewOffer({ page, db, signInAs }, { subjectName: 'Calculus', type: 'assignment' });
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

test('a student pays, finds the payment held on Payments, and prints its receipt naming the operator; the job bar shows the payment to both', async ({
  page,
  db,
  signInAs,
  openBrowserAs,
  allowConsoleError,
}) => {
  const { subject, tutor, student } = await acceptNewOffer(
    { page, db, signInAs },
    { subjectName: 'Algebra', amountCents: 2_250 },
  );
  await payAtCheckout(page);
  // The chat's job bar says where the money is, to the student and to the tutor.
  const jobBar = page.getByText(`Your ${subject.name} job is in progress.`);
  await expect(jobBar.getByText('Payment held')).toBeVisible();
  await expectNoAxeViolations(page, 'the job bar with the payment held');
  const tutorPage = (await openBrowserAs(tutor.id)).page;
  await tutorPage.goto(`/chat?tutorId=${student.id}`);
  await expect(tutorPage.getByText(`Your ${subject.name} job is in progress.`).getByText('Payment held')).toBeVisible();

  await page.getByRole('button', { name: /^User menu for / }).click();
  await page.getByRole('menuitem', { name: 'Payments' }).click();
  await expect(page.getByRole('heading', { name: 'Payments', level: 1 })).toBeVisible();
  const payment = page.getByRole('list', { name: 'Your payments' }).getByRole('listitem').first();
  await expect(payment).toContainText(`${subject.name} tutoring`);
  await expect(payment).toContainText(`with ${tutor.username}`);
  await expect(payment).toContainText('$22.50');
  await expect(payment.getByText('Payment held')).toBeVisible();
  await expectNoAxeViolations(page, 'the Payments page');

  await payment.getByRole('link', { name: `Receipt for ${subject.name} tutoring` }).click();
  const receipt = page.getByRole('article', { name: 'Receipt' });
  await expect(receipt.locator('address')).toContainText('Virtual Help Test Ltd');
  await expect(receipt.locator('address')).toContainText('Seestrasse 1, 6000 Lucerne, Switzerland');
  await expect(receipt.locator('address')).toContainText('VAT number CHE-123.456.789 MWST');
  await expect(receipt.getByRole('row', { name: new RegExp(`${subject.name} tutoring`) })).toContainText('$22.50');
  await expect(receipt.getByRole('row', { name: /Total paid/ })).toContainText('$22.50');
  await expect(receipt).toContainText('Test card ending in 4242');
  await expect(receipt).toContainText(student.email);
  await expectNoAxeViolations(page, 'a receipt');

  // Printing leaves the app's top bar, footer and buttons off the paper.
  await page.evaluate(() => {
    window.print = () => document.body.setAttribute('data-printed', 'yes');
  });
  await page.getByRole('button', { name: 'Print' }).click();
  await expect(page.locator('body')).toHaveAttribute('data-printed', 'yes');
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('banner')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Print' })).toBeHidden();
  await expect(receipt).toBeVisible();
  await page.emulateMedia({ media: 'screen' });

  // Someone else's payment, or none: the receipt cannot be shown.
  allowConsoleError(/status of 404/);
  await page.goto(`/payments/${randomUUID()}/receipt`);
  await expect(page.getByText('This receipt cannot be shown')).toBeVisible();
  await expect(page.getByText('Payment not found')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Receipt', level: 1 })).toBeAttached();
  await expectNoAxeViolations(page, 'a receipt that cannot be shown');
});
