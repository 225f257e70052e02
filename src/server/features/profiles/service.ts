import { randomUUID } from 'node:crypto';
import { asc, eq, inArray } from 'drizzle-orm';
import { specializationMessages, specializationProblem } from '#shared/rules/specializations.ts';
import type { Profile, TutorListing } from '#shared/schemas/profiles.ts';
import type { TutorAbout } from '#shared/schemas/reviews.ts';
import type { Database, Executor } from '../../db/client.ts';
import { users } from '../../db/schema/auth.ts';
import { subjects, teacherSpecializations } from '../../db/schema/subjects.ts';
import { AppError, fieldError } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { enforceUserLimit } from '../../platform/limits/usage-limits.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import type { Upload } from '../../http/upload.ts';
import { holdSession } from '../../platform/sessions/hold-session.ts';
import type { Moderation } from '../moderation/service.ts';

// Avatars are public images served by GET /api/files/avatars/:name; `users.image` holds that URL.
const AVATAR_URL_PREFIX = '/api/files/avatars/';
const avatarKey = (name: string) => `avatars/${name}`;

/** The storage key of the avatar a `users.image` URL names, or null when it names none of ours. */
export const avatarKeyOf = (image: string | null) =>
  image?.startsWith(AVATAR_URL_PREFIX) ? avatarKey(image.slice(AVATAR_URL_PREFIX.length)) : null;

const subjectColumns = { id: subjects.id, name: subjects.name, category: subjects.category };

export async function listSubjects({ db }: { db: Executor }) {
  return db.select(subjectColumns).from(subjects).orderBy(asc(subjects.category), asc(subjects.name));
}

async function listSpecializations({ db, teacherId }: { db: Executor; teacherId: string }) {
  return db
    .select(subjectColumns)
    .from(teacherSpecializations)
    .innerJoin(subjects, eq(subjects.id, teacherSpecializations.subjectId))
    .where(eq(teacherSpecializations.teacherId, teacherId))
    .orderBy(asc(subjects.category), asc(subjects.name));
}

export async function getProfile({ db, userId }: { db: Executor; userId: string }): Promise<Profile> {
  const [user] = await db
    .select({
      id: users.id,
      username: users.username,
      email: users.email,
      role: users.role,
      vhNumber: users.vhNumber,
      image: users.image,
      headline: users.headline,
      about: users.about,
      hourlyRateCents: users.hourlyRateCents,
      isVisibleToVisitors: users.isVisibleToVisitors,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) throw new AppError('NOT_FOUND');
  const specializations = user.role === 'teacher' ? await listSpecializations({ db, teacherId: userId }) : [];
  return { ...user, specializations };
}

/** Refuses unknown subjects and choices against the category rule, as a 400 on `field`. */
export async function checkSpecializations({
  db,
  subjectIds,
  field,
}: {
  db: Executor;
  subjectIds: string[];
  field: string;
}) {
  const chosen =
    subjectIds.length === 0
      ? []
      : await db.select({ category: subjects.category }).from(subjects).where(inArray(subjects.id, subjectIds));
  if (chosen.length !== subjectIds.length) throw fieldError(field, specializationMessages.unknown);
  const problem = specializationProblem(chosen.map((subject) => subject.category));
  if (problem) throw fieldError(field, problem);
}

/** Replaces the teacher's subjects; ids must already be checked (checkSpecializations) and unique. */
export async function replaceSpecializations({
  db,
  teacherId,
  subjectIds,
}: {
  db: Executor;
  teacherId: string;
  subjectIds: string[];
}) {
  await db.delete(teacherSpecializations).where(eq(teacherSpecializations.teacherId, teacherId));
  if (subjectIds.length > 0)
    await db.insert(teacherSpecializations).values(subjectIds.map((subjectId) => ({ teacherId, subjectId })));
}

export async function updateSpecializations({
  db,
  user,
  subjectIds,
}: {
  db: Database;
  user: SessionUser;
  subjectIds: string[];
}) {
  if (user.role !== 'teacher') throw new AppError('FORBIDDEN', { message: 'Only teachers have specializations.' });
  await enforceUserLimit(db, user.id, 'profileEdits');
  const unique = [...new Set(subjectIds)];
  await checkSpecializations({ db, subjectIds: unique, field: 'subjectIds' });
  await db.transaction((tx) => replaceSpecializations({ db: tx, teacherId: user.id, subjectIds: unique }));
  return listSpecializations({ db, teacherId: user.id });
}

/** A teacher's headline and about text for their public page, moderated like chat (no contact details). */
export async function updateTutorAbout({
  db,
  moderation,
  user,
  input,
}: {
  db: Database;
  moderation: Moderation;
  user: SessionUser;
  input: TutorAbout;
}): Promise<TutorAbout> {
  if (user.role !== 'teacher') throw new AppError('FORBIDDEN', { message: 'Only teachers have a public profile.' });
  await enforceUserLimit(db, user.id, 'profileEdits');
  for (const field of ['headline', 'about'] as const) {
    const text = input[field];
    if (text) await moderation.assertAllowed({ text, field, senderId: user.id, roomId: null });
  }
  await db.update(users).set(input).where(eq(users.id, user.id));
  return input;
}

/** A teacher's hourly rate and whether signed-out visitors see them in the directory and on their page. */
export async function updateTutorListing({
  db,
  user,
  input,
}: {
  db: Database;
  user: SessionUser;
  input: TutorListing;
}): Promise<TutorListing> {
  if (user.role !== 'teacher') throw new AppError('FORBIDDEN', { message: 'Only teachers have a public profile.' });
  await enforceUserLimit(db, user.id, 'profileEdits');
  await db.update(users).set(input).where(eq(users.id, user.id));
  return input;
}

/**
 * Stores the avatar (already checked against the avatar rules), then runs `write` with its public URL
 * (null without an avatar). When `write` fails the file is removed again, so a failure leaves nothing behind.
 */
export async function withStoredAvatar<T>(
  { storage, upload }: { storage: Storage; upload: Upload | undefined },
  write: (image: string | null) => Promise<T>,
): Promise<T> {
  const name = upload ? `${randomUUID()}.${upload.extension}` : null;
  if (upload && name) await storage.put(avatarKey(name), upload.path, upload.type);
  try {
    return await write(name ? `${AVATAR_URL_PREFIX}${name}` : null);
  } catch (error) {
    // A delete the store refuses too is logged there; the answer is the first failure.
    if (name) await storage.delete(avatarKey(name)).catch(() => undefined);
    throw error;
  }
}

/** Replaces the avatar while the session that sent it lasts: one still arriving when the account was locked is refused. */
export async function updateAvatar({
  db,
  storage,
  userId,
  sessionId,
  upload,
}: {
  db: Database;
  storage: Storage;
  userId: string;
  sessionId: string;
  upload: Upload;
}) {
  const { image, previous } = await withStoredAvatar({ storage, upload }, (image) =>
    db.transaction(async (tx) => {
      // The user's row first, as a deletion or a suspension locks it before it ends the sessions: held the other way
      // round, each would wait for the other.
      const [user] = await tx
        .select({ image: users.image })
        .from(users)
        .where(eq(users.id, userId))
        .for('no key update');
      await holdSession({ db: tx, userId, sessionId });
      await tx.update(users).set({ image }).where(eq(users.id, userId));
      return { image: image!, previous: user?.image ?? null };
    }),
  );
  // Only after the commit: until then the old picture is still the one in use.
  if (previous?.startsWith(AVATAR_URL_PREFIX))
    await storage.delete(avatarKey(previous.slice(AVATAR_URL_PREFIX.length)));
  return { image };
}

export async function getAvatar({ storage, name }: { storage: Storage; name: string }) {
  const file = await storage.get(avatarKey(name));
  if (!file) throw new AppError('NOT_FOUND');
  return file;
}
