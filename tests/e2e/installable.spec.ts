import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CDPSession, Page } from '@playwright/test';
import { CHROMIUM_PATH } from '../support/chromium.ts';
import { createSessionCookie, createUser } from '../support/factories.ts';
import { expect, expectNoAxeViolations, test } from './fixtures.ts';

// The installed app (docs/decisions/0055, 0063): a manifest and a service worker Chromium accepts for installing, a
// repeat visit to the start page without the network opening on the chat and its conversations as last seen (any
// other page on the kept offline page), and a new version announced and taken on "Reload".

test.use({ serviceWorkers: 'allow' });

/** Waits until a service worker controls the page, and answers its script's address. */
async function controllingServiceWorker(page: Page) {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
  return page.evaluate(() => navigator.serviceWorker.controller!.scriptURL);
}

async function installabilityErrors(cdp: CDPSession) {
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  return installabilityErrors.map(({ errorId }) => errorId);
}

test('the app installs, shows pushes, opens offline on the chat as last seen, and takes a new version on Reload', async ({
  playwright,
  db,
  baseURL,
}) => {
  // Chromium installs nothing from an incognito profile, which every test context is: this journey has a profile.
  const profile = mkdtempSync(path.join(os.tmpdir(), 'vh-installed-'));
  const context = await playwright.chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
    baseURL,
    viewport: { width: 375, height: 740 },
    serviceWorkers: 'allow',
  });
  const errors: string[] = [];
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  try {
    const student = await createUser(db, { role: 'student' });
    const cookie = await createSessionCookie(db, student.id);
    await context.addCookies([
      { name: cookie.name, value: cookie.value, url: baseURL!, httpOnly: true, sameSite: 'Lax' },
    ]);
    const teacher = await createUser(db, { role: 'teacher' });
    expect((await page.request.post('/api/chat/rooms', { data: { partnerId: teacher.id } })).status()).toBe(201);
    await installedJourney(page, baseURL!, teacher.username);
    // Offline, the browser logs the requests and the socket the network refused.
    expect(
      errors.filter((error) => !/ERR_INTERNET_DISCONNECTED|Failed to load resource|WebSocket connection/.test(error)),
    ).toEqual([]);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
});

async function installedJourney(page: Page, baseURL: string, partnerName: string) {
  const context = page.context();
  await page.goto('/chat');
  expect(new URL(await controllingServiceWorker(page)).pathname).toBe('/sw.js');
  // The repeat visit, through the service worker: the start page and the conversation list are kept.
  await page.reload();
  const rooms = page.getByRole('complementary', { name: 'Chat rooms' });
  await expect(rooms.getByRole('button', { name: new RegExp(partnerName) })).toBeVisible();

  const cdp = await context.newCDPSession(page);
  const { url, data } = (await cdp.send('Page.getAppManifest')) as { url: string; data?: string };
  expect(url).toBe(`${baseURL}/manifest.webmanifest`);
  const manifest = JSON.parse(data!) as { start_url: string; display: string; icons: { sizes: string }[] };
  expect(manifest).toMatchObject({ start_url: '/chat', display: 'standalone' });
  expect(manifest.icons.map(({ sizes }) => sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
  await expect.poll(() => installabilityErrors(cdp)).toEqual([]);

  // Only the build's static files are kept, and the start page in a cache of its own: no other page, no API answer.
  const kept = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) {
        // A version may itself hold a hyphen: the kind of cache is its name without everything after the prefix.
        urls.push(`${name.replace(/^(vh-static|vh-start-page)-.+$/, '$1')} ${new URL(request.url).pathname}`);
      }
    }
    return urls;
  });
  expect(kept).toContain('vh-static /offline.html');
  expect(kept).toContain('vh-start-page /chat');
  expect(
    kept.filter(
      (entry) =>
        entry !== 'vh-start-page /chat' &&
        !/^vh-static \/(assets\/|offline\.|favicon\.svg$|manifest\.webmanifest$)/.test(entry),
    ),
  ).toEqual([]);

  await showsPushes(page, cdp, baseURL);

  await context.setOffline(true);
  await page.goto('/chat');
  await expect(rooms.getByRole('button', { name: new RegExp(partnerName) })).toBeVisible();
  // Chromium says it is online to a page loaded under the emulated cut (not to one that sees the cut happen): the
  // notice is then that the connection is being sought.
  await expect(
    page.getByRole('status').filter({ hasText: /Offline — messages will be sent|Reconnecting…/ }),
  ).toBeVisible();
  await expectNoAxeViolations(page, 'the chat started offline');
  // Any other page: the offline page.
  await page.goto('/about');
  await expect(page.getByRole('heading', { name: 'You are offline' })).toBeVisible();
  await expectNoAxeViolations(page, 'the offline page');
  await context.setOffline(false);
  await page.getByRole('link', { name: 'Try again' }).click();
  await expect(page.getByRole('heading', { name: 'You are offline' })).toBeHidden();

  // A new version of the service worker, which the page finds when it registers at its next load: announced, and not
  // taken until the person asks. (Written over the build's file: the browser fetches the script past page.route.)
  await withNextServiceWorkerVersion(async () => {
    await page.reload();
    const notice = page.getByText('A new version is available');
    await expect(notice).toBeVisible({ timeout: 30_000 });
    await expectNoAxeViolations(page, 'the new version notice');
    const reloaded = page.waitForEvent('load');
    await page.getByRole('button', { name: 'Reload' }).click();
    await reloaded;
    await expect(notice).toBeHidden();
    expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting)).toBeFalsy();
  });
}

/**
 * A push delivered to the service worker through the DevTools protocol (a push service would need the Internet) is
 * shown as its notification, and a second of the same tag replaces the first.
 */
async function showsPushes(page: Page, cdp: CDPSession, baseURL: string) {
  await page.context().grantPermissions(['notifications'], { origin: baseURL });
  const registrationId = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const ours = registrations.find(({ scopeURL, isDeleted }) => scopeURL === `${baseURL}/` && !isDeleted);
      if (ours) resolve(ours.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  const push = async (payload: object) =>
    cdp.send('ServiceWorker.deliverPushMessage', {
      origin: baseURL,
      registrationId: await registrationId,
      data: JSON.stringify(payload),
    });
  const shown = () =>
    page.evaluate(async () =>
      (await (await navigator.serviceWorker.ready).getNotifications()).map((notification) => ({
        title: notification.title,
        body: notification.body,
        tag: notification.tag,
        url: (notification.data as { url: string }).url,
      })),
    );
  await push({ title: 'New message from Ada', body: 'Can we meet at five?', url: '/chat?room=1', tag: 'chat-message' });
  await expect
    .poll(shown)
    .toEqual([
      { title: 'New message from Ada', body: 'Can we meet at five?', tag: 'chat-message', url: '/chat?room=1' },
    ]);
  await push({ title: 'New message from Ada', body: 'Or at six', url: '/chat?room=1', tag: 'chat-message' });
  await expect
    .poll(shown)
    .toEqual([{ title: 'New message from Ada', body: 'Or at six', tag: 'chat-message', url: '/chat?room=1' }]);
  await cdp.send('ServiceWorker.disable');
}

/** Serves a changed /sw.js while `run` runs: the build's script with a line more (its compressed copies set aside). */
async function withNextServiceWorkerVersion(run: () => Promise<void>) {
  const script = 'dist/web/sw.js';
  const original = readFileSync(script, 'utf8');
  const compressed = ['.br', '.gz'].map((extension) => `${script}${extension}`).filter((file) => existsSync(file));
  for (const file of compressed) renameSync(file, `${file}.set-aside`);
  writeFileSync(script, `${original}\n// the next version\n`);
  try {
    await run();
  } finally {
    writeFileSync(script, original);
    for (const file of compressed) renameSync(`${file}.set-aside`, file);
  }
}

test('signing out deletes the caches that may hold personal data, and keeps the static files', async ({
  page,
  signInAs,
}) => {
  const student = await signInAs('student');
  await page.goto('/about');
  await controllingServiceWorker(page);
  // The session answer is kept once the app has asked for it.
  await expect.poll(async () => (await keptOnDevice(page))?.session).toBe(1);
  await page.evaluate(async () => {
    const database = await new Promise<IDBDatabase>((resolve) => {
      const request = indexedDB.open('virtual-help');
      request.onsuccess = () => resolve(request.result);
    });
    const transaction = database.transaction('drafts', 'readwrite');
    transaction.objectStore('drafts').put('a draft', 'someone:partner');
    await new Promise((resolve) => (transaction.oncomplete = resolve));
    database.close();
  });
  await page.evaluate(async () => {
    await (await caches.open('conversations')).put('/kept-for-the-test', new Response('personal'));
  });
  await page.getByRole('button', { name: new RegExp(student.username) }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page.getByText('Logged out successfully')).toBeVisible();
  const names = await page.evaluate(() => caches.keys());
  expect(names).not.toContain('conversations');
  expect(names.some((name) => name.startsWith('vh-static-'))).toBe(true);
  // Nor is anything left of what the app keeps in IndexedDB (the last session, the conversation list, the outbox,
  // drafts).
  expect(await keptOnDevice(page)).toEqual({ session: 0, rooms: 0, outbox: 0, drafts: 0 });
});

/** How many records each store of the app's IndexedDB holds (null before the app has made it). */
function keptOnDevice(page: Page) {
  return page.evaluate(async () => {
    if (!(await indexedDB.databases()).some((database) => database.name === 'virtual-help')) return null;
    const database = await new Promise<IDBDatabase>((resolve) => {
      const request = indexedDB.open('virtual-help');
      request.onsuccess = () => resolve(request.result);
    });
    const counts: Record<string, number> = {};
    for (const store of database.objectStoreNames) {
      const request = database.transaction(store).objectStore(store).count();
      counts[store] = await new Promise<number>((resolve) => (request.onsuccess = () => resolve(request.result)));
    }
    database.close();
    return counts;
  });
}
