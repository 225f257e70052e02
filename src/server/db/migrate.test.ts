import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../tests/support/factories.ts';
import { describeOnPostgres, openEmptyTestDatabase, openTestDatabase } from '../../../tests/support/test-database.ts';
import type { DatabaseHandle } from './client.ts';
import { migrateDatabase } from './migrate.ts';
import { chatRooms } from './schema/chat.ts';
import { tutorBids, tutoringRequests } from './schema/requests.ts';
import { subjects } from './schema/subjects.ts';
import { users } from './schema/auth.ts';

const EXPECTED_TABLES = [
  'users',
  'data_exports',
  'sessions',
  'accounts',
  'verifications',
  'rate_limits',
  'subjects',
  'teacher_specializations',
  'pending_specializations',
  'chat_rooms',
  'messages',
  'jitsi_meetings',
  'tutoring_requests',
  'tutor_bids',
  'notifications',
  'teacher_notifications',
  'student_notifications',
  'email_logs',
  'mail_outbox',
  'user_reports',
  'illegal_content_flags',
  'moderation_patterns',
  'admin_roles',
  'admin_permissions',
  'contact_messages',
];

/** Runs a statement that must fail, inside a savepoint so the test can go on. */
async function expectViolation(run: () => Promise<unknown>, constraint: RegExp) {
  const error = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'the database should refuse this').toBeDefined();
  const cause =
    (error as { cause?: { constraint?: string; message?: string } }).cause ?? (error as { constraint?: string });
  expect(`${cause.constraint ?? ''} ${(cause as { message?: string }).message ?? ''}`).toMatch(constraint);
}

describe('migrations', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase();
  });
  afterAll(() => handle.close());

  it('create every table of the product', async () => {
    const result = await handle.db.execute<{ table_name: string }>(
      sql`select table_name from information_schema.tables where table_schema = 'public'`,
    );
    expect(result.rows.map((row) => row.table_name)).toEqual(expect.arrayContaining(EXPECTED_TABLES));
  });

  it('are recorded, and running them again changes nothing', async () => {
    const count = async () =>
      Number(
        (await handle.db.execute<{ n: string }>(sql`select count(*) as n from drizzle.__drizzle_migrations`)).rows[0]!
          .n,
      );
    const before = await count();
    expect(before).toBeGreaterThan(0);
    await migrateDatabase(handle.pool);
    expect(await count()).toBe(before);
  });

  it('enforce the enumerations with check constraints', async () => {
    await expectViolation(() => createUser(handle.db, { role: 'admin' as never }), /users_role_check/);
    await expectViolation(() => createUser(handle.db, { vhNumber: 1000 }), /users_vh_number_check/);
  });

  it('allow one chat room per pair of users, in either order', async () => {
    const a = await createUser(handle.db);
    const b = await createUser(handle.db);
    await handle.db.insert(chatRooms).values({ participant1Id: a.id, participant2Id: b.id });
    await expectViolation(
      () => handle.db.insert(chatRooms).values({ participant1Id: b.id, participant2Id: a.id }),
      /chat_rooms/,
    );
    await expectViolation(
      () => handle.db.insert(chatRooms).values({ participant1Id: a.id, participant2Id: a.id }),
      /chat_rooms/,
    );
  });

  it('allow one bid per teacher and request, with a positive amount inside a valid budget', async () => {
    const student = await createUser(handle.db);
    const teacher = await createUser(handle.db, { role: 'teacher' });
    const [subject] = await handle.db.select().from(subjects).limit(1);
    const [request] = await handle.db
      .insert(tutoringRequests)
      .values({
        type: 'tutoring',
        subjectId: subject!.id,
        description: 'Help with limits',
        budgetMinCents: 800,
        budgetMaxCents: 1500,
        studentId: student.id,
      })
      .returning();
    await handle.db.insert(tutorBids).values({ requestId: request!.id, tutorId: teacher.id, amountCents: 1000 });
    await expectViolation(
      () => handle.db.insert(tutorBids).values({ requestId: request!.id, tutorId: teacher.id, amountCents: 1200 }),
      /tutor_bids/,
    );
    const other = await createUser(handle.db, { role: 'teacher' });
    await expectViolation(
      () => handle.db.insert(tutorBids).values({ requestId: request!.id, tutorId: other.id, amountCents: 0 }),
      /tutor_bids/,
    );
    await expectViolation(
      () =>
        handle.db.insert(tutoringRequests).values({
          type: 'homework' as never,
          subjectId: subject!.id,
          description: 'x',
          budgetMinCents: 800,
          budgetMaxCents: 1500,
          studentId: student.id,
        }),
      /tutoring_requests/,
    );
    await expectViolation(
      () =>
        handle.db.insert(tutoringRequests).values({
          type: 'tutoring',
          subjectId: subject!.id,
          description: 'x',
          budgetMinCents: 1500,
          budgetMaxCents: 800,
          studentId: student.id,
        }),
      /tutoring_requests/,
    );
  });

  it('cascade a deleted user to what they own', async () => {
    const user = await createUser(handle.db);
    const other = await createUser(handle.db);
    await handle.db.insert(chatRooms).values({ participant1Id: user.id, participant2Id: other.id });
    await handle.db.delete(users).where(sql`${users.id} = ${user.id}`);
    expect(await handle.db.$count(chatRooms, sql`${chatRooms.participant1Id} = ${user.id}`)).toBe(0);
  });
});

/** Common table expressions `student`, `teacher` and `subject` that write one of each, for rows of an old release. */
const oldStudentTeacherAndSubject = sql`student as (
    insert into users (name, email, username, vh_number) values ('Old Student', 'old-student@example.com', 'oldstudent', 101)
    returning id
  ), teacher as (
    insert into users (name, email, username, vh_number, role) values ('Old Teacher', 'old-teacher@example.com', 'oldteacher', 102, 'teacher')
    returning id
  ), subject as (
    insert into subjects (name, category) values ('Old Subject', 'Old Category') returning id
  )`;

/** A copy of the migrations that ends with `lastTag`: a database migrated with it is as old as that release. */
function migrationsUpTo(lastTag: string) {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'vh-migrations-'));
  cpSync(fileURLToPath(new URL('./migrations', import.meta.url)), folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const last = journal.entries.findIndex((entry) => entry.tag === lastTag);
  expect(last, `${lastTag} is a migration`).toBeGreaterThanOrEqual(0);
  writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, last + 1) }));
  return folder;
}

// Several nodes share only a PostgreSQL server: the embedded database belongs to the one process that holds it.
describeOnPostgres('migrations of nodes starting together', () => {
  it('are applied once: the second node waits for the first, then finds nothing left to do', async () => {
    const handle = await openEmptyTestDatabase();
    try {
      await Promise.all([migrateDatabase(handle.pool), migrateDatabase(handle.pool)]);
      const [applied] = (
        await handle.db.execute<{ entries: number; distinct: number }>(
          sql`select count(*)::int as entries, count(distinct hash)::int as distinct from drizzle.__drizzle_migrations`,
        )
      ).rows;
      expect(applied!.entries).toBeGreaterThan(0);
      expect(applied!.entries).toBe(applied!.distinct);
    } finally {
      await handle.close();
    }
  });
});

describe('migration 0016 (amounts in cents)', () => {
  it('converts the numeric budgets and bids of existing rows to exactly the same cents', async () => {
    const handle = await openEmptyTestDatabase();
    const oldMigrations = migrationsUpTo('0015_audit_log_append_only');
    try {
      await migrate(handle.db, { migrationsFolder: oldMigrations });
      // The rows as the numeric(10,2) columns held them, written in that release's own SQL.
      await handle.db.execute(sql`
        with ${oldStudentTeacherAndSubject}, request as (
          insert into tutoring_requests (type, subject_id, description, budget_min, budget_max, student_id)
          select 'assignment', subject.id, 'An assignment from before cents', 12.29, 9999, student.id from subject, student
          returning id, student_id
        ), bid as (
          insert into tutor_bids (request_id, tutor_id, amount) select request.id, teacher.id, 4999.99 from request, teacher
        )
        insert into student_notifications (student_id, request_id, tutor_name, bid_amount)
        select request.student_id, request.id, 'Old Teacher', 0.01 from request`);

      await migrateDatabase(handle.pool);

      const [row] = (
        await handle.db.execute<Record<string, number>>(sql`
          select r.budget_min_cents, r.budget_max_cents, b.amount_cents, n.bid_amount_cents
          from tutoring_requests r join tutor_bids b on b.request_id = r.id join student_notifications n on n.request_id = r.id`)
      ).rows;
      expect(row).toEqual({
        budget_min_cents: 1229,
        budget_max_cents: 999_900,
        amount_cents: 499_999,
        bid_amount_cents: 1,
      });
      const types = await handle.db.execute<{ column_name: string; data_type: string }>(sql`
        select column_name, data_type from information_schema.columns
        where column_name in ('budget_min_cents', 'budget_max_cents', 'amount_cents', 'bid_amount_cents')
          and table_name in ('tutoring_requests', 'tutor_bids', 'student_notifications')`);
      expect(new Set(types.rows.map((column) => column.data_type))).toEqual(new Set(['integer']));
      // The checks keep their meaning in cents: a bid of nothing and a maximum below the minimum are refused.
      await expectViolation(
        () => handle.db.execute(sql`update tutor_bids set amount_cents = 0`),
        /tutor_bids_amount_check/,
      );
      await expectViolation(
        () => handle.db.execute(sql`update tutoring_requests set budget_max_cents = 1228`),
        /tutoring_requests_budget_range_check/,
      );
    } finally {
      await handle.close();
      rmSync(oldMigrations, { recursive: true, force: true });
    }
  });

  it('rewrites each table it converts once, however large', async () => {
    const handle = await openEmptyTestDatabase();
    const oldMigrations = migrationsUpTo('0015_audit_log_append_only');
    const upTo0016 = migrationsUpTo('0016_amounts_in_cents');
    try {
      await migrate(handle.db, { migrationsFolder: oldMigrations });
      // Every rewrite of a table (a copy of all its rows, under a lock that stops readers too) is noted.
      await handle.db.execute(
        sql.raw(`
        create table table_rewrites (table_name text not null);
        create function note_table_rewrite() returns event_trigger language plpgsql as $$
        begin
          insert into table_rewrites values (pg_event_trigger_table_rewrite_oid()::regclass::text);
        end;
        $$;
        create event trigger note_table_rewrites on table_rewrite execute function note_table_rewrite();`),
      );

      await migrate(handle.db, { migrationsFolder: upTo0016 });

      const rewrites = await handle.db.execute<{ table_name: string; rewrites: number }>(sql`
        select table_name, count(*)::int as rewrites from table_rewrites group by table_name order by table_name`);
      expect(rewrites.rows).toEqual([
        { table_name: 'student_notifications', rewrites: 1 },
        { table_name: 'tutor_bids', rewrites: 1 },
        { table_name: 'tutoring_requests', rewrites: 1 },
      ]);
    } finally {
      await handle.close();
      rmSync(oldMigrations, { recursive: true, force: true });
      rmSync(upTo0016, { recursive: true, force: true });
    }
  });
});

describe('migration 0032 (receipt numbers)', () => {
  it('numbers the checkouts paid before it in the order of payment, and the next payment after them', async () => {
    const handle = await openEmptyTestDatabase();
    const oldMigrations = migrationsUpTo('0031_suspended_tutor_jobs');
    try {
      await migrate(handle.db, { migrationsFolder: oldMigrations });
      await handle.db.execute(sql`
        with ${oldStudentTeacherAndSubject}, request as (
          insert into tutoring_requests (type, subject_id, description, budget_min_cents, budget_max_cents, student_id)
          select 'tutoring', subject.id, 'A job from before receipts #' || n, 1000, 2000, student.id
          from subject, student, generate_series(1, 3) as n
          returning id, student_id, description
        ), bid as (
          insert into tutor_bids (request_id, tutor_id, amount_cents) select request.id, teacher.id, 1500 from request, teacher
          returning id, request_id, tutor_id
        )
        insert into checkouts (request_id, bid_id, student_id, tutor_id, amount_cents, provider, status, expires_at, paid_at)
        select bid.request_id, bid.id, request.student_id, bid.tutor_id, 1500, 'test',
          case when request.description like '%#3' then 'awaiting_payment' else 'paid' end,
          now() + interval '30 minutes',
          case request.description when 'A job from before receipts #1' then now() - interval '1 day'
            when 'A job from before receipts #2' then now() - interval '2 days' end
        from bid join request on request.id = bid.request_id`);

      await migrateDatabase(handle.pool);

      const numbered = await handle.db.execute<{ description: string; receipt_number: string | null }>(sql`
        select r.description, c.receipt_number from checkouts c join tutoring_requests r on r.id = c.request_id
        order by r.description`);
      expect(
        numbered.rows.map((row) => [row.description.slice(-2), row.receipt_number && Number(row.receipt_number)]),
      ).toEqual([
        ['#1', 2],
        ['#2', 1],
        ['#3', null],
      ]);
      const next = await handle.db.execute<{ n: string }>(sql`select nextval('receipt_numbers') as n`);
      expect(Number(next.rows[0]!.n)).toBe(3);
      // A paid checkout always has its number, and an unpaid one none.
      await expectViolation(
        () => handle.db.execute(sql`update checkouts set receipt_number = null where receipt_number = 1`),
        /checkouts_receipt_number_check/,
      );
    } finally {
      await handle.close();
      rmSync(oldMigrations, { recursive: true, force: true });
    }
  });
});
