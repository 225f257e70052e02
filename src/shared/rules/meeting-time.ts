import { MEETING_START_GRACE_MS } from '../constants.ts';

// Meeting times: whether a start is still ahead, a meeting's status, and times as people read them (in the reader's
// own time zone, with the zone named).

/** A start time later than now (with MEETING_START_GRACE_MS of slack for the trip). */
export const isFutureStart = (startTime: string | Date, now = Date.now()) =>
  new Date(startTime).getTime() > now - MEETING_START_GRACE_MS;

export const MEETING_STATUSES = ['scheduled', 'completed', 'cancelled'] as const;
type MeetingStatus = (typeof MEETING_STATUSES)[number];

/** SPEC.md §4: Cancelled once cancelled, else Scheduled while the start is in the future, else Completed. */
export function meetingStatus(
  meeting: { startTime: string | Date; cancelledAt: string | Date | null },
  now = Date.now(),
): MeetingStatus {
  if (meeting.cancelledAt) return 'cancelled';
  return new Date(meeting.startTime).getTime() > now ? 'scheduled' : 'completed';
}

/** "Thu 27 Nov, 18:00 CET" in `timeZone` (the browser's own when omitted). */
export function meetingTimeLabel(date: Date | string, timeZone?: string) {
  const parts = new Intl.DateTimeFormat('en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
    ...(timeZone ? { timeZone } : {}),
  }).formatToParts(new Date(date));
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('weekday')} ${part('day')} ${part('month')}, ${part('hour')}:${part('minute')} ${part('timeZoneName')}`;
}

/** The zone's short name now ("CET", "GMT+5:30"), for the picker's hint. */
export function localZoneName(timeZone?: string) {
  return (
    new Intl.DateTimeFormat('en-GB', { timeZoneName: 'short', ...(timeZone ? { timeZone } : {}) })
      .formatToParts(new Date())
      .find((p) => p.type === 'timeZoneName')?.value ?? 'local time'
  );
}
