import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { hashPassword } from 'better-auth/crypto';
import type { Role } from '#shared/constants.ts';
import type { Executor } from '../../src/server/db/client.ts';
import { accounts, sessions, users, type NewUser } from '../../src/server/db/schema/auth.ts';
import { TEST_AUTH_SECRET } from './test-config.ts';

export const DEFAULT_TEST_PASSWORD = 'Password1';
// Hashing is deliberately slow; every factory user shares one hash of the default password.
let defaultPasswordHash: Promise<string> | undefined;

const unique = () => randomBytes(5).toString('hex');

/** A confirmed user with a password account, written through the real database. */
export async function createUser(
  db: Executor,
  overrides: Partial<NewUser> & { role?: Role; password?: string } = {},
) {
  const { password, ...columns } = overrides;
  const suffix = unique();
  const [user] = await db
    .insert(users)
    .values({
      name: columns.username ?? `user${suffix}`,
      username: `user${suffix}`,
      email: `user${suffix}@example.com`,
      emailVerified: true,
      vhNumber: 100 + Math.floor(Math.random() * 900),
      ...columns,
    })
    .returning();
  const hash = password ? hashPassword(password) : (defaultPasswordHash ??= hashPassword(DEFAULT_TEST_PASSWORD));
  await db.insert(accounts).values({ userId: user!.id, accountId: user!.id, providerId: 'credential', password: await hash });
  return user!;
}

export const SESSION_COOKIE = 'vh.session_token';

/** A signed-in session for the user, as the value of the Cookie header (better-auth's signed cookie format). */
export async function createSessionCookie(db: Executor, userId: string, secret = TEST_AUTH_SECRET) {
  const token = randomUUID().replaceAll('-', '');
  await db.insert(sessions).values({ userId, token, expiresAt: new Date(Date.now() + 24 * 60 * 60 * 1000) });
  const signature = createHmac('sha256', secret).update(token).digest('base64');
  return { name: SESSION_COOKIE, value: encodeURIComponent(`${token}.${signature}`), header: `${SESSION_COOKIE}=${encodeURIComponent(`${token}.${signature}`)}` };
}
