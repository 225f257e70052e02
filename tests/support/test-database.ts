import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
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
    return openDatabase({
      kind: 'embedded',
      templateFile: template.templateFile,
      socketDir: mkdtempSync(path.join(os.tmpdir(), 'vh-sock-')),
    });
  }
  const name = `vh_test_${randomBytes(6).toString('hex')}`;
  await withAdminClient(template.url, (client) =>
    client.query(`create database ${name} template ${template.templateName}`),
  );
  const url = new URL(template.url);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ kind: 'postgres', url: url.toString() });
  return {
    ...handle,
    async close() {
      await handle.close();
      await withAdminClient(template.url, (client) => client.query(`drop database if exists ${name} with (force)`));
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
