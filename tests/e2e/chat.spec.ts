import { randomUUID } from 'node:crypto';
import { createUser } from '../support/factories.ts';
import { TINY_PNG } from '../support/files.ts';
import { expect, expectLive, expectNoAxeViolations, test, type Page } from './fixtures.ts';
import { fromNow, HOUR_MS, MINUTE_MS } from '../support/time.ts';

// Chat journeys: two people in two browser contexts, live over the socket.

const messages = (page: Page) => page.getByRole('list', { name: 'Messages' });
const composer = (page: Page) => page.getByRole('textbox', { name: 'Message' });
const roomButton = (page: Page, username: string) =>
  page.getByRole('complementary', { name: 'Chat rooms' }).getByRole('button', { name: new RegExp(username) });

/** A student (this page) and a teacher (a second browser) with a room between them, both on /chat. */
type RoomFixtures = {
  page: Page;
  db: Parameters<typeof createUser>[0];
  openBrowserAs: (userId: string, options?: { permissions?: string[] }) => Promise<{ page: Page }>;
  signInAs: (role: 'student' | 'teacher') => ReturnType<typeof createUser>;
};

async function twoPeopleInARoom({ page, db, openBrowserAs, signInAs }: RoomFixtures) {
  await page.context().grantPermissions(['notifications']);
  const student = await signInAs('student');
  const teacher = await createUser(db, { role: 'teacher' });
  const opened = await page.request.post('/api/chat/rooms', { data: { partnerId: teacher.id } });
  expect(opened.status()).toBe(201);
  const other = await openBrowserAs(teacher.id, {
    permissions: ['notifications'],
  });
  await other.page.goto('/chat');
  await page.goto('/chat');
  await expectLive(page);
  await expectLive(other.page);
  return { student, teacher, other };
}

test('messages go both ways live, and receipts move from one check to two', async ({
  page,
  db,
  openBrowserAs,
  signInAs,
}) => {
  const { student, teacher, other } = await twoPeopleInARoom({ page, db, openBrowserAs, signInAs });
  const teacherPage = other.page;

  await roomButton(page, teacher.username).click();
  await expect(page.getByRole('heading', { name: teacher.username, level: 2 })).toBeVisible();
  await expect(teacherPage.getByText('Select a chatroom to start messaging')).toBeVisible();

  // The teacher has the chat page open but not this room: the message is delivered (one check), not read.
  await composer(page).fill('Hello, can you help me with algebra?');
  await composer(page).press('Enter');
  await expect(composer(page)).toHaveValue('');
  const sent = messages(page).getByRole('listitem').filter({ hasText: 'Hello, can you help me with algebra?' });
  await expect(sent.getByRole('img', { name: 'Delivered' })).toBeVisible();
  await expect(roomButton(teacherPage, student.username)).toContainText('Hello, can you help me with algebra?');
  await expect(roomButton(teacherPage, student.username)).toContainText('1 unread');

  // Opening the room reads it: two checks on the sender's side.
  await roomButton(teacherPage, student.username).click();
  await expect(messages(teacherPage).getByText('Hello, can you help me with algebra?')).toBeVisible();
  await expect(sent.getByRole('img', { name: 'Read' })).toBeVisible();
  await expectNoAxeViolations(teacherPage, 'a conversation');

  // Shift+Enter makes a new line; Enter sends. The reply arrives live and is read at once (room open on both sides).
  await composer(teacherPage).click();
  await composer(teacherPage).pressSequentially('Sure!');
  await composer(teacherPage).press('Shift+Enter');
  await composer(teacherPage).pressSequentially('When?');
  await expect(composer(teacherPage)).toHaveValue('Sure!\nWhen?');
  await composer(teacherPage).press('Enter');
  await expect(messages(page).getByText(/Sure!\s*When\?/)).toBeVisible();
  const reply = messages(teacherPage).getByRole('listitem').filter({ hasText: 'When?' });
  await expect(reply.getByRole('img', { name: 'Read' })).toBeVisible();

  // Search highlights matches in the loaded messages.
  await page.getByRole('button', { name: 'Search messages' }).click();
  await page.getByRole('searchbox', { name: 'Search messages' }).fill('algebra');
  await expect(messages(page).locator('mark')).toHaveText('algebra');
  await expect(messages(page).getByText('When?')).toHaveCount(0);
  await expectNoAxeViolations(page, 'the message search');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(messages(page).getByText(/When\?/)).toBeVisible();

  // Report user is in the conversation menu.
  await page.getByRole('button', { name: 'Conversation menu' }).click();
  await expect(page.getByRole('menuitem', { name: 'Report user' })).toHaveAttribute(
    'href',
    `/report-user/${teacher.id}`,
  );
  await expectNoAxeViolations(page, 'the conversation menu');
  await page.keyboard.press('Escape');

  // The selected partner is remembered across a reload.
  await page.reload();
  await expect(page.getByRole('heading', { name: teacher.username, level: 2 })).toBeVisible();
});

test('an image goes to the other side, which sees it and downloads it', async ({
  page,
  db,
  openBrowserAs,
  signInAs,
  allowConsoleError,
}) => {
  const { student, teacher, other } = await twoPeopleInARoom({ page, db, openBrowserAs, signInAs });
  const teacherPage = other.page;
  await roomButton(page, teacher.username).click();
  await roomButton(teacherPage, student.username).click();

  // A file that only pretends to be a PDF is refused by the server (type detected from the bytes); it can be removed.
  allowConsoleError(/status of 4\d\d/);
  await page.getByLabel('Attach document').setInputFiles({
    name: 'notes.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('MZ this is not a document'),
  });
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText('File Upload Failed')).toBeVisible();
  await expect(page.getByText('Only images and documents are allowed.')).toBeVisible();
  await expectNoAxeViolations(page, 'a refused upload');
  await page.getByRole('button', { name: 'Remove attachment' }).click();

  await page
    .getByLabel('Attach photo')
    .setInputFiles({ name: 'whiteboard-photo-of-the-exercise.png', mimeType: 'image/png', buffer: TINY_PNG });
  await expect(page.getByRole('img', { name: 'Attachment preview' })).toBeVisible();
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('img', { name: 'Attachment preview' })).toHaveCount(0);

  const image = messages(teacherPage).getByRole('img', { name: 'whiteboard-photo-of-the-exercise.png' });
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(1);
  // The card shows the shortened name and the size.
  await expect(messages(teacherPage).getByText('whiteboard-phot….png')).toBeVisible();
  await expect(messages(teacherPage).getByText(`${TINY_PNG.length} B`, { exact: true })).toBeVisible();
  await expectNoAxeViolations(teacherPage, 'an image in the conversation');

  const downloadEvent = teacherPage.waitForEvent('download');
  await messages(teacherPage).getByRole('button', { name: 'Download whiteboard-photo-of-the-exercise.png' }).click();
  const download = await downloadEvent;
  expect(download.suggestedFilename()).toBe('whiteboard-photo-of-the-exercise.png');
  await expect(teacherPage.getByText('Download Complete')).toBeVisible();
});

test('a phone number is blocked before sending and the text stays to be edited; HTML is shown as text', async ({
  page,
  db,
  openBrowserAs,
  signInAs,
  allowConsoleError,
}) => {
  // Every refused text still goes to the server, which refuses it (400) and keeps the attempt for the admins.
  allowConsoleError(/status of 400/);
  const { student, teacher, other } = await twoPeopleInARoom({ page, db, openBrowserAs, signInAs });
  const teacherPage = other.page;
  await roomButton(page, teacher.username).click();
  await roomButton(teacherPage, student.username).click();

  const blockedText = 'Call me at 079 123 45 67 tonight';
  await composer(page).fill(blockedText);
  await composer(page).press('Enter');
  await expect(page.getByText('Message Not Sent', { exact: true })).toBeVisible();
  await expect(page.getByText('Phone numbers are not allowed for your safety.').first()).toBeVisible();
  await expect(composer(page)).toHaveValue(blockedText);
  await expect(page.getByRole('form', { name: 'Send a message' }).locator('mark')).toHaveText('079 123 45 67');
  await expectNoAxeViolations(page, 'a refused message');

  // The server's own rules (the database's patterns, unknown to the client) block too: same notice, text kept.
  const offensive = 'This is bullshit, honestly';
  await composer(page).fill(offensive);
  await composer(page).press('Enter');
  await expect(page.getByText('This message contains offensive language.').first()).toBeVisible();
  await expect(composer(page)).toHaveValue(offensive);
  await expect(page.getByRole('form', { name: 'Send a message' }).locator('mark')).toHaveText('bullshit');
  await expect(messages(page).getByText(offensive)).toHaveCount(0);

  // Edited, it goes through; the marks disappear as soon as the text passes.
  await composer(page).fill('Call me tonight <b>hi</b><script>alert(1)</script>');
  await expect(page.getByRole('form', { name: 'Send a message' }).locator('mark')).toHaveCount(0);
  await composer(page).press('Enter');
  await expect(messages(teacherPage).getByText('Call me tonight <b>hi</b><script>alert(1)</script>')).toBeVisible();
  await expect(messages(teacherPage).locator('b, script')).toHaveCount(0);
  await expect(messages(teacherPage).getByText('079')).toHaveCount(0);
});

test('a new user sees the empty states and the student buttons', async ({ page, signInAs }) => {
  await signInAs('student');
  await page.goto('/chat');
  await expect(page.getByText('No conversations yet')).toBeVisible();
  await expect(page.getByText('Select a chatroom to start messaging')).toBeVisible();
  const sidebar = page.getByRole('complementary', { name: 'Chat rooms' });
  await expect(sidebar.getByRole('link', { name: 'Find Expert' })).toHaveAttribute('href', '/student/posts');
  await expect(sidebar.getByRole('link', { name: 'Search expert with ID' })).toHaveAttribute('href', '/search-experts');
  const contact = sidebar.getByRole('link', { name: 'Contact Us' });
  await expect(contact).toHaveAttribute('href', /^https:\/\/wa\.me\/\d+$/);
  await expect(contact).toHaveAttribute('target', '_blank');
  await expectNoAxeViolations(page, 'the empty chat');

  await sidebar.getByRole('button', { name: 'Open profile menu' }).click();
  const drawer = page.getByRole('dialog', { name: 'Profile' });
  await expect(drawer.getByRole('button', { name: 'Change picture' })).toBeVisible();
  await expect(drawer.getByText(/VH number: \d{3}/)).toBeVisible();
  await expect(drawer.getByRole('button', { name: 'Sign Out' })).toBeVisible();
  await expectNoAxeViolations(page, 'the profile drawer');
});

test('a teacher opens a chat from ?tutorId= and on a phone sees one pane at a time', async ({ page, db, signInAs }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  const teacher = await signInAs('teacher');
  const student = await createUser(db, { role: 'student' });

  await page.goto(`/chat?tutorId=${student.id}`);
  await expect(page.getByRole('heading', { name: student.username, level: 2 })).toBeVisible();
  await expect(page).toHaveURL(/\/chat$/);
  await expect(page.getByRole('complementary', { name: 'Chat rooms' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Schedule meeting' })).toBeVisible();
  await expectNoAxeViolations(page, 'a conversation at 375 px');

  await page.getByRole('button', { name: 'Back to chats' }).click();
  const sidebar = page.getByRole('complementary', { name: 'Chat rooms' });
  await expect(sidebar).toBeVisible();
  await expect(sidebar.getByRole('link', { name: 'Jobs' })).toHaveAttribute('href', '/teacher/jobs');
  await expect(sidebar.getByRole('link', { name: 'Search the student' })).toHaveAttribute('href', '/search-student');
  await expect(page.getByRole('region', { name: `Conversation with ${student.username}` })).toBeHidden();
  await expectNoAxeViolations(page, 'the chat rooms at 375 px');

  await roomButton(page, student.username).click();
  await expect(page.getByRole('region', { name: `Conversation with ${student.username}` })).toBeVisible();
  await expect(sidebar).toBeHidden();

  // The browser's back button returns to the list and stays on /chat.
  await page.goBack();
  await expect(sidebar).toBeVisible();
  await expect(page).toHaveURL(/\/chat$/);
  await roomButton(page, student.username).click();
  await page.getByRole('button', { name: 'Back to chats' }).click();
  await expect(sidebar).toBeVisible();
  await page.goBack();
  await expect(page).not.toHaveURL(/\/chat/);
  expect(teacher.role).toBe('teacher');
});

test('older messages load when scrolling up, and the scroll-to-bottom button brings the newest back', async ({
  page,
  db,
  signInAs,
}) => {
  const student = await signInAs('student');
  const teacher = await createUser(db, { role: 'teacher' });
  // 60 messages: more than the first page of 50.
  for (let index = 1; index <= 60; index += 1) {
    const response = await page.request.post('/api/chat/messages', {
      data: { clientId: randomUUID(), receiverId: teacher.id, content: `Numbered message ${index}.` },
    });
    expect(response.ok()).toBe(true);
  }
  await page.goto('/chat');
  await roomButton(page, teacher.username).click();
  await expect(messages(page).getByText('Numbered message 60.')).toBeInViewport();
  await expect(messages(page).getByText('Numbered message 1.', { exact: true })).toHaveCount(0);
  expect(student.role).toBe('student');

  const scroller = page.getByTestId('message-scroller');
  await scroller.evaluate((element) => element.scrollTo(0, 0));
  await expect(messages(page).getByText('Numbered message 1.', { exact: true })).toBeAttached();
  // Prepending kept the reader where they were: the newest is not in view, and the button offers the way back.
  await expect(messages(page).getByText('Numbered message 60.')).not.toBeInViewport();
  await expectNoAxeViolations(page, 'a long conversation scrolled up');
  await page.getByRole('button', { name: 'Scroll to latest messages' }).click();
  await expect(messages(page).getByText('Numbered message 60.')).toBeInViewport();
  await expect(page.getByRole('button', { name: 'Scroll to latest messages' })).toHaveCount(0);
});

test('a teacher schedules a meeting: the form checks its fields, then the card counts down', async ({
  page,
  db,
  signInAs,
}) => {
  await signInAs('teacher');
  const student = await createUser(db, { role: 'student' });
  // The form's code arrives with the conversation, before anyone reaches for the button: a tap shows it at once.
  const formCode = page.waitForResponse((response) => /\/schedule-meeting-form[^/]*\.js$/.test(response.url()));
  await page.goto(`/chat?tutorId=${student.id}`);
  await expect(page.getByRole('heading', { name: student.username, level: 2 })).toBeVisible();
  await formCode;

  await page.getByRole('button', { name: 'Schedule meeting' }).click();
  const dialog = page.getByRole('dialog', { name: 'Schedule meeting' });
  await expect(dialog.getByLabel('Title')).toBeVisible();
  await expect(dialog.getByRole('status', { name: 'Loading' })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Schedule' }).click();
  await expect(dialog.getByText('Title is required')).toBeVisible();
  await dialog.getByLabel('Title').fill('Chain rule practice');
  await dialog.getByLabel('Start time').fill('2020-01-01T10:00');
  await dialog.getByRole('button', { name: 'Schedule' }).click();
  await expect(dialog.getByText('Start time must be in the future')).toBeVisible();
  await expectNoAxeViolations(page, 'the meeting form with its errors');

  const inTwoHours = fromNow(2 * HOUR_MS + 5 * MINUTE_MS);
  const pad = (value: number) => String(value).padStart(2, '0');
  const local = `${inTwoHours.getFullYear()}-${pad(inTwoHours.getMonth() + 1)}-${pad(inTwoHours.getDate())}T${pad(inTwoHours.getHours())}:${pad(inTwoHours.getMinutes())}`;
  await dialog.getByLabel('Start time').fill(local);
  await dialog.getByRole('button', { name: 'Schedule' }).click();
  const done = page.getByRole('dialog', { name: 'Meeting Scheduled!' });
  await expect(done.getByText('A notification was sent to the participant.')).toBeVisible();
  await expectNoAxeViolations(page, 'Meeting Scheduled');
  await done.getByRole('button', { name: 'OK' }).click();

  await expect(messages(page).getByText('Chain rule practice')).toBeVisible();
  await expect(messages(page).getByText(/Starts in 2 hours/)).toBeVisible();
  // Join opens from 10 minutes before the start.
  await expect(messages(page).getByRole('button', { name: 'Join meeting' })).toBeDisabled();
  await expectNoAxeViolations(page, 'a meeting card');
});

test('after the first message, a browser that refuses notifications gets the "Notifications Disabled" notice once', async ({
  page,
  db,
  signInAs,
}) => {
  await signInAs('student');
  const teacher = await createUser(db, { role: 'teacher' });
  await page.goto(`/chat?tutorId=${teacher.id}`);
  await page.evaluate(() => {
    // The permission prompt cannot be answered in an automated browser: answer it "denied".
    Object.defineProperty(Notification, 'permission', { get: () => 'denied', configurable: true });
  });
  await expect(page.getByRole('heading', { name: teacher.username, level: 2 })).toBeVisible();
  await expect(page.getByText('Notifications Disabled')).toHaveCount(0);
  await composer(page).fill('First message');
  await composer(page).press('Enter');
  await expect(page.getByText('Notifications Disabled')).toBeVisible();
  await expect(
    page.getByText('Enable notifications to receive message alerts when the app is in background.'),
  ).toBeVisible();
  await expectNoAxeViolations(page, 'the Notifications Disabled notice');
  await composer(page).fill('Second message');
  await composer(page).press('Enter');
  await expect(messages(page).getByText('Second message')).toBeVisible();
  // Once only (it may already have timed out after its 5 s, but it never comes twice).
  expect(await page.getByText('Notifications Disabled').count()).toBeLessThanOrEqual(1);
});
