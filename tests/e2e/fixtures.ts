import axe from 'axe-core';
import {
  test as base,
  expect,
  type APIRequestContext,
  type BrowserContext,
  type Locator,
  type Page,
} from '@playwright/test';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Role } from '#shared/constants.ts';
import type { Database, Executor } from '../../src/server/db/client.ts';
import * as schema from '../../src/server/db/schema/index.ts';
import { TEST_CARD } from '../support/checkout.ts';
import {
  createBid,
  createRequest,
  createSessionCookie,
  createSubject,
  createTeacher,
  createUser,
} from '../support/factories.ts';

/** A server's embedded database (the suite's unless named), reached through its unix socket in the data directory. */
export function connectToServerDatabase(dataDir = process.env.E2E_DATA_DIR) {
  const pool = new pg.Pool({
    host: dataDir,
    port: 5432,
    user: 'postgres',
    database: 'postgres',
    max: 2,
  });
  return { pool, db: drizzle(pool, { schema, casing: 'snake_case' }) };
}

/** Every console error and uncaught exception the page reports, collected as text. */
function collectConsoleErrors(page: Page) {
  const errors: string[] = [];
  page.on('console', (message) => {
    // A failed resource's message does not name it: its address is added, for the report.
    if (message.type() === 'error') errors.push(`${message.text()} ${message.location().url}`.trim());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/**
 * Whether the browser tells assistive technology that the named button's popup is open: its accessibility tree's
 * expanded state, which a popover's button gets from the popover itself (no aria-expanded attribute involved).
 */
export async function expandedStateOf(page: Page, buttonName: string) {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    const button = nodes.find((node) => node.role?.value === 'button' && node.name?.value === buttonName);
    if (!button) throw new Error(`No button named ${buttonName} in the accessibility tree`);
    return button.properties?.find((property) => property.name === 'expanded')?.value.value as boolean | undefined;
  } finally {
    await cdp.detach();
  }
}

/** Signs a browser context in as this user: a session of their own, its cookie as the server sets it. */
async function signInContext(context: BrowserContext, db: Executor, userId: string, baseURL: string) {
  const cookie = await createSessionCookie(db, userId);
  await context.addCookies([{ name: cookie.name, value: cookie.value, url: baseURL, httpOnly: true, sameSite: 'Lax' }]);
}

/** Waits until the page's socket is connected, so live events cannot be missed. */
export async function expectLive(page: Page) {
  // The socket opens in a task of its own after the first render: slower than a locator on a busy machine.
  await expect(page.locator('html')).toHaveAttribute('data-realtime', 'connected', { timeout: 20_000 });
}

/** WCAG 2.2 A and AA, as axe-core tags them (a rule carries the tag of the version that introduced it). */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * Fails the test (at its end, so one run names every screen) when axe-core finds a WCAG 2.2 A/AA violation on the
 * page as it stands. Called once a screen has settled: its finite animations and transitions (a toast's or a dialog's
 * entrance) run to their end first, since axe judges the colours it sees and a fading element is half transparent.
 */
export async function expectNoAxeViolations(page: Page, screen: string) {
  // axe-core itself, put in the page and each of its frames once until they navigate: a fifth of the time
  // @axe-core/playwright's builder takes (it injects and runs axe again in a second page for every check). The page's
  // axe asks each frame's axe for the frame's part (a card form from another origin, say).
  for (const frame of page.frames()) {
    if (!(await frame.evaluate(() => 'axe' in window))) await frame.evaluate(axe.source);
  }
  const violations = await page.evaluate(async (tags) => {
    // An element just put in the page (a toast) starts its transition a frame or two later: wait for frames until
    // no finite animation or transition runs (a few rounds at most, for a page that keeps starting new ones).
    for (let round = 0; round < 5; round++) {
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      const running = document
        .getAnimations()
        .filter(
          (animation) =>
            animation.playState === 'running' && animation.effect?.getComputedTiming().iterations !== Infinity,
        );
      if (running.length === 0) break;
      await Promise.all(running.map((animation) => animation.finished.catch(() => undefined)));
    }
    const { axe: inPage } = window as unknown as { axe: typeof axe };
    const results = await inPage.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return results.violations.map(
      (violation) =>
        `${violation.id} (${violation.help}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
  }, WCAG_TAGS);
  expect.soft(violations, `accessibility violations on ${screen}`).toEqual([]);
}

type Fixtures = {
  db: Database;
  /** Requests as a person at the server's own machine (no forwarding header), the only ones /dev/mailbox answers. */
  devMailbox: APIRequestContext;
  /** Creates a user of that role and signs the page's browser context in as them. */
  signInAs: (role: Role) => Promise<Awaited<ReturnType<typeof createUser>>>;
  /** Signs the page's browser context in as an existing user, as a finished sign-in leaves it. */
  signInAsUser: (userId: string) => Promise<void>;
  /**
   * Lets this test expect one kind of console error: the browser logs every 4xx answer as
   * "Failed to load resource", so a journey that provokes one on purpose names it here.
   */
  allowConsoleError: (pattern: RegExp) => void;
  /**
   * The other party of a journey: a browser context of its own signed in as `userId`. It is closed after the test,
   * which fails on its console errors as on the main page's.
   */
  openBrowserAs: (userId: string, options?: { permissions?: string[]; timezoneId?: string }) => Promise<{ page: Page }>;
};

type InternalFixtures = { failOnConsoleErrors: void; allowedConsoleErrors: RegExp[] };

export const test = base.extend<Fixtures & InternalFixtures>({
  // Each test is a client of its own behind the server's (loopback) proxy, as real users are: per-address limits
  // such as 5 sign-ins a minute apply to one test, not to the whole suite sharing 127.0.0.1.
  extraHTTPHeaders: async ({ extraHTTPHeaders }, use, testInfo) => {
    const n = [...testInfo.testId].reduce((hash, char) => (hash * 31 + char.charCodeAt(0)) >>> 0, 7) & 0xffffff;
    await use({ ...extraHTTPHeaders, 'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` });
  },
  // A route's handler still at work when its test ends (a request it fetched, still on its way) would otherwise fail
  // the run as an error outside any test, and stop the worker's next test.
  page: async ({ page }, use) => {
    await use(page);
    if (!page.isClosed()) await page.unrouteAll({ behavior: 'ignoreErrors' });
  },
  db: async ({}, use) => {
    const { pool, db } = connectToServerDatabase();
    await use(db);
    await pool.end();
  },
  devMailbox: async ({ playwright, baseURL }, use) => {
    // The runner gives every new context the test's options: an empty set of headers drops its forwarding header.
    const local = await playwright.request.newContext({ baseURL: baseURL!, extraHTTPHeaders: {} });
    await use(local);
    await local.dispose();
  },
  signInAs: async ({ db, context, baseURL }, use) => {
    await use(async (role) => {
      const user = await createUser(db, { role });
      await signInContext(context, db, user.id, baseURL!);
      return user;
    });
  },
  signInAsUser: async ({ db, context, baseURL }, use) => {
    await use((userId) => signInContext(context, db, userId, baseURL!));
  },
  allowedConsoleErrors: async ({}, use) => {
    await use([]);
  },
  allowConsoleError: async ({ allowedConsoleErrors }, use) => {
    await use((pattern) => {
      allowedConsoleErrors.push(pattern);
    });
  },
  openBrowserAs: async ({ browser, baseURL, db, allowedConsoleErrors }, use) => {
    const opened: Array<{ context: BrowserContext; errors: string[] }> = [];
    await use(async (userId, { permissions = [], timezoneId } = {}) => {
      const context = await browser.newContext({
        baseURL: baseURL!,
        viewport: { width: 1280, height: 800 },
        ...(timezoneId ? { timezoneId } : {}),
      });
      await context.grantPermissions(permissions);
      await signInContext(context, db, userId, baseURL!);
      const page = await context.newPage();
      opened.push({ context, errors: collectConsoleErrors(page) });
      return { page };
    });
    for (const { context, errors } of opened) {
      await context.close();
      const unexpected = errors.filter((error) => !allowedConsoleErrors.some((pattern) => pattern.test(error)));
      expect(unexpected, 'console errors in the second browser').toEqual([]);
    }
  },
  // Any console error or uncaught exception in the page fails the test (unless the test allowed it).
  failOnConsoleErrors: [
    async ({ page, allowedConsoleErrors }, use) => {
      const errors = collectConsoleErrors(page);
      await use();
      const unexpected = errors.filter((error) => !allowedConsoleErrors.some((pattern) => pattern.test(error)));
      expect(unexpected, 'console errors in the page').toEqual([]);
    },
    { auto: true },
  ],
});

/**
 * Answers the request assistant (`assistant`, the dialog Create New Request, at its subject step) for a tutoring
 * request up to its summary.
 */
export async function answerTutoringSteps(
  assistant: Locator,
  answers: { subject: string; topic: string; support: 'Exam preparation' | 'General support'; schedule: string },
) {
  const next = assistant.getByRole('button', { name: 'Next' });
  await assistant.getByLabel('Subject').selectOption({ label: answers.subject });
  await next.click();
  await assistant.getByLabel('Topic').fill(answers.topic);
  await next.click();
  await assistant.getByRole('radio', { name: answers.support }).click();
  await next.click();
  await assistant.getByLabel('Preferred schedule').fill(answers.schedule);
  await next.click();
}

/** The student accepts the tutor's offer on the request's offers page, which opens its checkout. */
export async function acceptOffer(page: Page, requestId: string, tutorName: string) {
  await page.goto(`/student/offers/${requestId}`);
  await page
    .getByRole('article', { name: `Offer from ${tutorName}` })
    .getByRole('button', { name: 'Accept Offer' })
    .click();
  await page.getByRole('dialog', { name: 'Accept this offer?' }).getByRole('button', { name: 'Accept Offer' }).click();
}

/**
 * The set-up of a journey that pays for an offer: a new tutor of a new subject (`subjectName` and a unique number)
 * offers `amountCents` on a request (of `type`) of a new student, as whom the page is signed in; the student accepts
 * the offer, which opens its checkout.
 */
export async function acceptNewOffer(
  { page, db, signInAs }: { page: Page; db: Executor; signInAs: Fixtures['signInAs'] },
  {
    subjectName,
    type = 'tutoring',
    amountCents = 1_200,
  }: { subjectName: string; type?: 'tutoring' | 'assignment'; amountCents?: number },
) {
  const subject = await createSubject(db, { name: `${subjectName} ${Date.now()}` });
  const tutor = await createTeacher(db, { subjectIds: [subject.id] });
  const student = await signInAs('student');
  const request = await createRequest(db, { studentId: student.id, subjectId: subject.id, type });
  await createBid(db, { requestId: request.id, tutorId: tutor.id, amountCents });
  await acceptOffer(page, request.id, tutor.username);
  return { subject, tutor, student, request };
}

/**
 * Pays the checkout an accept opened, as a student types the card (the test card unless given); with `keyboard`, by
 * keyboard alone. Answers the form, for a journey that checks what it shows.
 */
export async function payAtCheckout(page: Page, { card = TEST_CARD, keyboard = false } = {}) {
  await expect(page).toHaveURL(/\/checkout\//);
  await expect(page.getByText('Test mode — no real money moves')).toBeVisible();
  const form = page.getByRole('form', { name: 'Card payment' });
  const typed = [
    ['Card number', card.number],
    ['Expiry date', card.expiry],
    ['Security code (CVC)', card.cvc],
    ['Name on card', card.name],
  ] as const;
  for (const [index, [label, value]] of typed.entries()) {
    const field = form.getByLabel(label);
    if (!keyboard) {
      await field.fill(value);
      continue;
    }
    // Tab reaches the card number from wherever focus is, and each next field with one press.
    const presses = index === 0 ? 40 : 1;
    for (
      let pressed = 0;
      pressed < presses && !(await field.evaluate((el) => el === document.activeElement));
      pressed++
    ) {
      await page.keyboard.press('Tab');
    }
    await expect(field).toBeFocused();
    await page.keyboard.type(value);
  }
  // Enter in the last field submits the form, as the Pay button does.
  if (keyboard) await page.keyboard.press('Enter');
  else await form.getByRole('button', { name: /^Pay / }).click();
  return form;
}

export { expect, type Page };
