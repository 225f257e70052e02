import { count, desc, sql } from 'drizzle-orm';
import type { AdminMeetingStats } from '#shared/schemas/admin.ts';
import type { Executor } from '../../db/client.ts';
import { meetings } from '../../db/schema/meetings.ts';

const RECENT_MEETINGS = 5;

/**
 * Meeting Statistics. Every meeting is held on the Jitsi host (JITSI_DOMAIN), so Jitsi Meetings counts the same rows
 * as Total Meetings; SPEC.md shows both. Status: Scheduled if the start is ahead, else Completed (or Cancelled).
 */
export async function getMeetingStats({ db }: { db: Executor }): Promise<AdminMeetingStats> {
  const [[totals], recent] = await Promise.all([
    db.select({ total: count() }).from(meetings),
    db
      .select({
        id: meetings.id,
        title: meetings.title,
        startTime: meetings.startTime,
        cancelledAt: meetings.cancelledAt,
        isAhead: sql<boolean>`${meetings.startTime} > now()`,
      })
      .from(meetings)
      .orderBy(desc(meetings.createdAt), desc(meetings.id))
      .limit(RECENT_MEETINGS),
  ]);
  return {
    totalMeetings: totals!.total,
    jitsiMeetings: totals!.total,
    recentMeetings: recent.map((meeting) => ({
      id: meeting.id,
      platform: 'Jitsi',
      title: meeting.title,
      startTime: meeting.startTime.toISOString(),
      status: meeting.cancelledAt ? 'Cancelled' : meeting.isAhead ? 'Scheduled' : 'Completed',
    })),
  };
}
