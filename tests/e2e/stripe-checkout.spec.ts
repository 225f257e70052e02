import { eq } from 'drizzle-orm';
import { checkouts, stripeEvents } from '../../src/server/db/schema/payments.ts';
import { createBid, createRequest, createSubject, createTeacher } from '../support/factories.ts';
import { startJourneyServer, type JourneyServer } from '../support/journey-server.ts';
import { startStripeFake, type StripeFake } from '../support/stripe-fake.ts';
import { routeStripe } from '../support/stripe-js-fake.ts';
import {
  acceptOffer,
  connectToServerDatabase,
  expect,
  expectNoAxeViolations,
  test as base,
  type Page,
} from './fixtures.ts';

// Paying through Stripe (PAYMENTS_PROVIDER=stripe): a server of its own whose Stripe API is the HTTP fake, and a
// browser whose Stripe.js, Payment Element frame and bank page are answered by the fakes (docs/decisions/0052).
// Every server path is the real one: the PaymentIntent, "I have paid", and the signed webhook the fake sends.

const test = base.extend<{ stripe: StripeFake }, { stripeSite: { server: JourneyServer; stripe: StripeFake } }>({
  stripeSite: [
    async ({}, use) => {
      const stripe = await startStripeFake({ webhookSecret: 'whsec_journeys' });
      const server = await startJourneyServer({
        PAYMENTS_PROVIDER: 'stripe',
        STRIPE_SECRET_KEY: 'sk_test_journeys',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_journeys',
        STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
        STRIPE_API_BASE: stripe.url,
        TRUST_PROXY: 'loopback',
      });
      stripe.deliverEventsTo(`${server.url}/api/payments/stripe/webhook`);
      await use({ server, stripe });
      await server.stop();
      await stripe.close();
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  baseURL: async ({ stripeSite }, use) => use(stripeSite.server.url),
  db: async ({ stripeSite }, use) => {
    const { pool, db } = connectToServerDatabase(stripeSite.server.dataDir);
    await use(db);
    await pool.end();
  },
  stripe: async ({ stripeSite, page }, use) => {
    await routeStripe(page, stripeSite.stripe);
    await use(stripeSite.stripe);
  },
});

// One server for the file, its journeys one after the other.
test.describe.configure({ mode: 'default' });

/** The Payment Element's frame, once Stripe.js has mounted it. */
async function paymentElement(page: Page) {
  const form = page.getByRole('form', { name: 'Card payment' });
  await expect(form.getByTitle('Secure payment input frame')).toBeVisible();
  return { form, frame: form.frameLocator('iframe[title="Secure payment input frame"]') };
}

async function payWith(page: Page, card: string) {
  const { form, frame } = await paymentElement(page);
  await frame.getByLabel('Card number').fill(card);
  await frame.getByLabel('Expiration date').fill('12 / 40');
  await frame.getByLabel('Security code').fill('123');
  await form.getByRole('button', { name: /^Pay / }).click();
  return form;
}

test('a declined card is said in plain words; a good card pays, the webhook comes too, and the chat opens', async ({
  page,
  db,
  signInAs,
  stripe,
  allowConsoleError,
}) => {
  // The browser logs Stripe's 402 for the declined card as a failed resource.
  allowConsoleError(/status of 402/);
  const subject = await createSubject(db, { name: `Statistics ${Date.now()}` });
  const tutor = await createTeacher(db, { subjectIds: [subject.id] });
  const student = await signInAs('student');
  const request = await createRequest(db, { studentId: student.id, subjectId: subject.id });
  await createBid(db, { requestId: request.id, tutorId: tutor.id, amountCents: 1_800 });

  await acceptOffer(page, request.id, tutor.username);
  await expect(page).toHaveURL(/\/checkout\//);
  await expect(page.getByText(/The offer is held for you for (29|30):/)).toBeVisible();
  await expect(page.getByText('Test mode — no real money moves')).toHaveCount(0);
  await paymentElement(page);
  await expectNoAxeViolations(page, 'the Stripe checkout');

  const form = await payWith(page, '4000 0000 0000 0002');
  await expect(form.getByRole('alert')).toContainText(
    'Your card was declined. Nothing was charged; the offer is still held for you.',
  );
  await expectNoAxeViolations(page, 'a card Stripe declined');

  await payWith(page, '4242 4242 4242 4242');
  await expect(page.getByText('Bid Accepted!')).toBeVisible();
  await expect(page.getByRole('region', { name: `Conversation with ${tutor.username}` })).toBeVisible();

  // The checkout's PaymentIntent, for the server's amount, confirmed twice with the publishable key only.
  const [checkout] = await db.select().from(checkouts).where(eq(checkouts.requestId, request.id));
  const intentId = checkout!.stripePaymentIntentId!;
  expect(stripe.object(intentId)).toMatchObject({ amount: 1_800, status: 'succeeded' });
  const confirms = stripe.requestsTo('POST', `/v1/payment_intents/${intentId}/confirm`);
  expect(confirms.map((confirm) => confirm.form.key)).toEqual(['pk_test_journeys', 'pk_test_journeys']);
  // Stripe's own event arrived and was processed, finding the payment recorded once.
  await expect
    .poll(async () => {
      const [event] = await db.select().from(stripeEvents).where(eq(stripeEvents.objectId, intentId));
      return event?.processedAt ? event.type : null;
    })
    .toBe('payment_intent.succeeded');
});

test('a payment the bank is still processing is said so, and the page moves on once Stripe has it', async ({
  page,
  db,
  signInAs,
  stripe,
  allowConsoleError,
}) => {
  // "I have paid" answers 409 while Stripe is still processing, and the browser logs it as a failed resource.
  allowConsoleError(/status of 409/);
  const subject = await createSubject(db, { name: `Geology ${Date.now()}` });
  const tutor = await createTeacher(db, { subjectIds: [subject.id] });
  const student = await signInAs('student');
  const request = await createRequest(db, { studentId: student.id, subjectId: subject.id });
  await createBid(db, { requestId: request.id, tutorId: tutor.id, amountCents: 1_200 });

  await acceptOffer(page, request.id, tutor.username);
  stripe.processNext();
  await payWith(page, '4242 4242 4242 4242');
  await expect(page.getByRole('status').filter({ hasText: 'Confirming your payment' })).toContainText(
    'Your bank is still confirming the payment.',
  );
  await expectNoAxeViolations(page, 'a payment still processing');

  const [checkout] = await db.select().from(checkouts).where(eq(checkouts.requestId, request.id));
  stripe.succeed(checkout!.stripePaymentIntentId!);
  await expect(page.getByText('Bid Accepted!')).toBeVisible();
  await expect(page.getByRole('region', { name: `Conversation with ${tutor.username}` })).toBeVisible();
});

test("a card asking for 3-D Secure leaves for the bank's page and comes back to the checkout, failed and then paid", async ({
  page,
  db,
  signInAs,
  stripe,
}) => {
  const subject = await createSubject(db, { name: `Chemistry ${Date.now()}` });
  const tutor = await createTeacher(db, { subjectIds: [subject.id] });
  const student = await signInAs('student');
  const request = await createRequest(db, { studentId: student.id, subjectId: subject.id, type: 'assignment' });
  await createBid(db, { requestId: request.id, tutorId: tutor.id, amountCents: 2_400 });

  await acceptOffer(page, request.id, tutor.username);
  // An assignment without a deadline gets it before the payment starts.
  const deadlineForm = page.getByRole('form', { name: 'Set the deadline' });
  await deadlineForm.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(deadlineForm.getByLabel('Assignment deadline')).toHaveAccessibleDescription(
    /Set the assignment’s deadline before you pay/,
  );
  await deadlineForm.getByLabel('Assignment deadline').fill('2040-06-01T17:00');
  await deadlineForm.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(page.getByLabel('What you pay for')).toContainText(`The ${subject.name} assignment, due`);

  await payWith(page, '4000 0027 6000 3184');
  await expect(page.getByRole('heading', { name: '3D Secure 2 test page' })).toBeVisible();
  await page.getByRole('button', { name: 'Fail authentication' }).click();
  await expect(page).toHaveURL(/\/checkout\/[^?]+$/);
  await expect(page.getByRole('alert').filter({ hasText: 'Payment not made' })).toContainText(
    'Your bank did not confirm the payment. Nothing was charged',
  );
  await expectNoAxeViolations(page, "a checkout the bank's 3-D Secure refused");

  await payWith(page, '4000 0027 6000 3184');
  await page.getByRole('button', { name: 'Complete authentication' }).click();
  await expect(page.getByText('Bid Accepted!')).toBeVisible();
  await expect(page.getByRole('region', { name: `Conversation with ${tutor.username}` })).toBeVisible();
  // The client secret Stripe put in the return address is not left in the history.
  expect(page.url()).not.toContain('client_secret');
  const [checkout] = await db.select().from(checkouts).where(eq(checkouts.requestId, request.id));
  expect(stripe.object(checkout!.stripePaymentIntentId!)?.status).toBe('succeeded');
});
