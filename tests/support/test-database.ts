import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, inject, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/client.ts';

export type TestDatabaseTemplate =
  { kind: 'embedded'; templateFile: string } | { kind: 'postgres'; url: string; templateName: string };

declare module 'vitest' {
  export interface ProvidedContext {
    databaseTemplate: TestDatabaseTemplate;
  }
}

/**
 * A fresh database for one test file, cloned from the template that the global setup migrated and seeded once:
 * an in-memory PGlite loaded from a dump, or `CREATE DATABASE … TEMPLATE …` on a real server.
 */
export async function openTestDatabase(): Promise<DatabaseHandle> {
  const template = inject('databaseTemplate');
  if (template.kind === 'embedded') {
    return openDatabase({ kind: 'embedded', templateFile: template.templateFile, socketDir: newSocketDir() });
  }
  return openPostgresDatabase(template.url, `template ${template.templateName}`);
}

/** A database with nothing in it, not even the migrations: for tests of the migrations themselves. */
export async function openEmptyTestDatabase(): Promise<DatabaseHandle> {
  const template = inject('databaseTemplate');
  if (template.kind === 'embedded') return openDatabase({ kind: 'embedded', socketDir: newSocketDir() });
  return openPostgresDatabase(template.url, '');
}

const newSocketDir = () => mkdtempSync(path.join(os.tmpdir(), 'vh-sock-'));

/** A database of its own on the server, made with `create database … {options}` and dropped on close. */
async function openPostgresDatabase(serverUrl: string, options: string): Promise<DatabaseHandle> {
  const name = `vh_test_${randomBytes(6).toString('hex')}`;
  await withAdminClient(serverUrl, (client) => client.query(`create database ${name} ${options}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ kind: 'postgres', url: url.toString() });
  return {
    ...handle,
    async close() {
      await handle.close();
      await withAdminClient(serverUrl, (client) => client.query(`drop database if exists ${name} with (force)`));
    },
  };
}

export async function withAdminClient<T>(url: string, run: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Whether these tests run on a real PostgreSQL server; said once so a plain `npm test` names what it leaves out. */
const onPostgres = () => inject('databaseTemplate').kind === 'postgres';
const MISSING_POSTGRES = 'needs a PostgreSQL server: set TEST_DATABASE_URL=postgres://… (CI does)';

/**
 * `describe` for tests that only a real PostgreSQL server can run (several processes, advisory locks). On the
 * embedded database they are listed as skipped.
 */
export function describeOnPostgres(name: string, body: () => void) {
  if (onPostgres()) describe(name, body);
  else describe.skip(skippedName(name), body);
}

/** `it` for one such test. */
export function itOnPostgres(name: string, body: () => Promise<void>, timeout?: number) {
  if (onPostgres()) it(name, body, timeout);
  else it.skip(skippedName(name), body);
}

/** With TEST_DATABASE_URL set, the PostgreSQL project runs them; without, the name says how to. */
const skippedName = (name: string) => (process.env.TEST_DATABASE_URL ? name : `${name} (${MISSING_POSTGRES})`);
