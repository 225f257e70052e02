import { desc, eq, inArray, sql } from 'drizzle-orm';
import type { ModerationCategory } from '#shared/constants.ts';
import type { RefusedAttempts, RepeatedSender } from '#shared/schemas/admin.ts';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema/auth.ts';
import { illegalContentFlags, moderationAttempts } from '../../db/schema/moderation.ts';

// Every text the filter refuses is an attempt its sender made: all are counted, per user and hour, and the first few
// of each hour are kept with their text as illegal-content flags, so that no user can flood the admins' queue (200
// refused profile edits in a second made 200 flags before).

/** Flags kept for one user in one hour; the attempts past them are only counted. */
export const FLAGS_PER_USER_PER_HOUR = 3;
/** Attempts in the last 24 hours that put a user at the top of Illegal Content. */
export const REPEATED_ATTEMPTS = 3;
const SHOWN_REPEATED_SENDERS = 20;

/** The hour buckets since `hours` ago, this one included. */
const sinceHours = (hours: number) => sql`date_trunc('hour', now()) - make_interval(hours => ${hours - 1})`;

/**
 * Counts one refused attempt and, while the sender's hour has fewer than FLAGS_PER_USER_PER_HOUR, keeps it as a flag:
 * one statement, so racing attempts each get their own count.
 */
export async function recordRefusedAttempt(
  db: Executor,
  attempt: { senderId: string; roomId: string | null; text: string; category: ModerationCategory; message: string },
) {
  await db.execute(sql`
    with counted as (
      insert into ${moderationAttempts} (user_id, hour) values (${attempt.senderId}, date_trunc('hour', now()))
      on conflict (user_id, hour) do update set attempts = ${moderationAttempts}.attempts + 1
      returning attempts
    )
    insert into ${illegalContentFlags} (flag_type, content, description, sender_id, chat_room_id)
    select ${attempt.category}, ${attempt.text}, ${attempt.message}, ${attempt.senderId}, ${attempt.roomId}
    from counted where attempts <= ${FLAGS_PER_USER_PER_HOUR}`);
}

/** A user's refused attempts in the last 24 hours, 30 days and in all (hour by hour). */
export async function countRefusedAttempts({ db, userId }: { db: Executor; userId: string }): Promise<RefusedAttempts> {
  const sumSince = (hours: number) =>
    sql<number>`coalesce(sum(${moderationAttempts.attempts}) filter (where ${moderationAttempts.hour} >= ${sinceHours(hours)}), 0)::int`;
  const [counts] = await db
    .select({
      last24Hours: sumSince(24),
      last30Days: sumSince(24 * 30),
      total: sql<number>`coalesce(sum(${moderationAttempts.attempts}), 0)::int`,
    })
    .from(moderationAttempts)
    .where(eq(moderationAttempts.userId, userId));
  return counts!;
}

/** The users with REPEATED_ATTEMPTS or more refused attempts in the last 24 hours, most first, with their latest flag. */
export async function listRepeatedSenders({ db }: { db: Executor }): Promise<RepeatedSender[]> {
  const attempts = sql<number>`sum(${moderationAttempts.attempts})::int`;
  const senders = await db
    .select({ id: users.id, username: users.username, attempts })
    .from(moderationAttempts)
    .innerJoin(users, eq(users.id, moderationAttempts.userId))
    .where(sql`${moderationAttempts.hour} >= ${sinceHours(24)}`)
    .groupBy(users.id, users.username)
    .having(sql`${attempts} >= ${REPEATED_ATTEMPTS}`)
    .orderBy(desc(attempts), users.id)
    .limit(SHOWN_REPEATED_SENDERS);
  if (senders.length === 0) return [];
  // Each sender's latest flag, in one query.
  const latestFlags = await db
    .selectDistinctOn([illegalContentFlags.senderId], {
      senderId: illegalContentFlags.senderId,
      flagType: illegalContentFlags.flagType,
      content: illegalContentFlags.content,
      createdAt: illegalContentFlags.createdAt,
    })
    .from(illegalContentFlags)
    .where(
      inArray(
        illegalContentFlags.senderId,
        senders.map((sender) => sender.id),
      ),
    )
    .orderBy(illegalContentFlags.senderId, desc(illegalContentFlags.createdAt));
  return senders.map(({ id, username, attempts: count }) => {
    const latest = latestFlags.find((flag) => flag.senderId === id);
    return {
      user: { id, username },
      attempts: count,
      latest: latest
        ? { flagType: latest.flagType, content: latest.content, createdAt: latest.createdAt.toISOString() }
        : null,
    };
  });
}
