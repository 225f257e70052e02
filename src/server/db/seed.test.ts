import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from 'better-auth/crypto';
import { AI_USER_ID, MATHEMATICS_CATEGORY, SUPER_ADMIN_ROLE } from '#shared/constants.ts';
import { TEST_ADMIN, testConfig } from '../../../tests/support/test-config.ts';
import { openTestDatabase } from '../../../tests/support/test-database.ts';
import type { DatabaseHandle } from './client.ts';
import { seedDatabase } from './seed.ts';

const TABLES = ['users', 'accounts', 'admin_roles', 'subjects', 'moderation_patterns'] as const;

async function snapshot(handle: DatabaseHandle) {
  const result: Record<string, unknown[]> = {};
  for (const table of TABLES) {
    result[table] = (await handle.db.execute(sql.raw(`select * from ${table} order by id`))).rows;
  }
  return result;
}

describe('seed', () => {
  let handle: DatabaseHandle;
  const messages: string[] = [];
  const log = { info: (m: string) => messages.push(m), warn: (m: string) => messages.push(m) };
  const told: string[] = [];
  const tellOperator = (m: string) => told.push(m);
  beforeAll(async () => {
    handle = await openTestDatabase();
  });
  afterAll(() => handle.close());

  it('is idempotent: running it again leaves every row as it was', async () => {
    const before = await snapshot(handle);
    await seedDatabase({ db: handle.db, config: testConfig(), log, tellOperator });
    await seedDatabase({ db: handle.db, config: testConfig(), log, tellOperator });
    expect(await snapshot(handle)).toEqual(before);
  });

  it('creates the subject catalogue with Mathematics and at least six other categories', async () => {
    const rows = (
      await handle.db.execute<{ category: string; n: number }>(
        sql`select category, count(*)::int as n from subjects group by category`,
      )
    ).rows;
    expect(rows.find((row) => row.category === MATHEMATICS_CATEGORY)!.n).toBeGreaterThanOrEqual(10);
    expect(rows.filter((row) => row.category !== MATHEMATICS_CATEGORY && row.n >= 3).length).toBeGreaterThanOrEqual(6);
  });

  it('creates the active default moderation patterns and the Guru AI pseudo-user', async () => {
    expect(await handle.db.$count(sql`moderation_patterns` as never, sql`is_active`)).toBeGreaterThan(0);
    const ai = (await handle.db.execute(sql`select username, is_system from users where id = ${AI_USER_ID}`)).rows;
    expect(ai).toEqual([{ username: 'guruai', is_system: true }]);
  });

  it('creates the fixed super-admin with the configured password', async () => {
    const [admin] = (
      await handle.db.execute<{ role_name: string; password: string }>(sql`
        select r.role_name, a.password from users u
        join admin_roles r on r.user_id = u.id
        join accounts a on a.user_id = u.id and a.provider_id = 'credential'
        where u.email = ${TEST_ADMIN.email}`)
    ).rows;
    expect(admin!.role_name).toBe(SUPER_ADMIN_ROLE);
    expect(await verifyPassword({ hash: admin!.password, password: TEST_ADMIN.password })).toBe(true);
  });

  it('updates the admin password when ADMIN_PASSWORD changes', async () => {
    await seedDatabase({
      db: handle.db,
      config: testConfig({ ADMIN_PASSWORD: 'Changed-password-2' }),
      log,
      tellOperator,
    });
    const [row] = (
      await handle.db.execute<{ password: string }>(sql`
        select a.password from accounts a join users u on u.id = a.user_id where u.email = ${TEST_ADMIN.email}`)
    ).rows;
    expect(await verifyPassword({ hash: row!.password, password: 'Changed-password-2' })).toBe(true);
  });

  it('generates an admin password once, and prints it, when none is configured', async () => {
    messages.length = 0;
    await seedDatabase({
      db: handle.db,
      config: testConfig({ ADMIN_EMAIL: 'owner@example.com', ADMIN_PASSWORD: '' }),
      log,
      tellOperator,
    });
    const generated = told.find((m) => m.includes('owner@example.com'))?.match(/generated password: (\S+)/)?.[1];
    expect(generated).toBeDefined();
    // Shown to the operator, never written to the log.
    expect(messages.join('\n')).not.toContain(generated);
    const [row] = (
      await handle.db.execute<{ password: string }>(sql`
        select a.password from accounts a join users u on u.id = a.user_id where u.email = 'owner@example.com'`)
    ).rows;
    expect(await verifyPassword({ hash: row!.password, password: generated! })).toBe(true);
    messages.length = 0;
    await seedDatabase({
      db: handle.db,
      config: testConfig({ ADMIN_EMAIL: 'owner@example.com', ADMIN_PASSWORD: '' }),
      log,
      tellOperator,
    });
    expect(messages).toEqual([]);
  });

  it('takes the admin role from the earlier admin when ADMIN_EMAIL changes', async () => {
    await seedDatabase({ db: handle.db, config: testConfig({ ADMIN_EMAIL: 'first@example.com' }), log, tellOperator });
    await seedDatabase({ db: handle.db, config: testConfig({ ADMIN_EMAIL: 'second@example.com' }), log, tellOperator });
    const admins = await handle.db.execute<{ email: string }>(sql`
      select u.email from admin_roles r join users u on u.id = r.user_id where r.role_name = ${SUPER_ADMIN_ROLE}`);
    expect(admins.rows).toEqual([{ email: 'second@example.com' }]);
  });

  it('refuses to start when ADMIN_EMAIL belongs to an ordinary account, and promotes no one', async () => {
    await handle.db.execute(sql`
      insert into users (name, username, email, email_verified, vh_number, role)
      values ('Mallory', 'mallory', 'mallory@example.com', true, 555, 'student')`);
    await expect(
      seedDatabase({ db: handle.db, config: testConfig({ ADMIN_EMAIL: 'mallory@example.com' }), log, tellOperator }),
    ).rejects.toThrow(/ADMIN_EMAIL: mallory@example\.com belongs to an existing account that is not the admin/);
    const roles = await handle.db.execute(sql`
      select 1 from admin_roles r join users u on u.id = r.user_id where u.email = 'mallory@example.com'`);
    expect(roles.rows).toEqual([]);
  });
});
