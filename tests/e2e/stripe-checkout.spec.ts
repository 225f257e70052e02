import { eq } from 'drizzle-orm';
import { users } from '../../src/server/db/schema/auth.ts';
import { checkouts, stripeEvents } from '../../src/server/db/schema/payments.ts';
import { stripeConnectedAccounts, stripeTransfers } from '../../src/server/db/schema/stripe-connect.ts';
import { startJourneyServer, type JourneyServer } from '../support/journey-server.ts';
import { startStripeFake, type StripeFake } from '../support/stripe-fake.ts';
import { routeStripe } from '../support/stripe-js-fake.ts';
import {
  acceptNewOffer,
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
// Recording a trace stalls the scripts of the Payment Element's frame, which is from another origin and so runs in a
// process of its own: with Chromium 156 its card form then never says it is ready. These journeys run unrecorded.
test.use({ trace: 'off' });

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
  const { tutor, request } = await acceptNewOffer(
    { page, db, signInAs },
    { subjectName: 'Statistics', amountCents: 1_800 },
  );
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
}) => {
  const { tutor, request } = await acceptNewOffer(
    { page, db, signInAs },
    { subjectName: 'Geology', amountCents: 1_200 },
  );
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
  const { subject, tutor, request } = await acceptNewOffer(
    { page, db, signInAs },
    { subjectName: 'Chemistry', type: 'assignment', amountCents: 2_400 },
  );
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

test("a tutor's share waits for payout set-up, onboarding returns to Earnings, and Stripe's word sends it", async ({
  page,
  db,
  signInAs,
  signInAsUser,
  stripe,
  baseURL,
}) => {
  const { tutor, request } = await acceptNewOffer(
    { page, db, signInAs },
    { subjectName: 'Ecology', amountCents: 2_000 },
  );
  await payWith(page, '4242 4242 4242 4242');
  await expect(page.getByText('Bid Accepted!')).toBeVisible();
  const completed = await page.request.post(`/api/requests/${request.id}/complete`, { headers: { origin: baseURL! } });
  expect(completed.status()).toBe(200);

  await db.update(users).set({ adultConfirmedAt: new Date() }).where(eq(users.id, tutor.id));
  await signInAsUser(tutor.id);
  await page.goto('/earnings');
  await expect(page.getByText(/available — finish payout set-up to be paid/)).toBeVisible();
  await expect(page.getByText('Waiting for payout set-up')).toBeVisible();
  await expectNoAxeViolations(page, 'Earnings before payout set-up');

  // Stripe's hosted onboarding is not run here: its address sends the tutor straight back, as finishing it does.
  await page.route('https://connect.stripe.fake/**', async (route) => {
    const link = stripe.requestsTo('POST', '/v1/account_links').at(-1)!;
    await route.fulfill({ status: 302, headers: { location: link.form.return_url! } });
  });
  await page.getByRole('button', { name: 'Set up payouts' }).click();
  await expect(page.getByText('Stripe still needs some details from you before it can pay you.').first()).toBeVisible();
  await expect(page).toHaveURL(/\/earnings$/);

  // Stripe enables the payouts and says so with account.updated: the share is transferred.
  const [account] = await db
    .select()
    .from(stripeConnectedAccounts)
    .where(eq(stripeConnectedAccounts.tutorId, tutor.id));
  stripe.updateAccount(account!.accountId!, { payouts_enabled: true });
  const event = stripe.signedEvent({ type: 'account.updated', object: { id: account!.accountId!, object: 'account' } });
  const delivered = await page.request.post('/api/payments/stripe/webhook', {
    headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
    data: event.body,
  });
  expect(delivered.status()).toBe(200);
  await expect
    .poll(
      async () => (await db.select().from(stripeTransfers).where(eq(stripeTransfers.requestId, request.id)))[0]?.status,
    )
    .toBe('transferred');
  await page.reload();
  await expect(page.getByText(/Payouts are set up/)).toBeVisible();
  await expect(page.getByText('Sent to Stripe')).toBeVisible();
  await expectNoAxeViolations(page, 'Earnings with payouts set up');
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: test.info().outputPath('earnings-stripe-375.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: test.info().outputPath('earnings-stripe-1280.png'), fullPage: true });
});
