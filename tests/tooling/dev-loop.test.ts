import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInOverHttp } from '../support/callers.ts';
import { freePort, startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { connectSocket } from '../support/socket-client.ts';
import { TEST_ADMIN, TEST_AUTH_SECRET } from '../support/test-config.ts';

// `npm run dev` as a developer uses it: the browser on Vite's page, the API behind Vite's proxy.
describe('npm run dev', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vh-dev-'));
  let dev: ServerProcess | undefined;

  beforeAll(async () => {
    dev = await startServerProcess(
      [process.execPath, '--import', 'tsx', 'scripts/dev.ts'],
      {
        NODE_ENV: 'development',
        LOG_LEVEL: 'info',
        // As `npm run dev` runs it: the packages' commands (tsx, vite) on the PATH.
        PATH: `${path.resolve('node_modules/.bin')}${path.delimiter}${process.env.PATH}`,
        HOST: 'localhost',
        PORT: String(await freePort()),
        DEV_API_PORT: String(await freePort()),
        DATA_DIR: dataDir,
        AUTH_SECRET: TEST_AUTH_SECRET,
        ADMIN_EMAIL: TEST_ADMIN.email,
        ADMIN_PASSWORD: TEST_ADMIN.password,
      },
      // A fresh data directory is initialised first; a busy two-core machine takes minutes for that.
      300_000,
    );
  }, 320_000);

  afterAll(async () => {
    await dev?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('signs in and opens the realtime socket through the page the browser is on', async () => {
    const { url } = dev!;
    // What a browser on Vite's page sends with the sign-in form.
    const { response, cookie } = await signInOverHttp(url, TEST_ADMIN, {
      origin: url,
      'sec-fetch-site': 'same-origin',
    });
    expect(response.status, await response.text()).toBe(200);

    const socket = await connectSocket(url, { cookie, origin: url });
    expect(socket.connected).toBe(true);
    socket.close();

    const page = await fetch(`${url}/chat`);
    expect(await page.text()).toContain('main.tsx');
  });
});
