import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { localUploadsDir } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { accountDeletions } from '../../db/schema/account.ts';
import * as schema from '../../db/schema/index.ts';
import { runClaimedWorkOnce } from '../../platform/jobs/claimed-work.ts';
import { createLocalStorage } from '../../platform/storage/local-storage.ts';
import { createSessionCookie, createUser, DEFAULT_TEST_PASSWORD } from '../../../../tests/support/factories.ts';
import { formData, TINY_PNG } from '../../../../tests/support/files.ts';
import {
  runToExit,
  startServerProcessOn,
  startTestServerProcess,
  type ServerProcess,
} from '../../../../tests/support/server-process.ts';
import { withAdminClient } from '../../../../tests/support/test-database.ts';
import { columnsHolding } from '../../../../tests/support/traces.ts';
import { accountErasureWork } from './erasure.ts';

// A backup taken before an account was erased, restored with `npm run restore`, must not bring the person back: the
// server started the normal way on what was restored erases them again before it serves anyone or sends anything.

const template = inject('databaseTemplate');
const onPostgres = template.kind === 'postgres';
const BACKUP = [process.execPath, '--import', 'tsx', 'scripts/backup.ts'];
const RESTORE = [process.execPath, '--import', 'tsx', 'scripts/restore.ts'];
/** How long after the backup a mail to the person, queued before it, becomes due: after the restored server starts. */
const MAIL_DUE_AFTER_S = 15;

/** The database of a running server: its PostgreSQL database, or the embedded one through the server's socket. */
function connect(server: { dataDir: string; databaseUrl?: string }) {
  const pool = new pg.Pool(
    server.databaseUrl
      ? { connectionString: server.databaseUrl }
      : { host: server.dataDir, port: 5432, user: 'postgres', database: 'postgres', max: 2 },
  );
  return { pool, db: drizzle(pool, { schema, casing: 'snake_case' }) as unknown as Database };
}

/** Every file under `dir`, as paths inside it. */
const filesUnder = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));

describe(`an erased account in a restored backup (${onPostgres ? 'PostgreSQL' : 'embedded database'})`, () => {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'vh-erasure-restore-'));
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('is erased again when the server starts on the restore, before anything is served or sent', async () => {
    const first = await startTestServerProcess();
    cleanups.push(() => first.stop());
    const { dataDir } = first;
    const erasureLog = `${dataDir}.erasures.log`;
    cleanups.push(async () => rmSync(erasureLog, { force: true }));
    const live = connect(first);
    cleanups.push(() => live.pool.end());

    // A person with a profile, a picture and a file sent in a message.
    const username = `erasable${randomBytes(6).toString('hex')}`;
    const person = { username, name: username, email: `${username}@example.org`, fullName: 'Restorable Person' };
    const row = await createUser(live.db, { role: 'student', ...person, about: `I am ${person.fullName}` });
    const partner = await createUser(live.db, { role: 'student' });
    const headers = { cookie: (await createSessionCookie(live.db, row.id)).header, origin: first.url };
    const post = async (route: string, body: FormData | object) => {
      const response = await fetch(`${first.url}${route}`, {
        method: 'POST',
        headers: body instanceof FormData ? headers : { ...headers, 'content-type': 'application/json' },
        body: body instanceof FormData ? body : JSON.stringify(body),
      });
      expect(response.status, await response.clone().text()).toBeLessThan(300);
      return (await response.json()) as Record<string, string>;
    };
    const avatar = await post(
      '/api/profile/avatar',
      formData({}, { field: 'avatar', bytes: TINY_PNG, filename: 'me.png', type: 'image/png' }),
    );
    const avatarKey = avatar.image!.replace('/api/files/', '');
    const upload = await post(
      '/api/chat/uploads',
      formData({}, { field: 'file', bytes: TINY_PNG, filename: 'graph.png', type: 'image/png' }),
    );
    await post('/api/chat/messages', {
      clientId: randomUUID(),
      receiverId: partner.id,
      content: 'Here is my graph',
      attachment: { fileKey: upload.fileKey, originalFilename: upload.originalFilename },
    });
    // Waiting mails, to the person and to the partner naming the person (e.g. their mail server was down).
    for (const [to, text] of [
      [person.email, 'Your lesson is tomorrow'],
      [partner.email, `New message from ${person.username}`],
    ]) {
      await live.pool.query(
        `insert into mail_outbox (to_address, subject, text_body, next_attempt_at)
         values ($1, 'News', $2, now() + make_interval(secs => $3))`,
        [to, text, MAIL_DUE_AFTER_S],
      );
    }
    const mailDueAt = Date.now() + MAIL_DUE_AFTER_S * 1000;
    const traces = [person.email, person.username, person.fullName, upload.fileKey!, avatarKey];

    const archive = path.join(scratch, 'backup.tar');
    const backup = await runToExit([...BACKUP, archive], { DATA_DIR: dataDir, DATABASE_URL: first.databaseUrl ?? '' });
    expect(backup.code, backup.output).toBe(0);

    // Deletion asked after the backup; the 14 days go by (the deletion's clock moved back) and the erasure runs.
    await post('/api/account/deletion', { password: DEFAULT_TEST_PASSWORD });
    await live.db
      .update(accountDeletions)
      .set({ eraseAfter: new Date(Date.now() - 1000) })
      .where(eq(accountDeletions.userId, row.id));
    const storage = createLocalStorage(localUploadsDir(dataDir));
    const work = accountErasureWork({ db: live.db, storage, erasureLog });
    expect(await runClaimedWorkOnce({ db: live.db, work, log: { error: () => undefined } })).toBe(1);
    for (const trace of traces) expect(await columnsHolding(live.db, trace)).toEqual([]);
    await live.pool.end();
    cleanups.pop();
    await first.stop();
    cleanups.pop();

    // The operator moves the data directory aside and restores into its place (the erasure log is beside it).
    renameSync(dataDir, `${dataDir}.before-restore`);
    cleanups.push(async () => rmSync(`${dataDir}.before-restore`, { recursive: true, force: true }));
    let restoredUrl: string | undefined;
    if (template.kind === 'postgres') {
      const name = `vh_restored_${randomBytes(6).toString('hex')}`;
      await withAdminClient(template.url, (client) => client.query(`create database ${name}`));
      cleanups.push(() =>
        withAdminClient(template.url, (client) => client.query(`drop database if exists ${name} with (force)`)),
      );
      const url = new URL(template.url);
      url.pathname = `/${name}`;
      restoredUrl = url.toString();
    }
    const restore = await runToExit([...RESTORE, archive], { DATA_DIR: dataDir, DATABASE_URL: restoredUrl ?? '' });
    expect(restore.code, restore.output).toBe(0);
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const uploads = localUploadsDir(dataDir);
    // The backup brought the person's files back, and the mail to them is due by the time the server starts.
    expect(existsSync(path.join(uploads, upload.fileKey!))).toBe(true);
    expect(existsSync(path.join(uploads, avatarKey))).toBe(true);
    await delay(Math.max(0, mailDueAt - Date.now()));

    const second: ServerProcess = await startServerProcessOn({ DATA_DIR: dataDir, DATABASE_URL: restoredUrl ?? '' });
    cleanups.push(() => second.stop());
    const restored = connect({ dataDir, databaseUrl: restoredUrl });
    cleanups.push(() => restored.pool.end());

    // Nothing went out from the restored outbox to the person or naming them (the dev outbox writes mails to files).
    const outbox = path.join(dataDir, 'outbox');
    const mailed = existsSync(outbox)
      ? filesUnder(outbox).map((file) => readFileSync(path.join(outbox, file), 'utf8'))
      : [];
    expect(mailed.filter((mail) => mail.includes(person.email) || mail.includes(person.username))).toEqual([]);
    for (const trace of traces) expect(await columnsHolding(restored.db, trace)).toEqual([]);
    expect(filesUnder(uploads).filter((file) => file === upload.fileKey || file === avatarKey)).toEqual([]);
    const [deletion] = await restored.db.select().from(accountDeletions).where(eq(accountDeletions.userId, row.id));
    expect(deletion).toMatchObject({ status: 'erased', erasedAt: expect.any(Date) });
    const [erasedUser] = await restored.db
      .execute<{ erased: boolean }>(sql`select erased_at is not null as erased from users where id = ${row.id}`)
      .then((result) => result.rows);
    expect(erasedUser).toEqual({ erased: true });

    // Signing in is refused (after the scans: a failed sign-in counts against the address it names).
    const signIn = await fetch(`${second.url}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: second.url },
      body: JSON.stringify({ email: person.email, password: DEFAULT_TEST_PASSWORD }),
    });
    expect(signIn.status).toBe(401);
  }, 600_000);
});
