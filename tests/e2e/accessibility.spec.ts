import { randomUUID } from 'node:crypto';
import {
  createBid,
  createRequest,
  createSubject,
  createTeacher,
  createUser,
  enrolledSuperAdminId,
} from '../support/factories.ts';
import { fromNow, HOUR_MS } from '../support/time.ts';
import { expect, expectLive, expectNoAxeViolations, payAtCheckout, test, type Page } from './fixtures.ts';
import type { Locator } from '@playwright/test';

// What the journeys do not show: the core screens in the dark theme and on a phone, and the core flow by keyboard
// alone. Every journey checks its own screens in the light theme at 1280 px (decision 0037).

/** The screen as it stands, in dark at 1280 px, then at 375 px in light and in dark. */
async function expectAccessibleInDarkAndAt375(page: Page, screen: string) {
  for (const [colorScheme, width] of [
    ['dark', 1280],
    ['light', 375],
    ['dark', 375],
  ] as const) {
    await page.emulateMedia({ colorScheme });
    await page.setViewportSize({ width, height: 800 });
    await expectNoAxeViolations(page, `${screen}, ${colorScheme}, ${width} px`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
}

test.describe('dark and at 375 px', () => {
  test('the sign-in page and the admin dashboard', async ({ page, db, openBrowserAs }) => {
    await page.goto('/auth/login');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in');
    await expectAccessibleInDarkAndAt375(page, 'the sign-in page');

    const admin = (await openBrowserAs(await enrolledSuperAdminId(db))).page;
    await admin.goto('/admin');
    await expect(admin.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
    await expect(admin.getByRole('term').filter({ hasText: 'Flagged Content' })).toBeVisible();
    await expectAccessibleInDarkAndAt375(admin, 'the admin dashboard');
  });

  test("a student's requests, offers and conversation, and a teacher's jobs", async ({
    page,
    db,
    signInAs,
    openBrowserAs,
  }) => {
    const subject = await createSubject(db);
    const tutor = await createTeacher(db, { subjectIds: [subject.id] });
    const student = await signInAs('student');
    const request = await createRequest(db, { studentId: student.id, subjectId: subject.id });
    await createBid(db, { requestId: request.id, tutorId: tutor.id, message: 'Glad to help.' });
    const sent = await page.request.post('/api/chat/messages', {
      data: { clientId: randomUUID(), receiverId: tutor.id, content: 'Could we start with the basics?' },
    });
    expect(sent.ok()).toBe(true);

    await page.goto('/student/posts');
    await expect(page.getByRole('link', { name: /Tutoring Request/ })).toContainText('1 Offer');
    await expectAccessibleInDarkAndAt375(page, 'My Requests');

    await page.goto(`/student/offers/${request.id}`);
    await expect(page.getByRole('article', { name: `Offer from ${tutor.username}` })).toContainText('$12');
    await expectAccessibleInDarkAndAt375(page, 'the offers page');

    await page.goto(`/chat?tutorId=${tutor.id}`);
    await expect(page.getByRole('list', { name: 'Messages' })).toContainText('Could we start with the basics?');
    await expectAccessibleInDarkAndAt375(page, 'a conversation');

    const teacher = (await openBrowserAs(tutor.id)).page;
    await createRequest(db, { studentId: (await createUser(db, { role: 'student' })).id, subjectId: subject.id });
    await teacher.goto('/teacher/jobs');
    await expect(teacher.getByRole('tab', { name: 'All Jobs (2)' })).toBeVisible();
    await expectAccessibleInDarkAndAt375(teacher, 'the jobs page');
  });
});

/** Presses Tab (Shift+Tab backwards) until the target has focus: it is reachable by keyboard, in the page's order. */
async function tabTo(target: Locator, { backwards = false } = {}) {
  const { keyboard } = target.page();
  for (let presses = 0; presses < 40; presses += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`40 presses of Tab did not reach ${target.toString()}`);
}

/** Tabs to the target and presses Enter on it. */
async function pressEnterOn(target: Locator, options: { backwards?: boolean } = {}) {
  await tabTo(target, options);
  await target.page().keyboard.press('Enter');
}

test('the core flow by keyboard alone: post, bid, accept, chat, schedule a meeting, rate', async ({
  page,
  db,
  signInAs,
  openBrowserAs,
}) => {
  // Two people, six steps, each a live hop between them, on a busy two-core machine.
  test.slow();
  const subject = await createSubject(db);
  const tutor = await createTeacher(db, { subjectIds: [subject.id] });
  const teacher = (await openBrowserAs(tutor.id)).page;
  await teacher.goto('/teacher/jobs');
  await expect(teacher.getByText('No jobs available in your subjects.')).toBeVisible();
  await expectLive(teacher);

  // The student posts a request through the assistant: each question takes focus to its answer.
  const student = await signInAs('student');
  await page.goto('/student/posts');
  await expectLive(page);
  const newRequest = page.getByRole('button', { name: 'New Request' });
  await pressEnterOn(newRequest);
  const wizard = page.getByRole('dialog', { name: 'Create New Request' });
  const next = wizard.getByRole('button', { name: 'Next' });
  await tabTo(wizard.getByRole('radio', { name: /Find a Tutor/ }));
  await page.keyboard.press('Space');
  await pressEnterOn(next);
  await expect(wizard.getByRole('radio', { name: 'High school' })).toBeFocused();
  await tabTo(wizard.getByRole('radio', { name: 'Undergraduate' }));
  await page.keyboard.press('Space');
  await pressEnterOn(next);
  await expect(wizard.getByLabel('Subject')).toBeFocused();
  // A closed select takes the typed name of an option.
  await page.keyboard.type(subject.name);
  await expect(wizard.getByLabel('Subject').locator('option:checked')).toHaveText(subject.name);
  await pressEnterOn(next);
  await expect(wizard.getByLabel('Topic')).toBeFocused();
  await page.keyboard.type('Eigenvalues');
  await page.keyboard.press('Enter');
  await expect(wizard.getByRole('radio', { name: 'Exam preparation' })).toBeFocused();
  await page.keyboard.press('Space');
  await pressEnterOn(next);
  await expect(wizard.getByLabel('Preferred schedule')).toBeFocused();
  await page.keyboard.type('Weekday evenings');
  await pressEnterOn(next);
  await pressEnterOn(wizard.getByRole('button', { name: 'Submit' }));
  await expect(page.getByRole('link', { name: /Tutoring Request/ })).toContainText(subject.name);
  await expect(newRequest).toBeFocused();

  // The teacher bids; the job's Submit Bid turns into Already Bid, and focus stays on the job.
  const job = teacher.getByRole('article', { name: `Tutoring Request: ${subject.name}` });
  await pressEnterOn(job.getByRole('button', { name: 'Submit Bid' }));
  const bid = teacher.getByRole('dialog', { name: 'Submit Your Bid' });
  await tabTo(bid.getByLabel('Bid Amount (USD)'));
  await teacher.keyboard.type('12');
  await tabTo(bid.getByLabel('Message to Student (optional)'));
  await teacher.keyboard.type('Happy to help with eigenvalues.');
  await pressEnterOn(bid.getByRole('button', { name: 'Place Bid' }));
  await expect(job.getByRole('button', { name: 'Already Bid' })).toBeDisabled();
  await expect(job).toBeFocused();

  // The student opens the request's offers and accepts the bid.
  await pressEnterOn(page.getByRole('link', { name: /Tutoring Request/ }));
  const offer = page.getByRole('article', { name: `Offer from ${tutor.username}` });
  await pressEnterOn(offer.getByRole('button', { name: 'Accept Offer' }));
  await pressEnterOn(
    page.getByRole('dialog', { name: 'Accept this offer?' }).getByRole('button', { name: 'Accept Offer' }),
  );
  await payAtCheckout(page, { keyboard: true });
  await expect(page.getByRole('region', { name: `Conversation with ${tutor.username}` })).toBeVisible();

  // A message each way.
  await tabTo(page.getByRole('textbox', { name: 'Message' }));
  await page.keyboard.type('When can we start?');
  await page.keyboard.press('Enter');
  await teacher.goto('/chat');
  const room = teacher
    .getByRole('complementary', { name: 'Chat rooms' })
    .getByRole('button', { name: new RegExp(student.username) });
  await pressEnterOn(room);
  await expect(teacher.getByRole('list', { name: 'Messages' })).toContainText('When can we start?');
  await tabTo(teacher.getByRole('textbox', { name: 'Message' }));
  await teacher.keyboard.type('Tomorrow, I will send an invitation.');
  await teacher.keyboard.press('Enter');
  await expect(page.getByRole('list', { name: 'Messages' })).toContainText('Tomorrow, I will send an invitation.');

  // The teacher schedules a meeting: the time typed into the picker's fields, then back to the button that began it.
  const schedule = teacher.getByRole('button', { name: 'Schedule meeting' });
  // Up from the composer to the conversation's header.
  await pressEnterOn(schedule, { backwards: true });
  const meeting = teacher.getByRole('dialog', { name: 'Schedule meeting' });
  await tabTo(meeting.getByLabel('Title'));
  await teacher.keyboard.type('Eigenvalues, first session');
  await tabTo(meeting.getByLabel('Start time'));
  const start = fromNow(26 * HOUR_MS);
  const pad = (value: number) => String(value).padStart(2, '0');
  // Chromium's en-US picker: month, day, year (which takes up to six digits: ArrowRight moves on), hour, minute, AM/PM.
  await teacher.keyboard.type(`${pad(start.getMonth() + 1)}${pad(start.getDate())}${start.getFullYear()}`);
  await teacher.keyboard.press('ArrowRight');
  const hours12 = start.getHours() % 12 || 12;
  await teacher.keyboard.type(`${pad(hours12)}${pad(start.getMinutes())}${start.getHours() < 12 ? 'A' : 'P'}`);
  const local = `${start.getFullYear()}-${pad(start.getMonth() + 1)}-${pad(start.getDate())}T${pad(start.getHours())}:${pad(start.getMinutes())}`;
  await expect(meeting.getByLabel('Start time')).toHaveValue(local);
  await pressEnterOn(meeting.getByRole('button', { name: 'Schedule' }));
  await pressEnterOn(teacher.getByRole('dialog', { name: 'Meeting Scheduled!' }).getByRole('button', { name: 'OK' }));
  await expect(schedule).toBeFocused();
  await expect(page.getByRole('list', { name: 'Messages' })).toContainText('Eigenvalues, first session');

  // The student marks the job completed; the rating form takes focus, the arrows choose the stars.
  await pressEnterOn(page.getByRole('button', { name: 'Mark as completed' }), { backwards: true });
  const rating = page.getByRole('form', { name: `Rate your ${subject.name} job` });
  await expect(rating).toBeFocused();
  await tabTo(rating.getByRole('radio', { name: '1 star' }));
  await page.keyboard.press('Space');
  for (const stars of [2, 3, 4, 5]) {
    await page.keyboard.press('ArrowRight');
    await expect(rating.getByRole('radio', { name: `${stars} stars` })).toBeFocused();
  }
  await page.keyboard.press('Space');
  await expect(rating.getByRole('radio', { name: '5 stars' })).toBeChecked();
  await tabTo(rating.getByLabel('Your review (optional)'));
  await page.keyboard.type('Clear and patient.');
  await pressEnterOn(rating.getByRole('button', { name: 'Submit review' }));
  await expect(page.getByText('Thank you for your review!')).toBeVisible();
  await expect(page.getByRole('form', { name: `Rate your ${subject.name} job` })).toBeFocused();
});
