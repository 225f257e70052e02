import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/client.ts';
import { migrateDatabase } from '../../src/server/db/migrate.ts';
import { seedDatabase } from '../../src/server/db/seed.ts';
import { testConfig } from './test-config.ts';
import { withAdminClient } from './test-database.ts';

const silentLog = { info: () => undefined, warn: () => undefined };

async function prepare(handle: DatabaseHandle) {
  await migrateDatabase(handle.pool);
  await seedDatabase({ db: handle.db, config: testConfig(), log: silentLog, tellOperator: () => undefined });
}

/** Migrates and seeds one template database per run; each test file clones it (see test-database.ts). */
export default async function setup(project: TestProject) {
  const url = project.config.env.TEST_DATABASE_KIND === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;

  if (url) {
    const templateName = `vh_template_${randomBytes(6).toString('hex')}`;
    await withAdminClient(url, (client) => client.query(`create database ${templateName}`));
    const templateUrl = new URL(url);
    templateUrl.pathname = `/${templateName}`;
    const handle = await openDatabase({ kind: 'postgres', url: templateUrl.toString() });
    await prepare(handle);
    await handle.close();
    project.provide('databaseTemplate', { kind: 'postgres', url, templateName });
    return async () => {
      await withAdminClient(url, (client) => client.query(`drop database if exists ${templateName} with (force)`));
    };
  }

  const dir = mkdtempSync(path.join(os.tmpdir(), 'vh-template-'));
  const handle = await openDatabase({ kind: 'embedded', socketDir: dir });
  await prepare(handle);
  const templateFile = path.join(dir, 'template.tar');
  await handle.dump!(templateFile);
  await handle.close();
  project.provide('databaseTemplate', { kind: 'embedded', templateFile });
  return () => rmSync(dir, { recursive: true, force: true });
}
