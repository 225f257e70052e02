import { desc, eq } from 'drizzle-orm';
import { adminMessages, type AdminUser } from '#shared/schemas/admin.ts';
import type { Database, Executor } from '../../db/client.ts';
import { adminRoles } from '../../db/schema/admin.ts';
import { sessions, users } from '../../db/schema/auth.ts';
import { tutorBids, tutoringRequests } from '../../db/schema/requests.ts';
import { subjects } from '../../db/schema/subjects.ts';
import { AppError } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { countRefusedAttempts } from '../moderation/service.ts';
import { recordAdminAction } from './audit.ts';
import { listFlagsOfUser, listReportsOfUser } from './moderation-queue.ts';

// A user's page in the panel, and suspending or reinstating them.

/** How many of a user's latest requests and bids the page shows. */
const RECENT_ITEMS = 10;
type Actor = Pick<SessionUser, 'id' | 'username'>;

/**
 * Profile, role, VH number, latest requests and bids, reports by and against them, flags and the count of refused
 * attempts: 404 unknown or system.
 */
export async function getAdminUser({ db, userId }: { db: Executor; userId: string }): Promise<AdminUser> {
  const [profile] = await db
    .select({
      id: users.id,
      username: users.username,
      email: users.email,
      fullName: users.fullName,
      role: users.role,
      vhNumber: users.vhNumber,
      image: users.image,
      createdAt: users.createdAt,
      isSystem: users.isSystem,
      adminRole: adminRoles.roleName,
      suspendedAt: users.suspendedAt,
      suspensionReason: users.suspensionReason,
    })
    .from(users)
    .leftJoin(adminRoles, eq(adminRoles.userId, users.id))
    .where(eq(users.id, userId));
  if (!profile || profile.isSystem) throw new AppError('NOT_FOUND');

  const [requests, bids, reports, flags, refusedAttempts] = await Promise.all([
    db
      .select({
        id: tutoringRequests.id,
        type: tutoringRequests.type,
        subjectName: subjects.name,
        status: tutoringRequests.status,
        createdAt: tutoringRequests.createdAt,
      })
      .from(tutoringRequests)
      .innerJoin(subjects, eq(subjects.id, tutoringRequests.subjectId))
      .where(eq(tutoringRequests.studentId, userId))
      .orderBy(desc(tutoringRequests.createdAt))
      .limit(RECENT_ITEMS),
    db
      .select({
        id: tutorBids.id,
        requestId: tutorBids.requestId,
        subjectName: subjects.name,
        amountCents: tutorBids.amountCents,
        status: tutorBids.status,
        createdAt: tutorBids.createdAt,
      })
      .from(tutorBids)
      .innerJoin(tutoringRequests, eq(tutoringRequests.id, tutorBids.requestId))
      .innerJoin(subjects, eq(subjects.id, tutoringRequests.subjectId))
      .where(eq(tutorBids.tutorId, userId))
      .orderBy(desc(tutorBids.createdAt))
      .limit(RECENT_ITEMS),
    listReportsOfUser({ db, userId }),
    listFlagsOfUser({ db, userId }),
    countRefusedAttempts({ db, userId }),
  ]);
  const { isSystem: _system, ...shown } = profile;
  return {
    profile: {
      ...shown,
      createdAt: profile.createdAt.toISOString(),
      suspendedAt: profile.suspendedAt?.toISOString() ?? null,
    },
    requests: requests.map((request) => ({ ...request, createdAt: request.createdAt.toISOString() })),
    bids: bids.map((bid) => ({ ...bid, createdAt: bid.createdAt.toISOString() })),
    reportsBy: reports.filter((report) => report.reporter?.id === userId),
    reportsAgainst: reports.filter((report) => report.reportedUser.id === userId),
    flags,
    refusedAttempts,
  };
}

/** The user, locked for the change: 404 unknown or system account, 409 an admin (who must lose the role first). */
async function lockUser(tx: Executor, userId: string) {
  const [user] = await tx
    .select({
      isSystem: users.isSystem,
      suspendedAt: users.suspendedAt,
      suspensionReason: users.suspensionReason,
    })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  if (!user || user.isSystem) throw new AppError('NOT_FOUND');
  if ((await tx.$count(adminRoles, eq(adminRoles.userId, userId))) > 0) {
    throw new AppError('CONFLICT', { message: adminMessages.adminNotSuspendable });
  }
  return user;
}

/**
 * Suspends a user with a reason: they cannot sign in any more, and every session of theirs is deleted in the same
 * transaction. Returns the ended sessions, whose sockets the caller closes after the commit.
 */
export async function suspendUser({
  db,
  actor,
  userId,
  reason,
}: {
  db: Database;
  actor: Actor;
  userId: string;
  reason: string;
}) {
  return db.transaction(async (tx) => {
    const before = await lockUser(tx, userId);
    if (before.suspendedAt) throw new AppError('CONFLICT', { message: adminMessages.alreadySuspended });
    await tx.update(users).set({ suspendedAt: new Date(), suspensionReason: reason }).where(eq(users.id, userId));
    const ended = await tx.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id });
    await recordAdminAction(tx, {
      actor,
      action: 'user.suspend',
      objectType: 'user',
      objectId: userId,
      before: { suspended: false },
      after: { suspended: true, reason },
    });
    return { endedSessionIds: ended.map((session) => session.id) };
  });
}

/** Lifts a suspension, with the reason for doing so: the user can sign in again. */
export async function reinstateUser({
  db,
  actor,
  userId,
  reason,
}: {
  db: Database;
  actor: Actor;
  userId: string;
  reason: string;
}) {
  await db.transaction(async (tx) => {
    const before = await lockUser(tx, userId);
    if (!before.suspendedAt) throw new AppError('CONFLICT', { message: adminMessages.notSuspended });
    await tx.update(users).set({ suspendedAt: null, suspensionReason: null }).where(eq(users.id, userId));
    await recordAdminAction(tx, {
      actor,
      action: 'user.reinstate',
      objectType: 'user',
      objectId: userId,
      before: { suspended: true, reason: before.suspensionReason },
      after: { suspended: false, reason },
    });
  });
}
