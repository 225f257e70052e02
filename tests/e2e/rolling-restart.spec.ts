import { readFile } from 'node:fs/promises';
import { and, eq } from 'drizzle-orm';
import type { Page } from '@playwright/test';
import { messages as messageRows } from '../../src/server/db/schema/chat.ts';
import { createSubject, createTeacher } from '../support/factories.ts';
import { pdfBytes, TINY_PNG } from '../support/files.ts';
import { missingForCluster, startClusterBehindNginx, type ClusterBehindNginx } from '../support/nginx-cluster.ts';
import {
  acceptOffer,
  answerTutoringSteps,
  expect,
  expectLive,
  expectNoAxeViolations,
  payAtCheckout,
  test,
} from './fixtures.ts';

// Two nodes behind nginx running deploy/nginx.conf (as src/server/cluster.test.ts starts them, on a PostgreSQL
// server of TEST_DATABASE_URL): a student posts a request, a teacher bids, the student pays for the offer, and the
// two chat and share files while the node holding their sockets restarts.

const postgresUrl = process.env.TEST_DATABASE_URL;
const missing = postgresUrl
  ? missingForCluster('postgres')
  : 'needs a PostgreSQL server: set TEST_DATABASE_URL=postgres://… (CI does)';

const messageList = (page: Page) => page.getByRole('list', { name: 'Messages' });
const composer = (page: Page) => page.getByRole('textbox', { name: 'Message' });
const roomButton = (page: Page, username: string) =>
  page.getByRole('complementary', { name: 'Chat rooms' }).getByRole('button', { name: new RegExp(username) });

/** The journeys of this file: their browsers go through the proxy and are signed in on the cluster's database. */
const clusterTest = test.extend<object, { nodes: ClusterBehindNginx }>({
  nodes: [
    async ({}, use) => {
      const nodes = await startClusterBehindNginx(postgresUrl!, { name: 'journey', size: 2, fanOut: 'postgres' });
      await use(nodes);
      await nodes.stop();
    },
    { scope: 'worker', timeout: 300_000 },
  ],
  baseURL: async ({ nodes }, use) => use(nodes.proxy.url),
  db: async ({ nodes }, use) => use(nodes.cluster.database.db),
});

/** The node whose sockets these are: nginx sends every socket of one address to the same node. */
async function nodeHoldingSockets(nodes: ClusterBehindNginx, count: number) {
  for (;;) {
    for (const [index, server] of nodes.cluster.servers.entries()) {
      const metrics = await (await fetch(`${server.url}/api/metrics`)).text();
      const connected = Number(/^socketio_sockets_connected (\d+)$/m.exec(metrics)?.[1] ?? 0);
      if (connected >= count) return index;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

clusterTest.describe('two nodes behind nginx', () => {
  clusterTest.skip(!!missing, missing);

  clusterTest(
    'a request is posted, bid on and paid for; a message typed while the node serving the browsers restarts arrives once, and files sent before and after it reach the other side',
    async ({ nodes, page, db, signInAs, openBrowserAs, allowConsoleError }) => {
      clusterTest.setTimeout(240_000);
      // The browser reports the socket's lost connection and the proxy's answers while no node holds it.
      allowConsoleError(/WebSocket connection to .* failed|Failed to load resource/);
      const subject = await createSubject(db);
      const teacher = await createTeacher(db, { subjectIds: [subject.id] });
      const student = await signInAs('student');
      const teacherPage = (await openBrowserAs(teacher.id)).page;

      // The student posts a request through the assistant.
      await page.goto('/student/posts');
      await expectLive(page);
      await page.getByRole('button', { name: 'New Request' }).click();
      const assistant = page.getByRole('dialog', { name: 'Create New Request' });
      const next = assistant.getByRole('button', { name: 'Next' });
      await assistant.getByRole('radio', { name: /Find a Tutor/ }).click();
      await next.click();
      await assistant.getByRole('radio', { name: 'Undergraduate' }).click();
      await next.click();
      await answerTutoringSteps(assistant, {
        subject: subject.name,
        topic: 'Integration by parts',
        support: 'General support',
        schedule: 'Saturday mornings',
      });
      await assistant.getByRole('button', { name: 'Submit' }).click();
      const card = page.getByRole('link', { name: /Tutoring Request/ });
      await expect(card).toContainText(subject.name);

      // The teacher bids on it; the student accepts the offer and pays with the test card.
      await teacherPage.goto('/teacher/jobs');
      await teacherPage.getByRole('button', { name: 'Submit Bid' }).click();
      const bid = teacherPage.getByRole('dialog', { name: 'Submit Your Bid' });
      await bid.getByLabel('Bid Amount (USD)').fill('12');
      await bid.getByRole('button', { name: 'Place Bid' }).click();
      await expect(teacherPage.getByText('Bid submitted successfully')).toBeVisible();
      const requestId = (await card.getAttribute('href'))!.split('/').at(-1)!;
      await acceptOffer(page, requestId, teacher.username);
      await payAtCheckout(page);
      await expect(page.getByText('Bid Accepted!')).toBeVisible();
      await expect(page.getByRole('heading', { name: teacher.username, level: 2 })).toBeVisible();
      await expectLive(page);
      await teacherPage.goto('/chat');
      await expectLive(teacherPage);
      await roomButton(teacherPage, student.username).click();
      await expectNoAxeViolations(page, 'chat through the proxy');

      // A PDF the teacher sends before the restart is downloaded by the student after it, from the shared bucket.
      const worksheet = { name: 'worksheet.pdf', mimeType: 'application/pdf', buffer: pdfBytes() };
      await teacherPage.getByLabel('Attach document').setInputFiles(worksheet);
      await teacherPage.getByRole('button', { name: 'Send' }).click();
      const downloadButton = messageList(page).getByRole('button', { name: `Download ${worksheet.name}` });
      await expect(downloadButton).toBeVisible();

      const restarting = nodes.restartNode(await nodeHoldingSockets(nodes, 2));
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
      expect(
        await db.$count(messageRows, and(eq(messageRows.senderId, student.id), eq(messageRows.content, text))),
      ).toBe(1);
      // After the pages settled: still once each, nothing delivered twice by a resend or a refetch.
      await page.waitForTimeout(1_000);
      for (const each of [page, teacherPage]) {
        await expect(messageList(each).getByRole('listitem').filter({ hasText: text })).toHaveCount(1);
      }

      const downloadEvent = page.waitForEvent('download');
      await downloadButton.click();
      const download = await downloadEvent;
      expect(download.suggestedFilename()).toBe(worksheet.name);
      expect(await readFile(await download.path())).toEqual(worksheet.buffer);
      // Every node serves it, the restarted one (a new, empty data directory) as well as the other.
      const [sent] = await db
        .select({ id: messageRows.id })
        .from(messageRows)
        .where(and(eq(messageRows.senderId, teacher.id), eq(messageRows.originalFilename, worksheet.name)));
      const cookie = (await page.context().cookies(nodes.proxy.url))
        .map((each) => `${each.name}=${each.value}`)
        .join('; ');
      for (const server of nodes.cluster.servers) {
        const served = await fetch(`${server.url}/api/chat/files/${sent!.id}`, { headers: { cookie } });
        expect(served.status).toBe(200);
        expect(Buffer.from(await served.arrayBuffer())).toEqual(worksheet.buffer);
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
    },
  );
});
