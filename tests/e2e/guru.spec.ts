import { expect, expectLive, expectNoAxeViolations, test, type Page } from './fixtures.ts';

// Guru AI: a student's study assistant in the chat, answering offline (no model server in the tests).

const messages = (page: Page) => page.getByRole('list', { name: 'Messages' });
const sidebar = (page: Page) => page.getByRole('complementary', { name: 'Chat rooms' });

test('a student asks Guru AI, reads the answer in math, asks a tutor and clears the chat', async ({
  page,
  signInAs,
}) => {
  await signInAs('student');
  await page.goto('/chat');
  await expectLive(page);
  // Listed first among the conversations, and opened from the Guru AI button.
  await expect(sidebar(page).getByRole('listitem').first()).toContainText('Guru AI');
  await sidebar(page).getByRole('button', { name: 'Guru AI', exact: true }).click();
  const conversation = page.getByRole('region', { name: 'Conversation with Guru AI' });
  await expect(conversation.getByRole('heading', { name: 'Guru AI' })).toBeVisible();

  const question = conversation.getByPlaceholder('Ask the AI a question...');
  await question.fill('solve x^2 - 2x - 1 = 0');
  await question.press('Enter');
  const reply = messages(page).getByRole('listitem').filter({ hasText: 'Answer: x = 1 ± √2' });
  // KaTeX wrote the answer as math (MathML): x = 1 ± √2, the root a real <msqrt>.
  const math = reply.getByRole('math');
  await expect(math).toHaveCount(1);
  await expect(math.locator('mo', { hasText: '±' })).toHaveCount(1);
  await expect(math.locator('msqrt')).toHaveText('2');
  await expect(math.locator('annotation')).toHaveText('x = 1 \\pm \\sqrt{2}');
  await expect(reply.getByText('Steps')).toBeVisible();
  await expectNoAxeViolations(page, "Guru AI's answer in math");

  // The message search looks in what the reply says, not in how it is stored.
  await conversation.getByRole('button', { name: 'Search messages' }).click();
  await page.getByRole('searchbox', { name: 'Search messages' }).fill('discriminant');
  await expect(messages(page).locator('[data-message-id]')).toHaveCount(1);
  await expect(messages(page).locator('[data-message-id]')).toContainText('Answer: x = 1 ± √2');
  await page.getByRole('searchbox', { name: 'Search messages' }).fill('actionType');
  await expect(page.getByText('No messages match your search.')).toBeVisible();
  await conversation.getByRole('button', { name: 'Cancel' }).click();

  // A question that would keep the engine busy for long: Guru AI types while it works, then answers honestly, with
  // the two actions, once the time bound has passed.
  await question.fill('simplify (x^12-1)/(x-1)');
  await question.press('Enter');
  await expect(page.getByRole('status', { name: 'Guru AI is typing' })).toBeVisible();
  const decline = messages(page).getByRole('listitem').filter({ hasText: "I can't solve this one offline" });
  await expect(decline.getByRole('link', { name: 'Search for an Expert' })).toHaveAttribute('href', '/search-experts');
  await expect(decline.getByRole('link', { name: 'Create a New Request' })).toHaveAttribute('href', '/student/posts');
  await expect(page.getByRole('status', { name: 'Guru AI is typing' })).toBeHidden();
  await expectNoAxeViolations(page, "Guru AI's honest decline");

  // The model's text never becomes HTML.
  await question.fill('<img src=x onerror=alert(1)> <b>bold</b>');
  await question.press('Enter');
  await expect(messages(page).getByText('<img src=x onerror=alert(1)> <b>bold</b>')).toBeVisible();
  await expect(messages(page).locator('img, b')).toHaveCount(0);

  // "Ask a tutor" under the quadratic's reply: the standard form, filled in, for review.
  await reply.getByRole('button', { name: 'Ask a tutor' }).click();
  await expect(page).toHaveURL(/\/student\/posts$/);
  const dialog = page.getByRole('dialog', { name: 'Create New Request' });
  await expect(dialog.getByLabel('Description')).toHaveValue(/^My question: solve x\^2 - 2x - 1 = 0/);
  await expect(dialog.getByLabel('Description')).toHaveValue(/What Guru AI tried:[\s\S]*x = 1 ± √2/);
  await expect(dialog.getByLabel('Subject')).toHaveValue(/.+/);
  await expect(dialog.getByLabel('Subject').locator('option:checked')).toHaveText('Algebra');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();

  // Back in the chat (the conversation is remembered), Clear chat empties it.
  await page.goto('/chat');
  // A fresh page loads the conversation's code, then its messages, one after the other: on a busy two-core machine
  // that took over ten seconds.
  await expect(reply.getByRole('button', { name: 'Ask a tutor' })).toBeVisible({ timeout: 30_000 });
  await conversation.getByRole('button', { name: 'Conversation menu' }).click();
  await page.getByRole('menuitem', { name: 'Clear chat' }).click();
  await expect(page.getByText('Chat cleared successfully')).toBeVisible();
  await expect(messages(page)).toBeHidden();
  await page.reload();
  await expect(conversation.getByText(/Ask Guru AI about your homework/)).toBeVisible();
});

test('a photo of a printed equation is read and solved, and Ask a tutor attaches it', async ({
  page,
  browser,
  signInAs,
}) => {
  // The photo: an equation printed in a page of its own, as a worksheet.
  const drawing = await browser.newPage({ viewport: { width: 900, height: 160 } });
  await drawing.setContent(
    '<body style="margin:0;padding:40px;background:#fff;color:#000;font:40px \'DejaVu Sans\', sans-serif">2x + 3 = 7</body>',
  );
  const photo = await drawing.screenshot({ type: 'png' });
  await drawing.close();

  await signInAs('student');
  await page.goto('/chat');
  await expectLive(page);
  await sidebar(page).getByRole('button', { name: 'Guru AI', exact: true }).click();
  await page.getByLabel('Attach photo').setInputFiles({ name: 'worksheet.png', mimeType: 'image/png', buffer: photo });
  await page.getByRole('button', { name: 'Send' }).click();
  const reply = messages(page).getByRole('listitem').filter({ hasText: 'Answer: x = 2' });
  await expect(reply.getByText(/I read this in your photo: 2x ?\+ ?3 ?= ?7/)).toBeVisible({ timeout: 20_000 });

  await reply.getByRole('button', { name: 'Ask a tutor' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create New Request' });
  await expect(dialog.getByRole('list', { name: 'Attached files' })).toContainText('worksheet.png');
  await expectNoAxeViolations(page, 'a request from Guru AI with its photo');
  await expect(dialog.getByLabel('Description')).toHaveValue(/^My question: My question is in the attached photo\./);
});

test('a teacher has no Guru AI', async ({ page, signInAs }) => {
  await signInAs('teacher');
  await page.goto('/chat');
  await expect(
    sidebar(page)
      .getByRole('button', { name: 'Jobs' })
      .or(sidebar(page).getByRole('link', { name: 'Jobs' })),
  ).toBeVisible();
  await expect(sidebar(page).getByText('Guru AI')).toHaveCount(0);
});
