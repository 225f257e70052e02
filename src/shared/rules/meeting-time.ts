// Meeting times as people read them: in the reader's own time zone, with the zone named.

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
