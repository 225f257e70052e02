import { randomBytes } from 'node:crypto';
import { hashPassword, verifyPassword } from 'better-auth/crypto';
import { and, eq, like } from 'drizzle-orm';
import { AI_USER_ID, AI_USER_NAME, SUPER_ADMIN_ROLE, VH_NUMBER } from '#shared/constants.ts';
import type { Config } from '../config.ts';
import type { Database, Executor } from './client.ts';
import { adminRoles } from './schema/admin.ts';
import { accounts, users } from './schema/auth.ts';
import { moderationPatterns } from './schema/moderation.ts';
import { subjects } from './schema/subjects.ts';
import { DEFAULT_MODERATION_PATTERNS, SUBJECT_CATALOG } from './seed-data.ts';

type SeedLog = { info(message: string): void; warn(message: string): void };

/** Idempotent: safe on every start; a second run changes no row. */
export async function seedDatabase({ db, config, log }: { db: Database; config: Config; log: SeedLog }) {
  await db.transaction(async (tx) => {
    await tx
      .insert(subjects)
      .values(SUBJECT_CATALOG.flatMap(({ category, subjects: names }) => names.map((name) => ({ category, name }))))
      .onConflictDoNothing();
    await tx
      .insert(moderationPatterns)
      .values(DEFAULT_MODERATION_PATTERNS.map((p) => ({ ...p })))
      .onConflictDoNothing();
    await tx
      .insert(users)
      .values({
        id: AI_USER_ID,
        name: AI_USER_NAME,
        username: 'guruai',
        email: 'guru-ai@system.invalid',
        emailVerified: true,
        vhNumber: VH_NUMBER.min,
        isSystem: true,
      })
      .onConflictDoNothing();
    await ensureSuperAdmin({ db: tx, config, log });
  });
}

/** The fixed super-admin of ADMIN_EMAIL: created on first start, its password kept in step with ADMIN_PASSWORD. */
async function ensureSuperAdmin({ db, config, log }: { db: Executor; config: Config; log: SeedLog }) {
  const email = config.admin.email;
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  let userId = existing?.id;

  if (!userId) {
    const password = config.admin.password ?? randomBytes(12).toString('base64url');
    const [created] = await db
      .insert(users)
      .values({
        name: 'Administrator',
        username: await freeAdminUsername(db),
        email,
        emailVerified: true,
        vhNumber: VH_NUMBER.min,
      })
      .returning({ id: users.id });
    userId = created!.id;
    await db
      .insert(accounts)
      .values({ userId, accountId: userId, providerId: 'credential', password: await hashPassword(password) });
    if (!config.admin.password) {
      log.warn(
        `Created the admin account ${email} with the generated password: ${password} (shown once; set ADMIN_PASSWORD to choose one)`,
      );
    }
  } else if (config.admin.password) {
    const [account] = await db
      .select({ id: accounts.id, password: accounts.password })
      .from(accounts)
      .where(and(eq(accounts.userId, userId), eq(accounts.providerId, 'credential')));
    const matches = account?.password
      ? await verifyPassword({ hash: account.password, password: config.admin.password })
      : false;
    if (!matches) {
      const hash = await hashPassword(config.admin.password);
      if (account) await db.update(accounts).set({ password: hash }).where(eq(accounts.id, account.id));
      else await db.insert(accounts).values({ userId, accountId: userId, providerId: 'credential', password: hash });
      log.info(`Updated the password of the admin account ${email} from ADMIN_PASSWORD`);
    }
  }

  await db.insert(adminRoles).values({ userId, roleName: SUPER_ADMIN_ROLE }).onConflictDoNothing();
}

/** "admin", or "admin2", "admin3"… when an earlier ADMIN_EMAIL already holds it. */
async function freeAdminUsername(db: Executor) {
  const taken = new Set(
    (await db.select({ username: users.username }).from(users).where(like(users.username, 'admin%'))).map(
      (u) => u.username,
    ),
  );
  let candidate = 'admin';
  for (let n = 2; taken.has(candidate); n++) candidate = `admin${n}`;
  return candidate;
}
