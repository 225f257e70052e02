import { eq } from 'drizzle-orm';
import { users } from '../../src/server/db/schema/auth.ts';
import { meetingTimeLabel } from '#shared/rules/meeting-time.ts';
import { createTeacher, createUser } from '../support/factories.ts';
import { expect, expectLive, expectNoAxeViolations, test, type Page } from './fixtures.ts';
import { fromNow, MINUTE_MS } from '../support/time.ts';

// Connect journeys: find people by VH number and start a chat with them.

/** Gives `vhNumber` to nobody else, so the journey knows exactly whom the search finds. */
async function reserveVhNumber(db: Parameters<typeof createUser>[0], vhNumber: number) {
  await db.update(users).set({ vhNumber: 999 }).where(eq(users.vhNumber, vhNumber));
}

const messagesOf = (page: Page) => page.getByRole('list', { name: 'Messages' });

async function searchFor(page: Page, vh: string) {
  await page.getByRole('textbox', { name: 'Virtual Help number' }).fill(vh);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
}

test('a teacher finds a student by VH number and connects, then is already connected', async ({
  page,
  db,
  signInAs,
}) => {
  await reserveVhNumber(db, 201);
  const student = await createUser(db, { role: 'student', vhNumber: 201 });
  await signInAs('teacher');
  await page.goto('/chat');
  await page.getByRole('link', { name: 'Search the student' }).click();
  await expect(page.getByRole('heading', { name: 'Search for a Student', level: 1 })).toBeVisible();

  await searchFor(page, '2O1');
  await expect(page.getByText('Invalid search')).toBeVisible();
  await expect(page.getByText('Please enter a valid Virtual Help number (3 digits)')).toBeVisible();
  await expectNoAxeViolations(page, 'the student search refusing a number');

  await searchFor(page, ' 201 ');
  const card = page.getByRole('listitem').filter({ hasText: student.username });
  await expect(card).toContainText('VH 201');
  await expect(card).toContainText('Student');
  await expectNoAxeViolations(page, 'a student found');
  await card.getByRole('button', { name: `Connect with ${student.username}` }).click();
  await expect(page.getByText('Connected!')).toBeVisible();
  await expect(page.getByText(`You can now chat with ${student.username}`)).toBeVisible();
  await expect(page.getByRole('heading', { name: student.username, level: 2 })).toBeVisible();

  await page.goBack();
  await expect(page).toHaveURL(/vh=201/);
  await page
    .getByRole('listitem')
    .filter({ hasText: student.username })
    .getByRole('button', { name: `Connect with ${student.username}` })
    .click();
  await expect(page.getByText('Already connected')).toBeVisible();
  await expect(page.getByText('You already have a chat room with this student')).toBeVisible();
  await expect(page.getByRole('heading', { name: student.username, level: 2 })).toBeVisible();
});

test('a student finds an expert with their subjects, and learns when nobody has a number', async ({
  page,
  db,
  signInAs,
}) => {
  await reserveVhNumber(db, 202);
  await reserveVhNumber(db, 203);
  const [algebra] = await db.query.subjects.findMany({ where: (s, { eq }) => eq(s.name, 'Algebra') });
  const expert = await createTeacher(db, { subjectIds: [algebra!.id], vhNumber: 202 });
  await createUser(db, { role: 'student', vhNumber: 202 });
  await signInAs('student');
  await page.goto('/search-tutors');
  await expect(page).toHaveURL(/\/search-experts$/);
  await expect(page.getByRole('heading', { name: 'Search for an Expert', level: 1 })).toBeVisible();

  await searchFor(page, '203');
  await expect(page.getByRole('heading', { name: 'No experts found' })).toBeVisible();
  await expect(page.getByText('No expert found with this Virtual Help number')).toBeVisible();
  await expectNoAxeViolations(page, 'no expert found');

  await searchFor(page, '202');
  const results = page.getByRole('region', { name: 'Search results' });
  await expect(results.getByRole('listitem')).toHaveCount(1);
  await expect(results.getByRole('listitem')).toContainText(expert.username);
  await expect(results.getByRole('listitem')).toContainText('Algebra');
  await expectNoAxeViolations(page, 'an expert found');
  await results.getByRole('button', { name: `Connect with ${expert.username}` }).click();
  await expect(page.getByText(`You can now chat with ${expert.username}`)).toBeVisible();
  await expect(page.getByRole('heading', { name: expert.username, level: 2 })).toBeVisible();
});

test('a report without details is refused, with details it is filed and the reporter goes back', async ({
  page,
  db,
  signInAs,
}) => {
  const reporter = await signInAs('student');
  const teacher = await createUser(db, { role: 'teacher' });
  await page.request.post('/api/chat/rooms', { data: { partnerId: teacher.id } });
  await page.goto('/chat');
  await page
    .getByRole('complementary', { name: 'Chat rooms' })
    .getByRole('button', { name: new RegExp(teacher.username) })
    .click();
  await page.getByRole('button', { name: 'Conversation menu' }).click();
  await page.getByRole('menuitem', { name: 'Report user' }).click();
  await expect(page.getByRole('heading', { name: 'Report User', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Reported user')).toContainText(teacher.username);

  await page.getByRole('radio', { name: 'Harassment' }).check();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Please fill in all fields')).toBeVisible();
  await expect(page.getByText('Please describe what happened')).toBeVisible();
  await expectNoAxeViolations(page, 'the report form with its errors');

  await page.getByRole('textbox', { name: 'Details' }).fill('Rude messages after I declined the offer.');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Report submitted')).toBeVisible();
  await expect(page.getByText('Thank you for helping keep our community safe.')).toBeVisible();
  await expect(page).toHaveURL(/\/chat/);

  const filed = await db.query.userReports.findMany({ where: (r, { eq }) => eq(r.reporterId, reporter.id) });
  expect(filed).toEqual([
    expect.objectContaining({
      reportedUserId: teacher.id,
      reason: 'harassment',
      description: 'Rude messages after I declined the offer.',
    }),
  ]);
});

test.describe('meetings across time zones', () => {
  test.use({ timezoneId: 'Europe/Berlin' });

  test('a teacher schedules a meeting 5 minutes ahead: both see it in their own zone, can join, then it is cancelled', async ({
    page,
    db,
    openBrowserAs,
    signInAs,
  }) => {
    const teacher = await signInAs('teacher');
    const student = await createUser(db, { role: 'student' });
    const other = await openBrowserAs(student.id, {
      timezoneId: 'America/New_York',
    });
    await page.goto(`/chat?tutorId=${student.id}`);
    await expect(page.getByRole('heading', { name: student.username, level: 2 })).toBeVisible();
    await expectLive(page);
    await other.page.goto(`/chat?tutorId=${teacher.id}`);
    await expect(other.page.getByRole('heading', { name: teacher.username, level: 2 })).toBeVisible();
    await expectLive(other.page);

    // The picker works in the teacher's zone (Berlin), whatever the zone of the machine running the test.
    const start = new Date(Math.ceil(fromNow(5 * MINUTE_MS).getTime() / MINUTE_MS) * MINUTE_MS);
    const berlin = new Intl.DateTimeFormat('sv-SE', {
      timeZone: 'Europe/Berlin',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
      .format(start)
      .replace(' ', 'T');
    await page.getByRole('button', { name: 'Schedule meeting' }).click();
    const dialog = page.getByRole('dialog', { name: 'Schedule meeting' });
    await expect(dialog.getByText(/In your time zone \(CES?T\)/)).toBeVisible();
    await expectNoAxeViolations(page, 'the meeting form');
    await dialog.getByLabel('Title').fill('Derivatives');
    await dialog.getByLabel('Start time').fill(berlin);
    await dialog.getByRole('button', { name: 'Schedule' }).click();
    await page.getByRole('dialog', { name: 'Meeting Scheduled!' }).getByRole('button', { name: 'OK' }).click();

    const teacherCard = messagesOf(page).getByRole('listitem').filter({ hasText: 'Derivatives' });
    await expect(teacherCard).toContainText(meetingTimeLabel(start, 'Europe/Berlin'));
    await expect(teacherCard).toContainText('Scheduled');
    await expect(teacherCard).toContainText(/Starts in \d+ minutes?/);
    await expect(teacherCard.getByRole('button', { name: 'Join meeting' })).toBeEnabled();
    // Join records the join, then opens the video service in a new tab, the name filled in and its own chat off (the
    // service is stubbed).
    await page.context().route('https://meet.jit.si/**', (route) => route.fulfill({ body: 'video service' }));
    const popup = page.waitForEvent('popup');
    const recorded = page.waitForResponse((response) => /\/api\/chat\/meetings\/[^/]+\/join$/.test(response.url()));
    await teacherCard.getByRole('button', { name: 'Join meeting' }).click();
    expect((await recorded).status()).toBe(201);
    const videoTab = await popup;
    await videoTab.waitForURL('https://meet.jit.si/**');
    const joined = new URL(videoTab.url());
    expect(joined.origin).toBe('https://meet.jit.si');
    expect(decodeURIComponent(joined.hash)).toContain(`userInfo.displayName="${teacher.username}"`);
    expect(joined.hash).toContain('config.disableChat=true');
    await videoTab.close();

    const studentCard = messagesOf(other.page).getByRole('listitem').filter({ hasText: 'Derivatives' });
    await expect(studentCard).toContainText(meetingTimeLabel(start, 'America/New_York'));
    await expect(studentCard).toContainText(/Starts in \d+ minutes?/);
    await expect(studentCard.getByRole('button', { name: 'Join meeting' })).toBeEnabled();
    await expect(studentCard.getByRole('button', { name: 'Cancel meeting' })).toHaveCount(0);
    await expectNoAxeViolations(other.page, "a meeting card, the student's");
    // The bell tells the student live.
    await expect(other.page.getByRole('button', { name: 'Notifications, 1 unread' })).toBeVisible();

    page.once('dialog', (confirm) => void confirm.accept());
    await teacherCard.getByRole('button', { name: 'Cancel meeting' }).click();
    await expect(page.getByText('The other participant was notified.')).toBeVisible();
    for (const card of [teacherCard, studentCard]) {
      await expect(card).toContainText('Cancelled');
      await expect(card.getByRole('button', { name: 'Join meeting' })).toBeDisabled();
    }
    await expect(other.page.getByRole('button', { name: 'Notifications, 2 unread' })).toBeVisible();
  });
});
