import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../tests/support/factories.ts';
import { openTestDatabase } from '../../../tests/support/test-database.ts';
import type { DatabaseHandle } from './client.ts';
import { migrateDatabase } from './migrate.ts';
import { chatRooms } from './schema/chat.ts';
import { tutorBids, tutoringRequests } from './schema/requests.ts';
import { subjects } from './schema/subjects.ts';
import { users } from './schema/auth.ts';

const EXPECTED_TABLES = [
  'users',
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
        budgetMin: 8,
        budgetMax: 15,
        studentId: student.id,
      })
      .returning();
    await handle.db.insert(tutorBids).values({ requestId: request!.id, tutorId: teacher.id, amount: 10 });
    await expectViolation(
      () => handle.db.insert(tutorBids).values({ requestId: request!.id, tutorId: teacher.id, amount: 12 }),
      /tutor_bids/,
    );
    const other = await createUser(handle.db, { role: 'teacher' });
    await expectViolation(
      () => handle.db.insert(tutorBids).values({ requestId: request!.id, tutorId: other.id, amount: 0 }),
      /tutor_bids/,
    );
    await expectViolation(
      () =>
        handle.db.insert(tutoringRequests).values({
          type: 'homework' as never,
          subjectId: subject!.id,
          description: 'x',
          budgetMin: 8,
          budgetMax: 15,
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
          budgetMin: 15,
          budgetMax: 8,
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
