import { randomBytes } from 'node:crypto';
import { hashPassword, verifyPassword } from 'better-auth/crypto';
import { and, eq, like, ne } from 'drizzle-orm';
import { AI_USER_ID, AI_USER_NAME, SUPER_ADMIN_ROLE, VH_NUMBER } from '#shared/constants.ts';
import { ConfigError, type Config } from '../config.ts';
import type { Database, Executor } from './client.ts';
import { adminRoles } from './schema/admin.ts';
import { accounts, users } from './schema/auth.ts';
import { moderationPatterns } from './schema/moderation.ts';
import { subjects } from './schema/subjects.ts';
import { DEFAULT_MODERATION_PATTERNS, SUBJECT_CATALOG } from './seed-data.ts';

type SeedLog = { info(message: string): void; warn(message: string): void };

type SeedOptions = {
  db: Database;
  config: Config;
  log: SeedLog;
  /** Shows a secret (the generated admin password) to the operator; it never goes to the log. */
  tellOperator: (message: string) => void;
};

/** Idempotent: safe on every start; a second run changes no row. */
export async function seedDatabase({ db, config, log, tellOperator }: SeedOptions) {
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
    await ensureSuperAdmin({ db: tx, config, log, tellOperator });
  });
}

/**
 * The fixed super-admin of ADMIN_EMAIL: created on first start, its password kept in step with ADMIN_PASSWORD.
 * Only that account is super-admin: when ADMIN_EMAIL changes, the earlier one loses the role. An address that already
 * belongs to an ordinary account is refused rather than silently promoted (whoever registered it would become admin).
 */
async function ensureSuperAdmin({ db, config, log, tellOperator }: Omit<SeedOptions, 'db'> & { db: Executor }) {
  const email = config.admin.email;
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  let userId = existing?.id;
  if (userId) {
    const isSuperAdmin = await db.$count(
      adminRoles,
      and(eq(adminRoles.userId, userId), eq(adminRoles.roleName, SUPER_ADMIN_ROLE)),
    );
    if (!isSuperAdmin) {
      throw new ConfigError([
        `ADMIN_EMAIL: ${email} belongs to an existing account that is not the admin; choose an address no account uses`,
      ]);
    }
  }

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
      log.warn(`Created the admin account ${email} with a generated password (set ADMIN_PASSWORD to choose one)`);
      tellOperator(
        `Admin account ${email}, generated password: ${password} (shown once; set ADMIN_PASSWORD to choose one)`,
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
  const revoked = await db
    .delete(adminRoles)
    .where(and(eq(adminRoles.roleName, SUPER_ADMIN_ROLE), ne(adminRoles.userId, userId)))
    .returning({ userId: adminRoles.userId });
  if (revoked.length > 0) log.warn(`ADMIN_EMAIL changed to ${email}: the earlier admin account is no longer admin`);
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
