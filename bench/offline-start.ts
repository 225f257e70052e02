// A repeat visit to /chat, the installed app's start page, with the service worker and without it (the browser's
// HTTP cache alone), on the built app: the time from the navigation to the conversation list on screen, median of 3
// visits each, on the loopback network and on an emulated slow 4G (150 ms round trip, 1.6 Mbit/s down); and the same
// visit with the network cut, which only the service worker can answer (docs/decisions/0063).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { openDatabase } from '../src/server/db/client.ts';
import { CHROMIUM_PATH } from '../tests/support/chromium.ts';
import { createSessionCookie, createUser } from '../tests/support/factories.ts';
import { freePort, startServerProcess } from '../tests/support/server-process.ts';
import { TEST_AUTH_SECRET } from '../tests/support/test-config.ts';

const VISITS = 3;
const ROOMS = 20;
const SLOW_4G = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: 750 * 128,
};

const median = (values: number[]) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!;

// In the page from its first script: the moment the first room's partner is in the conversation list. (A string:
// tsx would wrap a function's inner functions in a helper the page does not have.)
const watchForRooms = (partnerName: string) => `
  new MutationObserver((_, observer) => {
    const list = document.querySelector('[aria-label="Chat rooms"]');
    if (!list || !list.textContent.includes(${JSON.stringify(partnerName)})) return;
    window.roomsShownAt = performance.now();
    observer.disconnect();
  }).observe(document, { childList: true, subtree: true, characterData: true });
`;

async function roomsShownMs(page: Page) {
  await page.waitForFunction(() => (window as { roomsShownAt?: number }).roomsShownAt !== undefined, undefined, {
    timeout: 60_000,
  });
  return page.evaluate(() => (window as { roomsShownAt?: number }).roomsShownAt!);
}

/** Median time to the conversation list over repeat visits, in a context with or without the service worker. */
async function repeatVisits(
  browser: Browser,
  { url, cookie, partnerName, withWorker }: { url: string; cookie: string; partnerName: string; withWorker: boolean },
) {
  const context = await browser.newContext({ serviceWorkers: withWorker ? 'allow' : 'block' });
  const [name, value] = [cookie.slice(0, cookie.indexOf('=')), cookie.slice(cookie.indexOf('=') + 1)];
  await context.addCookies([{ name, value, url, httpOnly: true, sameSite: 'Lax' }]);
  await context.addInitScript({ content: watchForRooms(partnerName) });
  const page = await context.newPage();
  try {
    // The first visit fills the caches (and installs the worker, which keeps the start page on the next one).
    await page.goto(`${url}/chat`);
    await roomsShownMs(page);
    if (withWorker) {
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 60_000 });
    }
    await page.goto(`${url}/chat`);
    await roomsShownMs(page);

    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const measure = async () => {
      const runs = [];
      for (let visit = 0; visit < VISITS; visit++) {
        await page.goto(`${url}/chat`);
        runs.push(await roomsShownMs(page));
      }
      return median(runs);
    };
    const local = await measure();
    await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
    const slow = await measure();
    await cdp.send('Network.emulateNetworkConditions', { ...SLOW_4G, offline: true });
    let offline: number | null = null;
    try {
      await page.goto(`${url}/chat`, { timeout: 20_000 });
      offline = await roomsShownMs(page);
    } catch {
      offline = null;
    }
    return { local, slow, offline };
  } finally {
    await context.close();
  }
}

export async function benchOfflineStart() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vh-bench-offline-start-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = await startServerProcess(
    [process.execPath, 'dist/server/main.js'],
    {
      DATA_DIR: dataDir,
      PORT: String(port),
      PUBLIC_URL: url,
      ADMIN_PASSWORD: 'Bench-password-1',
      AUTH_SECRET: TEST_AUTH_SECRET,
      NODE_ENV: 'production',
      PAYMENTS_PROVIDER: 'none',
    },
    60_000,
  );
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const database = await openDatabase(
      { kind: 'postgres', url: `postgres://postgres@localhost/postgres?host=${encodeURIComponent(dataDir)}` },
      { poolSize: 1 },
    );
    let cookie: string;
    let partnerName = '';
    try {
      const teacher = await createUser(database.db, { role: 'teacher' });
      cookie = (await createSessionCookie(database.db, teacher.id)).header;
      for (let room = 0; room < ROOMS; room++) {
        const student = await createUser(database.db, { role: 'student' });
        partnerName = student.username;
        const response = await fetch(`${url}/api/chat/rooms`, {
          method: 'POST',
          headers: { cookie, origin: url, 'content-type': 'application/json' },
          body: JSON.stringify({ partnerId: student.id }),
        });
        if (!response.ok) throw new Error(`Could not open a room: ${response.status} ${await response.text()}`);
      }
    } finally {
      await database.close();
    }
    const without = await repeatVisits(browser, { url, cookie, partnerName, withWorker: false });
    const withWorker = await repeatVisits(browser, { url, cookie, partnerName, withWorker: true });
    const row = (network: string, a: number | null, b: number | null) => ({
      network,
      'without worker ms': a === null ? 'no page' : Math.round(a),
      'with worker ms': b === null ? 'no page' : Math.round(b),
      'with / without': a === null || b === null ? '—' : (b / a).toFixed(2),
    });
    return [
      row('loopback', without.local, withWorker.local),
      row('slow 4G (150 ms, 1.6 Mbit/s)', without.slow, withWorker.slow),
      row('offline', without.offline, withWorker.offline),
    ];
  } finally {
    await browser.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
