import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { TEST_AUTH_SECRET } from '../../tests/support/test-config.ts';
import { withAdminClient } from '../../tests/support/test-database.ts';
import {
  runToExit,
  SERVER_COMMAND,
  startServerProcess,
  type ServerProcess,
} from '../../tests/support/server-process.ts';

// The real entry point as its own process: start, migrate, seed, serve, stop on SIGTERM, start again.
const template = inject('databaseTemplate');
const usesPostgres = template.kind === 'postgres';

describe(`the server process on ${usesPostgres ? 'PostgreSQL (DATABASE_URL)' : 'the embedded database'}`, () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vh-main-'));
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    AUTH_SECRET: TEST_AUTH_SECRET,
    ADMIN_PASSWORD: 'Admin-password-1',
  };
  let connection: pg.ClientConfig = { host: dataDir, port: 5432, user: 'postgres', database: 'postgres' };
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    if (template.kind !== 'postgres') return;
    // An empty database, so the process itself migrates and seeds it.
    const name = `vh_main_${randomBytes(6).toString('hex')}`;
    await withAdminClient(template.url, (client) => client.query(`create database ${name}`));
    const url = new URL(template.url);
    url.pathname = `/${name}`;
    env.DATABASE_URL = url.toString();
    connection = { connectionString: env.DATABASE_URL };
    return async () => {
      await withAdminClient(template.url, (client) => client.query(`drop database if exists ${name} with (force)`));
    };
  });
  afterAll(async () => {
    await server?.stop();
  });

  const countContactMessages = async () => {
    const client = new pg.Client(connection);
    await client.connect();
    const { rows } = await client.query<{ n: number }>('select count(*)::int as n from contact_messages');
    await client.end();
    return rows[0]!.n;
  };

  it('starts on an empty database, migrates and seeds it, and serves the API', async () => {
    server = await startServerProcess(SERVER_COMMAND, env, 60_000);
    const response = await fetch(`${server.url}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Ada',
        email: 'ada@example.com',
        subject: 'Hello',
        message: 'Kept across restarts?',
      }),
    });
    expect(response.status).toBe(201);
    expect(await countContactMessages()).toBe(1);
    // A first start runs initdb in a process of its own: as long as the start-up bound above.
  }, 60_000);

  it('names each dev-outbox mail in its output, never its links (no terminal there), and keeps the data directory to itself', async () => {
    const response = await fetch(`${server!.url}/api/accounts/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'printed',
        email: 'printed@example.com',
        password: 'secret1',
        role: 'student',
        acceptTerms: true,
        acceptPrivacy: true,
        confirmAge: true,
      }),
    });
    expect(response.status).toBe(201);
    await vi.waitFor(
      () =>
        expect(server!.output()).toContain(
          'Mail to printed@example.com: Confirm your e-mail address for Virtual Help (its links are at /dev/mailbox',
        ),
      { timeout: 15_000 },
    );
    // The output goes to a pipe, as under a service manager that keeps it in a log.
    expect(server!.output()).not.toContain('verify-email?token=');
    const outbox = path.join(dataDir, 'outbox');
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(statSync(outbox).mode & 0o777).toBe(0o700);
    const mails = readdirSync(outbox);
    expect(mails.length).toBeGreaterThan(0);
    for (const name of mails) expect(statSync(path.join(outbox, name)).mode & 0o777).toBe(0o600);
  });

  it.runIf(!usesPostgres)('refuses a second server on the same data directory with a clear message', async () => {
    const second = await runToExit(SERVER_COMMAND, { ...env, PORT: '0', LOG_LEVEL: 'warn' });
    expect(second.code).toBe(1);
    expect(second.output).toContain(`The data directory ${dataDir} is in use by another Virtual Help server`);
  });

  it('stops cleanly on SIGTERM and keeps the data for the next start', async () => {
    expect(await server!.stop()).toBe(0);
    server = await startServerProcess(SERVER_COMMAND, env, 60_000);
    expect(await countContactMessages()).toBe(1);
  });

  it('refuses to start with a bad setting, naming it', async () => {
    const bad = await runToExit(SERVER_COMMAND, {
      ...env,
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'vh-bad-')),
      PORT: 'abc',
    });
    expect(bad.code).toBe(1);
    expect(bad.output).toContain('PORT: must be a port number (got "abc")');
  });
});
