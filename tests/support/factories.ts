import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { hashPassword, symmetricEncrypt } from 'better-auth/crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import type { AdminPermission, Role } from '#shared/constants.ts';
import type { Executor } from '../../src/server/db/client.ts';
import { adminPermissions, adminRoles } from '../../src/server/db/schema/admin.ts';
import { accounts, sessions, twoFactors, users, type NewUser } from '../../src/server/db/schema/auth.ts';
import { tutorBids, tutoringRequests, type NewTutoringRequest } from '../../src/server/db/schema/requests.ts';
import { reviews } from '../../src/server/db/schema/reviews.ts';
import { subjects, teacherSpecializations } from '../../src/server/db/schema/subjects.ts';
import { unsubscribeToken } from '../../src/server/features/notifications/unsubscribe.ts';
import { refreshResponseMinutes } from '../../src/server/features/tutors/service.ts';
import { TEST_ADMIN, TEST_AUTH_SECRET } from './test-config.ts';
import { base32Encode } from './totp.ts';

export const DEFAULT_TEST_PASSWORD = 'Password1';
// Hashing is deliberately slow; every factory user shares one hash of the default password.
let defaultPasswordHash: Promise<string> | undefined;

const unique = () => randomBytes(5).toString('hex');

/** A confirmed user with a password account, written through the real database. */
export async function createUser(db: Executor, overrides: Partial<NewUser> & { role?: Role; password?: string } = {}) {
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
  await db
    .insert(accounts)
    .values({ userId: user!.id, accountId: user!.id, providerId: 'credential', password: await hash });
  return user!;
}

export const SESSION_COOKIE = 'vh.session_token';

/** A signed-in session for the user, as the value of the Cookie header (better-auth's signed cookie format). */
export async function createSessionCookie(
  db: Executor,
  userId: string,
  secret = TEST_AUTH_SECRET,
  { userAgent }: { userAgent?: string } = {},
) {
  const token = randomUUID().replaceAll('-', '');
  const [session] = await db
    .insert(sessions)
    .values({ userId, token, userAgent, expiresAt: new Date(Date.now() + 24 * 60 * 60 * 1000) })
    .returning({ id: sessions.id });
  const signature = createHmac('sha256', secret).update(token).digest('base64');
  return {
    sessionId: session!.id,
    name: SESSION_COOKIE,
    value: encodeURIComponent(`${token}.${signature}`),
    header: `${SESSION_COOKIE}=${encodeURIComponent(`${token}.${signature}`)}`,
  };
}

/** A subject of its own (unique name), so a test knows exactly which teachers teach it. */
export async function createSubject(db: Executor, overrides: Partial<typeof subjects.$inferInsert> = {}) {
  const [subject] = await db
    .insert(subjects)
    .values({ name: `Subject ${unique()}`, category: 'Test subjects', ...overrides })
    .returning();
  return subject!;
}

/** The ids of seeded subjects, in the order of their names. */
export async function subjectIdsNamed(db: Executor, names: string[]) {
  const rows = await db
    .select({ id: subjects.id, name: subjects.name })
    .from(subjects)
    .where(inArray(subjects.name, names));
  return names.map((name) => rows.find((row) => row.name === name)!.id);
}

/** A confirmed teacher who teaches these subjects (teacher_specializations rows). */
export async function createTeacher(
  db: Executor,
  { subjectIds, ...overrides }: Partial<NewUser> & { subjectIds: string[] },
) {
  const teacher = await createUser(db, { ...overrides, role: 'teacher' });
  if (subjectIds.length > 0)
    await db
      .insert(teacherSpecializations)
      .values(subjectIds.map((subjectId) => ({ teacherId: teacher.id, subjectId })));
  return teacher;
}

/** A request written straight to the database (no notifications): a valid open tutoring request unless overridden. */
export async function createRequest(
  db: Executor,
  overrides: Partial<NewTutoringRequest> & { studentId: string; subjectId: string },
) {
  const [request] = await db
    .insert(tutoringRequests)
    .values({
      type: 'tutoring',
      description: `Help me understand ${unique()}`,
      budgetMinCents: 800,
      budgetMaxCents: 1500,
      // A completed request carries the time it was completed (the table's check holds the two together).
      ...(overrides.status === 'completed' ? { completedAt: new Date() } : {}),
      ...overrides,
    })
    .returning();
  return request!;
}

/** A tutor's offer on a request: pending, $12 unless said otherwise. */
export async function createBid(
  db: Executor,
  overrides: Partial<typeof tutorBids.$inferInsert> & { requestId: string; tutorId: string },
) {
  const [bid] = await db
    .insert(tutorBids)
    .values({ amountCents: 1200, ...overrides })
    .returning();
  // As placing a bid leaves the tutor's response time.
  await refreshResponseMinutes(db, overrides.tutorId);
  return bid!;
}

/**
 * A completed job between a new student and a new teacher (or the pair given) with the student's review of it,
 * written straight to the database with the teacher's counters as the service would leave them; `toLookAt` lists the
 * review for the admins as the service would for a young pair with several paid jobs.
 */
export async function createReviewedJob(
  db: Executor,
  {
    rating = 4,
    pair,
    toLookAt = false,
  }: { rating?: number; pair?: { studentId: string; tutorId: string }; toLookAt?: boolean } = {},
) {
  const subject = await createSubject(db);
  const student = pair ? { id: pair.studentId } : await createUser(db, { role: 'student' });
  const tutor = pair ? { id: pair.tutorId } : await createTeacher(db, { subjectIds: [subject.id] });
  const request = await createRequest(db, { studentId: student.id, subjectId: subject.id });
  const bid = await createBid(db, { requestId: request.id, tutorId: tutor.id, amountCents: 1000, status: 'accepted' });
  await db
    .update(tutoringRequests)
    .set({ status: 'completed', acceptedBidId: bid.id, completedAt: new Date() })
    .where(eq(tutoringRequests.id, request.id));
  const [review] = await db
    .insert(reviews)
    .values({ requestId: request.id, studentId: student.id, bidId: bid.id, tutorId: tutor.id, rating, toLookAt })
    .returning();
  await db
    .update(users)
    .set({
      jobsCompleted: sql`${users.jobsCompleted} + 1`,
      reviewCount: sql`${users.reviewCount} + 1`,
      reviewRatingSum: sql`${users.reviewRatingSum} + ${rating}`,
    })
    .where(eq(users.id, tutor.id));
  return { student, tutor, requestId: request.id, review: review! };
}

let clientAddresses = 0;
/** A client address not used before in this test file: rate-limited routes give each address its own budget. */
export const freshClientAddress = () =>
  `10.${Math.floor(++clientAddresses / 62500) % 250}.${Math.floor(clientAddresses / 250) % 250}.${(clientAddresses % 250) + 1}`;

/** A sub-admin (an ordinary account given an admin role) with these permissions. */
export async function createSubAdmin(db: Executor, permissions: AdminPermission[] = [], roleName = 'moderator') {
  const user = await createUser(db);
  const [role] = await db.insert(adminRoles).values({ userId: user.id, roleName }).returning();
  if (permissions.length > 0) {
    await db.insert(adminPermissions).values(permissions.map((permission) => ({ adminRoleId: role!.id, permission })));
  }
  return user;
}

/**
 * The second factor of every account the factories enrol: better-auth keeps the raw 32-character secret (encrypted),
 * an authenticator app gets it base32-encoded. Backup codes in better-auth's `xxxxx-xxxxx` form.
 */
const TEST_TOTP_RAW_SECRET = 'TestSecondFactorSecret0123456789';
export const TEST_TOTP_SECRET = base32Encode(Buffer.from(TEST_TOTP_RAW_SECRET));
export const TEST_BACKUP_CODES = ['abcde-12345', 'fghij-67890'];

/** Turns on the user's second factor as a confirmed enrolment leaves it (idempotent), with the test secret. */
export async function enrolSecondFactor(db: Executor, userId: string, secret = TEST_AUTH_SECRET) {
  await db
    .insert(twoFactors)
    .values({
      userId,
      secret: await symmetricEncrypt({ key: secret, data: TEST_TOTP_RAW_SECRET }),
      backupCodes: await symmetricEncrypt({ key: secret, data: JSON.stringify(TEST_BACKUP_CODES) }),
    })
    .onConflictDoNothing();
  await db.update(users).set({ twoFactorEnabled: true }).where(eq(users.id, userId));
}

/** The seeded super-admin (ADMIN_EMAIL of the test config), with the second factor the panel requires. */
export async function enrolledSuperAdminId(db: Executor) {
  const [admin] = await db.select({ id: users.id }).from(users).where(eq(users.email, TEST_ADMIN.email));
  await enrolSecondFactor(db, admin!.id);
  return admin!.id;
}

/** A session cookie of the seeded super-admin, enrolled in the second factor. */
export async function createSuperAdminCookie(db: Executor) {
  const userId = await enrolledSuperAdminId(db);
  return { userId, ...(await createSessionCookie(db, userId)) };
}

/** The signed token of a user's one-click unsubscribe from a kind of news, as its mails carry it (URL-encoded). */
export const unsubscribeTokenOf = (userId: string, topic: string) =>
  encodeURIComponent(unsubscribeToken(TEST_AUTH_SECRET, userId, topic));
