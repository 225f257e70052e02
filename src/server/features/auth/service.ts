import { hashPassword } from 'better-auth/crypto';
import { createEmailVerificationToken } from 'better-auth/api';
import { eq, sql } from 'drizzle-orm';
import { VH_NUMBER } from '#shared/constants.ts';
import { errorMessages } from '#shared/errors.ts';
import {
  availabilityMessages,
  emailSchema,
  usernameSchema,
  type Availability,
  type RegisterInput,
  type RegisterResponse,
} from '#shared/schemas/auth.ts';
import type { Config } from '../../config.ts';
import type { Database, Executor } from '../../db/client.ts';
import { accounts, users } from '../../db/schema/auth.ts';
import { AppError } from '../../http/errors.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import type { Upload } from '../../http/upload.ts';
import { checkSpecializations, replaceSpecializations, withStoredAvatar } from '../profiles/service.ts';

export {
  assertPassword,
  confirmEmailChange,
  endDevice,
  endOtherDevices,
  listDevices,
  requestEmailChange,
} from './account-settings.ts';
export { eraseAccountRow, findLockedAccount, lockAccount, unlockAccount, type ErasedIdentity } from './account-lock.ts';
export { assertPasswordSignInAllowed, recordFailedSignIn } from './sign-in-lockout.ts';
import type { Auth } from './auth.ts';
import { EMAIL_CONFIRMATION_VALIDITY_HOURS, sendConfirmationMail } from './mails.ts';

// Names a user could pass off as staff or the assistant; "admin…" in any form.
const RESERVED_USERNAMES = new Set([
  'guruai',
  'guru',
  'support',
  'help',
  'helpdesk',
  'system',
  'root',
  'moderator',
  'mod',
  'staff',
  'team',
  'official',
  'virtualhelp',
  'security',
  'noreply',
  'postmaster',
]);
const isReservedUsername = (username: string) => username.startsWith('admin') || RESERVED_USERNAMES.has(username);

const takenUsername = () => new AppError('USERNAME_TAKEN', { fields: { name: errorMessages.USERNAME_TAKEN } });
const takenEmail = () => new AppError('EMAIL_TAKEN', { fields: { email: errorMessages.EMAIL_TAKEN } });

export async function checkUsernameAvailability({
  db,
  username,
}: {
  db: Executor;
  username: string;
}): Promise<Availability> {
  if (username === '') return { available: false, message: availabilityMessages.usernameRequired };
  const parsed = usernameSchema.safeParse(username);
  if (!parsed.success) return { available: false, message: parsed.error.issues[0]!.message };
  const taken = isReservedUsername(username) || (await db.$count(users, eq(users.username, username))) > 0;
  return taken
    ? { available: false, message: errorMessages.USERNAME_TAKEN }
    : { available: true, message: availabilityMessages.usernameAvailable };
}

export async function checkEmailAvailability({ db, email }: { db: Executor; email: string }): Promise<Availability> {
  if (!email.includes('@')) return { available: false, message: availabilityMessages.emailRequired };
  const parsed = emailSchema.safeParse(email);
  if (!parsed.success) return { available: false, message: parsed.error.issues[0]!.message };
  const taken = (await db.$count(users, eq(users.email, parsed.data))) > 0;
  return taken
    ? { available: false, message: errorMessages.EMAIL_TAKEN }
    : { available: true, message: availabilityMessages.emailAvailable };
}

/** The least-used VH number (ties broken at random), in one query. */
async function pickVhNumber(db: Executor) {
  const result = await db.execute<{ vh_number: number }>(sql`
    select n as vh_number from generate_series(${VH_NUMBER.min}::int, ${VH_NUMBER.max}::int) as n
    order by (select count(*) from ${users} where ${users.vhNumber} = n), random()
    limit 1`);
  return result.rows[0]!.vh_number;
}

/** The unique-constraint violation of a taken username or e-mail, as our 409; anything else as it was. */
function conflictFrom(error: unknown) {
  const cause =
    (error as { cause?: { code?: string; constraint?: string } }).cause ??
    (error as { code?: string; constraint?: string });
  if (cause.code !== '23505') return error;
  if (cause.constraint === 'users_username_unique') return takenUsername();
  if (cause.constraint === 'users_email_unique') return takenEmail();
  return error;
}

type RegisterAccountOptions = {
  db: Database;
  auth: Auth;
  config: Config;
  storage: Storage;
  input: RegisterInput;
  avatar: Upload | undefined;
};

/**
 * Creates a better-auth compatible account (user + credential account) with its VH number, the teacher's
 * specializations (saved now rather than held until the first sign-in: same result) and the avatar, in one
 * transaction; then queues the confirmation mail, or marks the e-mail confirmed when confirmation is off.
 */
export async function registerAccount({
  db,
  auth,
  config,
  storage,
  input,
  avatar,
}: RegisterAccountOptions): Promise<RegisterResponse> {
  const isTeacher = input.role === 'teacher';
  const subjectIds = isTeacher ? [...new Set(input.specializations)] : [];
  if (isTeacher) await checkSpecializations({ db, subjectIds, field: 'specializations' });
  if (isReservedUsername(input.name)) throw takenUsername();

  const requiresEmailConfirmation = config.auth.requireEmailConfirmation;
  const passwordHash = await hashPassword(input.password);
  const user = await withStoredAvatar({ storage, upload: avatar }, (image) =>
    db.transaction(async (tx) => {
      const [created] = await tx
        .insert(users)
        .values({
          name: input.name,
          username: input.name,
          email: input.email,
          role: input.role,
          vhNumber: await pickVhNumber(tx),
          image,
          emailVerified: !requiresEmailConfirmation,
          // The schema takes only a confirmation; this is the time of that consent.
          ageConfirmedAt: new Date(),
        })
        .returning({
          id: users.id,
          username: users.username,
          email: users.email,
          role: users.role,
          vhNumber: users.vhNumber,
        });
      await tx
        .insert(accounts)
        .values({ userId: created!.id, accountId: created!.id, providerId: 'credential', password: passwordHash });
      if (isTeacher) await replaceSpecializations({ db: tx, teacherId: created!.id, subjectIds });
      return created!;
    }),
  ).catch((error: unknown) => {
    throw conflictFrom(error);
  });

  if (requiresEmailConfirmation) {
    // better-auth's own token, so the link is its verify-email endpoint like every later confirmation mail.
    const context = await auth.$context;
    const token = await createEmailVerificationToken(
      context.secret,
      user.email,
      undefined,
      EMAIL_CONFIRMATION_VALIDITY_HOURS * 60 * 60,
    );
    await sendConfirmationMail({ db, config, email: user.email, token });
  }
  return { user, requiresEmailConfirmation };
}

/** The teacher confirms being 18 or older (for payouts); the first confirmation's time is kept. */
export async function confirmAdult({ db, userId }: { db: Executor; userId: string }) {
  const [user] = await db
    .update(users)
    .set({ adultConfirmedAt: sql`coalesce(${users.adultConfirmedAt}, now())` })
    .where(eq(users.id, userId))
    .returning({ adultConfirmedAt: users.adultConfirmedAt });
  return user!.adultConfirmedAt!;
}
