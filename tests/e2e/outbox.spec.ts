import { eq, inArray } from 'drizzle-orm';
import type { Request } from '@playwright/test';
import { messages as messageRows } from '../../src/server/db/schema/chat.ts';
import { createUser } from '../support/factories.ts';
import { uniqueWord } from '../support/words.ts';
import { expect, expectLive, expectNoAxeViolations, test, type Page } from './fixtures.ts';

// The chat's outbox (features/chat/use-outbox.ts): a message shows at once as pending, is sent again with the same
// clientId until the server answers, and is offered for Retry when it fails; the server stores it once whatever the
// number of tries.

const SEND = '/api/chat/messages';
const messageList = (page: Page) => page.getByRole('list', { name: 'Messages' });
// A stored message says Sent (to a screen reader; then Delivered and Read); a pending one Sending… or Not sent.

/** A student on /chat with a room open with a new teacher. */
async function inARoom(
  page: Page,
  { db, signInAs }: Pick<Parameters<Parameters<typeof test>[2]>[0], 'db' | 'signInAs'>,
) {
  await signInAs('student');
  const teacher = await createUser(db, { role: 'teacher' });
  expect((await page.request.post('/api/chat/rooms', { data: { partnerId: teacher.id } })).status()).toBe(201);
  await page.goto('/chat');
  await expectLive(page);
  await page
    .getByRole('complementary', { name: 'Chat rooms' })
    .getByRole('button', { name: new RegExp(teacher.username) })
    .click();
  await expect(page.getByRole('heading', { name: teacher.username, level: 2 })).toBeVisible();
}

async function send(page: Page, text: string) {
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill(text);
  await composer.press('Enter');
  await expect(composer).toHaveValue('');
}

const clientIdOf = (request: Request) => (request.postDataJSON() as { clientId: string }).clientId;

test('a message whose answer was lost is sent again with the same clientId and stored once', async ({
  page,
  db,
  signInAs,
  allowConsoleError,
}) => {
  allowConsoleError(/Failed to load resource/);
  await inARoom(page, { db, signInAs });
  const text = `Answer lost ${uniqueWord()}`;
  const tries: Request[] = [];
  // The first try reaches the server, which stores the message, but its answer never comes back.
  await page.route(SEND, async (route) => {
    tries.push(route.request());
    if (tries.length > 1) return route.continue();
    await route.fetch();
    await route.fulfill({ status: 503, json: { code: 'UNAVAILABLE', message: 'Service unavailable' } });
  });

  await send(page, text);
  const sent = messageList(page).getByRole('listitem').filter({ hasText: text });
  await expect(sent.getByText('Sent', { exact: true })).toBeAttached();
  await expect(sent).toHaveCount(1);
  // The socket's echo of the stored message may settle it before the retry: any retry carries the same clientId.
  expect(new Set(tries.map(clientIdOf))).toEqual(new Set([clientIdOf(tries[0]!)]));
  expect(await db.select().from(messageRows).where(eq(messageRows.content, text))).toHaveLength(1);
});

test('a refused message stays as Not sent, and Retry sends it once; the next one goes on its own', async ({
  page,
  db,
  signInAs,
  allowConsoleError,
}) => {
  allowConsoleError(/Failed to load resource/);
  await inARoom(page, { db, signInAs });
  const text = `Refused first ${uniqueWord()}`;
  const tries: Request[] = [];
  await page.route(SEND, async (route) => {
    tries.push(route.request());
    // A refusal that sending again would not change: no automatic retry.
    if (tries.length === 1) return route.fulfill({ status: 400, json: { code: 'BAD_REQUEST', message: 'Refused' } });
    return route.continue();
  });

  await send(page, text);
  const pending = messageList(page).getByRole('listitem').filter({ hasText: text });
  const retry = pending.getByRole('button', { name: 'Not sent — Retry' });
  await expect(retry).toBeVisible();
  await expect(page.getByText('Error sending message')).toBeVisible();
  await expectNoAxeViolations(page, 'a message not sent');
  expect(await db.select().from(messageRows).where(eq(messageRows.content, text))).toHaveLength(0);

  await retry.click();
  await expect(pending.getByText('Sent', { exact: true })).toBeAttached();
  await expect(retry).toHaveCount(0);
  await expect(messageList(page).getByRole('listitem').filter({ hasText: text })).toHaveCount(1);
  // The socket's echo of the stored message may settle it before the retry: any retry carries the same clientId.
  expect(new Set(tries.map(clientIdOf))).toEqual(new Set([clientIdOf(tries[0]!)]));

  // A new message is a new one: its own clientId.
  const next = `Then another ${uniqueWord()}`;
  await send(page, next);
  await expect(messageList(page).getByRole('listitem').filter({ hasText: next })).toHaveCount(1);
  expect(new Set(tries.map(clientIdOf)).size).toBe(2);
  expect(await db.select().from(messageRows).where(eq(messageRows.content, text))).toHaveLength(1);
});

/** Each text's rows on the server, in the order the server stored them. */
async function storedInOrder(db: Parameters<Parameters<typeof test>[2]>[0]['db'], texts: string[]) {
  const rows = await db.select().from(messageRows).where(inArray(messageRows.content, texts));
  return rows.toSorted((a, b) => a.createdAt.getTime() - b.createdAt.getTime()).map((row) => row.content);
}

test('messages written offline wait on the device, then go in order once back online and after a restart, each stored once', async ({
  page,
  db,
  signInAs,
  allowConsoleError,
}) => {
  // Offline, the browser reports the requests and the socket it could not open.
  allowConsoleError(/Failed to load resource|ERR_INTERNET_DISCONNECTED|WebSocket connection/);
  await inARoom(page, { db, signInAs });
  const context = page.context();
  const word = uniqueWord();
  const first = [`Offline one ${word}`, `Offline two ${word}`];

  await context.setOffline(true);
  for (const text of first) await send(page, text);
  for (const text of first) {
    await expect(
      messageList(page).getByRole('listitem').filter({ hasText: text }).getByText('Waiting to send'),
    ).toBeVisible();
  }
  await expect(
    page.getByRole('status').filter({ hasText: 'Offline — messages will be sent when you’re back online' }),
  ).toBeVisible();
  await expectNoAxeViolations(page, 'the chat offline');
  expect(await storedInOrder(db, first)).toEqual([]);

  await context.setOffline(false);
  for (const text of first) {
    await expect(
      messageList(page).getByRole('listitem').filter({ hasText: text }).getByText('Sent', { exact: true }),
    ).toBeAttached();
  }
  await expect(page.getByText('Offline — messages will be sent')).toBeHidden();
  expect(await storedInOrder(db, first)).toEqual(first);

  // Written offline, then the app is closed before the network returns: the next start sends them.
  const second = [`After restart one ${word}`, `After restart two ${word}`];
  await context.setOffline(true);
  for (const text of second) await send(page, text);
  await page.close();
  await context.setOffline(false);
  const restarted = await context.newPage();
  await restarted.goto('/chat');
  for (const text of second) {
    await expect(
      messageList(restarted).getByRole('listitem').filter({ hasText: text }).getByText('Sent', { exact: true }),
    ).toBeAttached();
  }
  await expect(messageList(restarted).getByRole('listitem').filter({ hasText: word })).toHaveCount(4);
  expect(await storedInOrder(db, [...first, ...second])).toEqual([...first, ...second]);
});

test('the composer keeps an unsent draft per conversation across a reload', async ({ page, db, signInAs }) => {
  await inARoom(page, { db, signInAs });
  const draft = `Half a thought ${uniqueWord()}`;
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill(draft);
  await page.reload();
  await expect(composer).toHaveValue(draft);
  // Sent, it is a draft no more.
  await composer.press('Enter');
  await expect(messageList(page).getByRole('listitem').filter({ hasText: draft })).toHaveCount(1);
  await expect
    .poll(() =>
      page.evaluate(async () => {
        const database = await new Promise<IDBDatabase>((resolve) => {
          const request = indexedDB.open('virtual-help');
          request.onsuccess = () => resolve(request.result);
        });
        const request = database.transaction('drafts').objectStore('drafts').count();
        const count = await new Promise<number>((resolve) => (request.onsuccess = () => resolve(request.result)));
        database.close();
        return count;
      }),
    )
    .toBe(0);
  await page.reload();
  await expect(composer).toBeVisible();
  await expect(composer).toHaveValue('');
});
