import { and, eq } from 'drizzle-orm';
import type { BrowserContext, Page } from '@playwright/test';
import { messages as messageRows } from '../../src/server/db/schema/chat.ts';
import { createSessionCookie, createUser } from '../support/factories.ts';
import { TINY_PNG } from '../support/files.ts';
import { missingForCluster, startClusterBehindNginx, type ClusterBehindNginx } from '../support/nginx-cluster.ts';
import { expect, expectLive, expectNoAxeViolations, test } from './fixtures.ts';

// Two nodes behind nginx running deploy/nginx.conf (as src/server/cluster.test.ts starts them, on a PostgreSQL
// server of TEST_DATABASE_URL): a student and a teacher chat while the node holding their sockets restarts.

const postgresUrl = process.env.TEST_DATABASE_URL;
const missing = postgresUrl
  ? missingForCluster('postgres')
  : 'needs a PostgreSQL server: set TEST_DATABASE_URL=postgres://… (CI does)';

const messageList = (page: Page) => page.getByRole('list', { name: 'Messages' });
const composer = (page: Page) => page.getByRole('textbox', { name: 'Message' });
const roomButton = (page: Page, username: string) =>
  page.getByRole('complementary', { name: 'Chat rooms' }).getByRole('button', { name: new RegExp(username) });

test.describe('two nodes behind nginx', () => {
  test.skip(!!missing, missing);
  let nodes: ClusterBehindNginx;

  test.beforeAll(async ({}, testInfo) => {
    testInfo.setTimeout(300_000);
    nodes = await startClusterBehindNginx(postgresUrl!, { name: 'journey', size: 2, fanOut: 'postgres' });
  });
  test.afterAll(async () => {
    await nodes.stop();
  });

  /** Signs the context in through the proxy's address. */
  const signIn = async (context: BrowserContext, userId: string) => {
    const cookie = await createSessionCookie(nodes.cluster.database.db, userId);
    await context.addCookies([
      { name: cookie.name, value: cookie.value, url: nodes.proxy.url, httpOnly: true, sameSite: 'Lax' },
    ]);
  };

  /** The node whose sockets these are: nginx sends every socket of one address to the same node. */
  const nodeHoldingSockets = async (count: number) => {
    for (;;) {
      for (const [index, server] of nodes.cluster.servers.entries()) {
        const metrics = await (await fetch(`${server.url}/api/metrics`)).text();
        const connected = Number(/^socketio_sockets_connected (\d+)$/m.exec(metrics)?.[1] ?? 0);
        if (connected >= count) return index;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };

  test('a message typed while the node serving the browsers restarts arrives once, both pages reconnect, and a photo follows', async ({
    page,
    browser,
    allowConsoleError,
  }) => {
    test.setTimeout(180_000);
    // The browser reports the socket's lost connection and the proxy's answers while no node holds it.
    allowConsoleError(/WebSocket connection to .* failed|Failed to load resource/);
    const db = nodes.cluster.database.db;
    const student = await createUser(db, { role: 'student' });
    const teacher = await createUser(db, { role: 'teacher' });
    await signIn(page.context(), student.id);
    const teacherContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await signIn(teacherContext, teacher.id);
    const teacherPage = await teacherContext.newPage();

    const opened = await page.request.post(`${nodes.proxy.url}/api/chat/rooms`, {
      data: { partnerId: teacher.id },
      headers: { origin: nodes.proxy.url },
    });
    expect(opened.status()).toBe(201);
    for (const [each, partner] of [
      [page, teacher.username],
      [teacherPage, student.username],
    ] as const) {
      await each.goto(`${nodes.proxy.url}/chat`);
      await expectLive(each);
      await roomButton(each, partner).click();
    }
    await expectNoAxeViolations(page, 'chat through the proxy');

    const restarting = nodes.restartNode(await nodeHoldingSockets(2));
    // Its sockets are told to reconnect once its drain delay is over; the student types while they are away.
    await expect(page.locator('html')).toHaveAttribute('data-realtime', 'disconnected', { timeout: 20_000 });
    const text = 'Typed while a server restarted';
    await composer(page).fill(text);
    await composer(page).press('Enter');
    await expect(composer(page)).toHaveValue('');
    expect(await restarting).toBe(0);

    await expectLive(page);
    await expectLive(teacherPage);
    for (const each of [page, teacherPage]) {
      await expect(messageList(each).getByRole('listitem').filter({ hasText: text })).toHaveCount(1);
    }
    expect(await db.$count(messageRows, and(eq(messageRows.senderId, student.id), eq(messageRows.content, text)))).toBe(
      1,
    );
    // After the pages settled: still once each, nothing delivered twice by a resend or a refetch.
    await page.waitForTimeout(1_000);
    for (const each of [page, teacherPage]) {
      await expect(messageList(each).getByRole('listitem').filter({ hasText: text })).toHaveCount(1);
    }

    // A photo uploaded through one node is shown to the teacher by whichever node nginx picks: the bucket is shared.
    await page
      .getByLabel('Attach photo')
      .setInputFiles({ name: 'worked-example.png', mimeType: 'image/png', buffer: TINY_PNG });
    await expect(page.getByRole('img', { name: 'Attachment preview' })).toBeVisible();
    await page.getByRole('button', { name: 'Send' }).click();
    const image = messageList(teacherPage).getByRole('img', { name: 'worked-example.png' });
    await expect(image).toBeVisible();
    await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(1);
    await expectNoAxeViolations(teacherPage, 'a photo through the proxy');
    await teacherContext.close();
  });
});
