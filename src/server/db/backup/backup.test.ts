import { execFile } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  createReviewedJob,
  createSessionCookie,
  createSubAdmin,
  createUser,
} from '../../../../tests/support/factories.ts';
import { TINY_PNG, formData } from '../../../../tests/support/files.ts';
import { runToExit, startTestServerProcess } from '../../../../tests/support/server-process.ts';
import { connectSocket } from '../../../../tests/support/socket-client.ts';
import { withAdminClient } from '../../../../tests/support/test-database.ts';
import { uniqueWord } from '../../../../tests/support/words.ts';
import type { Database } from '../client.ts';
import * as schema from '../schema/index.ts';
import type { BackupManifest } from './archive.ts';
import { dumpPgliteSql } from './embedded-dump.ts';
import { dumpPostgres } from './postgres-tools.ts';

// `npm run backup` against the server as its own process while students chat, then `npm run restore` into a fresh
// data directory (and, on PostgreSQL, a throw-away database): every table and file must come back as the backup's
// own snapshot holds it.

const template = inject('databaseTemplate');
const onPostgres = template.kind === 'postgres';
const BACKUP = [process.execPath, '--import', 'tsx', 'scripts/backup.ts'];
const RESTORE = [process.execPath, '--import', 'tsx', 'scripts/restore.ts'];
const SENDERS = 6;
// Four messages a second from each: a backup on PostgreSQL can take well under a second.
const SEND_INTERVAL_MS = 250;
const run = promisify(execFile);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** One row in each table the chat load and the factories leave empty. */
async function fillEveryTable(db: Database, pool: pg.Pool) {
  const { student, tutor, requestId, review } = await createReviewedJob(db);
  const admin = await createSubAdmin(db, ['reports']);
  const statements: [string, unknown[]][] = [
    [`insert into verifications (identifier, value, expires_at) values ('backup', 'v', now() + interval '1 day')`, []],
    [`insert into rate_limits (key, count, last_request) values ('backup', 1, 0)`, []],
    [`insert into usage_counters (key, hits) values ('backup', 1)`, []],
    [`insert into contact_messages (name, email, subject, message) values ('B', 'b@example.com', 'Hi', 'Hello')`, []],
    [`insert into notifications (user_id, message) values ($1, 'A bid arrived')`, [student.id]],
    [
      `insert into teacher_notifications (teacher_id, request_id, subject_title, budget, description, job_url)
       values ($1, $2, 'Algebra', '$8 - $15', 'Help', '/jobs')`,
      [tutor.id, requestId],
    ],
    [
      `insert into student_notifications (student_id, request_id, tutor_id, tutor_name, bid_amount_cents)
       values ($1, $2, $3, 'Tutor', 1000)`,
      [student.id, requestId, tutor.id],
    ],
    [`insert into email_logs (recipient_email, notification_type, status) values ('b@example.com', 'bid', 'sent')`, []],
    [`insert into mail_outbox (to_address, subject, text_body) values ('b@example.com', 'Hi', 'Body')`, []],
    [
      `insert into user_reports (reporter_id, reported_user_id, reason, description) values ($1, $2, 'spam', 'Ads')`,
      [student.id, tutor.id],
    ],
    [`insert into illegal_content_flags (sender_id, flag_type, content) values ($1, 'other', 'x')`, [student.id]],
    [`insert into moderation_attempts (user_id, hour) values ($1, date_trunc('hour', now()))`, [student.id]],
    [`insert into moderation_patterns (pattern, category) values ('backupword', 'offensive')`, []],
    [`insert into pending_specializations (user_id) values ($1)`, [tutor.id]],
    [`insert into saved_tutors (student_id, tutor_id) values ($1, $2)`, [student.id, tutor.id]],
    [`insert into two_factors (user_id, secret, backup_codes) values ($1, 'sealed', 'sealed')`, [tutor.id]],
    [
      `insert into admin_audit_log (actor_id, action, object_type, object_id) values ($1, 'x', 'user', $2)`,
      [tutor.id, tutor.id],
    ],
    [`insert into socket_io_attachments (payload) values ('\\x00ff')`, []],
    [
      `with session as (
         insert into sessions (expires_at, token, user_id) values (now() + interval '1 day', 'backup-push', $1)
         returning id),
       subscription as (
         insert into push_subscriptions (user_id, session_id, endpoint, p256dh, auth)
         select $1, id, 'https://push.example.com/backup', 'key', 'secret' from session returning id)
       insert into push_deliveries (subscription_id, payload) select id, '{}'::jsonb from subscription`,
      [student.id],
    ],
    [
      `insert into notification_settings (user_id, topic, in_app, email, push) values ($1, 'news', true, true, false)`,
      [student.id],
    ],
    [`insert into visible_tabs (socket_id, user_id) values ('backup-socket', $1)`, [student.id]],
    [
      `insert into guru_question_turns (student_id, client_id, expires_at)
       values ($1, gen_random_uuid(), now() + interval '1 minute')`,
      [student.id],
    ],
    [
      `with meeting as (
         insert into jitsi_meetings (creator_id, title, meeting_id, join_url, start_time)
         values ($1, 'Lesson', 'vh-backup', 'https://meet.jit.si/vh-backup', now() + interval '2 days') returning id)
       insert into meeting_reminders (meeting_id, kind, due_at) select id, '24h', now() + interval '1 day' from meeting`,
      [tutor.id],
    ],
    [
      `insert into meeting_joins (meeting_id, user_id) select id, $1 from jitsi_meetings where meeting_id = 'vh-backup'`,
      [tutor.id],
    ],
    [
      `with checkout as (
         insert into checkouts (request_id, bid_id, student_id, tutor_id, amount_cents, provider, status, expires_at, paid_at, receipt_number)
         values ($2, $3, $1, $4, 1000, 'test', 'paid', now(), now(), nextval('receipt_numbers')) returning id)
       insert into refund_requests (request_id, checkout_id, student_id, tutor_id, reason, opened_by, status, held_cents)
       select $2, id, $1, $4, 'missed_deadline', $1, 'declined', 1000 from checkout`,
      [student.id, requestId, review.bidId, tutor.id],
    ],
    [
      `insert into test_provider_payments (provider_payment_id, idempotency_key, amount_cents, fee_cents)
       values ('test_backup', 'payment:backup', 1000, 59)`,
      [],
    ],
    [`insert into data_exports (user_id, status) values ($1, 'failed')`, [student.id]],
    [
      `insert into account_deletions (user_id, status, erase_after, restored_at) values ($1, 'restored', now(), now())`,
      [student.id],
    ],
    [
      `insert into stripe_events (id, type, object_id, processed_at)
       values ('evt_backup', 'payment_intent.succeeded', 'pi_backup', now())`,
      [],
    ],
    [
      `insert into stripe_connected_accounts (tutor_id, account_id, idempotency_key) values ($1, 'acct_backup', 'backup')`,
      [tutor.id],
    ],
    [`insert into stripe_transfers (request_id, tutor_id, amount_cents) values ($1, $2, 850)`, [requestId, tutor.id]],
    [
      `insert into payment_adjustments (request_id, checkout_id, student_id, tutor_id, admin_id, note, amount_cents,
         tutor_cents, commission_cents, status)
       select $1, id, $2, $3, $4, 'Backup', 100, 85, 15, 'failed' from checkouts where request_id = $1 limit 1`,
      [requestId, student.id, tutor.id, admin.id],
    ],
    [
      `insert into stripe_disputes (id, request_id, checkout_id, amount_cents, reason, stripe_status)
       select 'dp_backup', request_id, id, 1000, 'fraudulent', 'needs_response' from checkouts where request_id = $1`,
      [requestId],
    ],
    [
      `insert into payouts (tutor_id, amount_cents, provider, idempotency_key) values ($1, 1000, 'test', gen_random_uuid())`,
      [tutor.id],
    ],
    [
      `with paying as (insert into ledger_accounts (kind, owner_user_id) values ('student_payments', $1) returning id),
         held as (insert into ledger_accounts (kind, owner_request_id) values ('held_funds', $2) returning id),
         posting as (insert into ledger_transactions (idempotency_key, kind, request_id)
           values ('backup', 'payment', $2) returning id)
       insert into ledger_entries (transaction_id, line, account_id, amount_cents)
       select posting.id, 1, paying.id, -1000 from posting, paying
       union all select posting.id, 2, held.id, 1000 from posting, held`,
      [student.id, requestId],
    ],
  ];
  for (const [sql, values] of statements) await pool.query(sql, values);
}

/**
 * Students sending chat messages over their sockets; past the per-user ceiling of 60 a minute (a long backup on the
 * embedded database) their messages are refused and not counted.
 */
async function startChatLoad(url: string, db: Database) {
  const receiver = await createUser(db, { role: 'student' });
  const acks: { clientId: string; sentAt: number; latencyMs: number }[] = [];
  let running = true;
  const senders = await Promise.all(
    Array.from({ length: SENDERS }, async () => {
      const sender = await createUser(db, { role: 'student' });
      return connectSocket(url, { cookie: (await createSessionCookie(db, sender.id)).header });
    }),
  );
  const loops = senders.map(async (socket) => {
    while (running) {
      const clientId = randomUUID();
      const sentAt = Date.now();
      const ack = await socket
        .timeout(60_000)
        .emitWithAck('message:send', { clientId, receiverId: receiver.id, content: `load ${uniqueWord()}` });
      if (ack.ok) acks.push({ clientId, sentAt, latencyMs: Date.now() - sentAt });
      await delay(SEND_INTERVAL_MS);
    }
    socket.close();
  });
  return {
    acks,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** A dump's text without what differs between two runs of pg_dump (the key of its `\restrict` guard). */
const comparable = (dump: string) => dump.replace(/^\\(un)?restrict .*$/gm, '');

describe(`backups (${onPostgres ? 'PostgreSQL' : 'embedded database'})`, () => {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'vh-backup-test-'));
  const archive = path.join(scratch, 'backup.tar');
  let server: Awaited<ReturnType<typeof startTestServerProcess>>;
  let pool: pg.Pool;
  const throwAwayDatabases: string[] = [];

  /** A new empty database on the test server, dropped after the tests. */
  async function emptyDatabase() {
    if (template.kind !== 'postgres') throw new Error('PostgreSQL only');
    const name = `vh_restore_${randomBytes(6).toString('hex')}`;
    await withAdminClient(template.url, (client) => client.query(`create database ${name}`));
    throwAwayDatabases.push(name);
    const url = new URL(template.url);
    url.pathname = `/${name}`;
    return url.toString();
  }

  beforeAll(async () => {
    server = await startTestServerProcess();
    // The embedded database takes two connections beyond the server's own pool, which its periodic jobs fill at start.
    pool = new pg.Pool(
      server.databaseUrl
        ? { connectionString: server.databaseUrl }
        : { host: server.dataDir, port: 5432, user: 'postgres', database: 'postgres', max: 2 },
    );
  }, 180_000);
  afterAll(async () => {
    await pool.end();
    await server.stop();
    if (template.kind === 'postgres') {
      for (const name of throwAwayDatabases) {
        await withAdminClient(template.url, (client) => client.query(`drop database if exists ${name} with (force)`));
      }
    }
    rmSync(scratch, { recursive: true, force: true });
  });

  it('restores a backup taken under chat load, table for table and file for file', async () => {
    const db = drizzle(pool, { schema, casing: 'snake_case' });
    await fillEveryTable(db, pool);
    const uploader = await createUser(db, { role: 'student' });
    const uploaded = await fetch(`${server.url}/api/chat/uploads`, {
      method: 'POST',
      headers: { cookie: (await createSessionCookie(db, uploader.id)).header, origin: server.url },
      body: formData({}, { field: 'file', bytes: TINY_PNG, filename: 'photo.png', type: 'image/png' }),
    });
    expect(uploaded.status, await uploaded.clone().text()).toBe(201);
    // The secret a server generates when AUTH_SECRET is unset (this one has it set, and ignores the file).
    writeFileSync(path.join(server.dataDir, 'auth-secret'), 'generated secret', { mode: 0o600 });

    const load = await startChatLoad(server.url, db);
    while (load.acks.length < SENDERS) await delay(100);
    const acknowledgedBefore = load.acks.map((ack) => ack.clientId);
    const backupStarted = Date.now();
    const backup = await runToExit([...BACKUP, archive], {
      DATA_DIR: server.dataDir,
      DATABASE_URL: server.databaseUrl ?? '',
    });
    const backupEnded = Date.now();
    await load.stop();
    expect(backup.code, backup.output).toBe(0);
    // Sent while the backup ran, or waiting for its answer then.
    const during = load.acks.filter((ack) => ack.sentAt <= backupEnded && ack.sentAt + ack.latencyMs >= backupStarted);
    const before = load.acks.filter((ack) => ack.sentAt < backupStarted).map((ack) => ack.latencyMs);
    // Chat went on while the backup ran: the database was held only for its snapshot.
    expect(during.length).toBeGreaterThan(0);
    console.info(
      `backup under chat load: ${backupEnded - backupStarted} ms; ${during.length} messages acknowledged meanwhile, ` +
        `slowest ${Math.max(...during.map((ack) => ack.latencyMs))} ms (before: slowest ${Math.max(...before)} ms)`,
    );

    const restoredDir = path.join(scratch, 'restored');
    const restoredUrl = onPostgres ? await emptyDatabase() : undefined;
    const restore = await runToExit([...RESTORE, archive], { DATA_DIR: restoredDir, DATABASE_URL: restoredUrl ?? '' });
    expect(restore.code, restore.output).toBe(0);

    // The backup's own snapshot: the archive's dump and files, checked against what restore brought back.
    const unpacked = path.join(scratch, 'unpacked');
    mkdirSync(unpacked);
    await run('tar', ['-xf', archive, '-C', unpacked]);
    const manifest = JSON.parse(readFileSync(path.join(unpacked, 'manifest.json'), 'utf8')) as BackupManifest;
    const snapshotDump = path.join(unpacked, manifest.database.path);

    const restoredDb = restoredUrl ? undefined : await PGlite.create(path.join(restoredDir, 'db'));
    const restoredClient = restoredUrl ? new pg.Client({ connectionString: restoredUrl }) : undefined;
    await restoredClient?.connect();
    const query = async <T>(sql: string) =>
      restoredDb ? (await restoredDb.query<T>(sql)).rows : ((await restoredClient!.query(sql)).rows as T[]);
    try {
      // Every table holds rows, and the whole database (schema, every row, sequences) is the snapshot's.
      const tables = await query<{ name: string }>(
        `select table_schema || '.' || table_name as name from information_schema.tables
         where table_schema in ('public', 'drizzle') and table_type = 'BASE TABLE' order by 1`,
      );
      expect(tables.length).toBeGreaterThan(30);
      const empty = [];
      for (const { name } of tables) {
        const [counted] = await query<{ rows: number }>(`select count(*)::int as rows from ${name}`);
        if (counted?.rows === 0) empty.push(name);
      }
      expect(empty).toEqual([]);
      if (restoredDb) {
        expect(await dumpPgliteSql(restoredDb)).toBe(readFileSync(snapshotDump, 'utf8'));
      } else {
        const redump = path.join(scratch, 'restored.pgdump');
        await dumpPostgres(restoredUrl!, redump);
        const asSql = async (file: string) => comparable((await run('pg_restore', ['-f', '-', file])).stdout);
        expect(await asSql(redump)).toBe(await asSql(snapshotDump));
      }

      // A consistent snapshot: what was acknowledged before it began is in, and nothing the live database lacks.
      const restoredMessages = await query<{ client_id: string; content: string }>(
        `select client_id, content from messages where content like 'load %'`,
      );
      const restoredIds = new Set(restoredMessages.map((row) => row.client_id));
      expect(acknowledgedBefore.filter((clientId) => !restoredIds.has(clientId))).toEqual([]);
      const live = await pool.query<{ client_id: string; content: string }>(
        `select client_id, content from messages where content like 'load %'`,
      );
      const liveContent = new Map(live.rows.map((row) => [row.client_id, row.content]));
      expect(restoredMessages.filter((row) => liveContent.get(row.client_id) !== row.content)).toEqual([]);
    } finally {
      await restoredDb?.close();
      await restoredClient?.end();
    }

    // Every file as the manifest describes it, and the upload and the secret as they were.
    expect(manifest.files.map((file) => file.path)).toContain('auth-secret');
    expect(readFileSync(path.join(restoredDir, 'auth-secret'), 'utf8')).toBe('generated secret');
    for (const file of manifest.files) {
      const bytes = readFileSync(path.join(restoredDir, file.path));
      expect({ path: file.path, size: bytes.length, sha256: sha256(bytes) }).toEqual(file);
    }
    const { fileKey: key } = (await uploaded.json()) as { fileKey: string };
    expect(readFileSync(path.join(restoredDir, 'uploads', key))).toEqual(TINY_PNG);

    // A damaged archive is refused before anything is written.
    writeFileSync(path.join(unpacked, 'data', 'uploads', key), 'not the photo');
    const damaged = path.join(scratch, 'damaged.tar');
    await run('tar', ['-cf', damaged, '-C', unpacked, '.']);
    const elsewhere = path.join(scratch, 'elsewhere');
    const refused = await runToExit([...RESTORE, damaged], {
      DATA_DIR: elsewhere,
      DATABASE_URL: onPostgres ? await emptyDatabase() : '',
    });
    expect(refused.code).toBe(1);
    expect(refused.output).toContain(`The archive is damaged: data/uploads/${key} is not the file that was backed up.`);
    expect(existsSync(elsewhere)).toBe(false);
  }, 300_000);

  it('refuses a data directory or a database that is not empty, and writes nothing', async () => {
    // Refused before the archive is read, so any file stands in for one.
    const placeholder = path.join(scratch, 'placeholder.tar');
    writeFileSync(placeholder, 'not read');
    const used = path.join(scratch, 'used');
    mkdirSync(used);
    writeFileSync(path.join(used, 'notes.txt'), 'mine');
    const intoUsedDir = await runToExit([...RESTORE, placeholder], { DATA_DIR: used, DATABASE_URL: '' });
    expect(intoUsedDir.code).toBe(1);
    expect(intoUsedDir.output).toContain(`The data directory ${used} is not empty`);
    expect(readdirSync(used)).toEqual(['notes.txt']);

    if (server.databaseUrl) {
      const fresh = path.join(scratch, 'fresh');
      const intoUsedDatabase = await runToExit([...RESTORE, placeholder], {
        DATA_DIR: fresh,
        DATABASE_URL: server.databaseUrl,
      });
      expect(intoUsedDatabase.code).toBe(1);
      expect(intoUsedDatabase.output).toContain('The database of DATABASE_URL is not empty');
      expect(existsSync(fresh)).toBe(false);
    }
    expect(readdirSync(scratch).filter((entry) => entry.includes('.restoring-'))).toEqual([]);
  }, 60_000);
});
