import { differenceInCalendarDays, format, formatDistanceStrict } from 'date-fns';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A message's time (SPEC.md §2 "Dates"): relative under 24 hours ("5 minutes ago"), weekday and time under
 * 7 days ("Monday 14:05"), otherwise the full date ("18 March 2024, 14:05").
 */
export function messageTimeLabel(date: Date | string, now: Date = new Date()) {
  const at = new Date(date);
  const age = now.getTime() - at.getTime();
  if (age < 60_000) return 'just now';
  if (age < DAY_MS) return formatDistanceStrict(at, now, { addSuffix: true });
  if (age < 7 * DAY_MS) return format(at, 'EEEE HH:mm');
  return format(at, 'd MMMM yyyy, HH:mm');
}

/** The separator above a day's first message: Today, Yesterday, or the date. */
export function dateSeparatorLabel(date: Date | string, now: Date = new Date()) {
  const at = new Date(date);
  const days = differenceInCalendarDays(now, at);
  if (days === 0) return 'Today';
  if (days === 1) return 'Yesterday';
  return format(at, days < 7 && days > 0 ? 'EEEE, d MMMM' : 'd MMMM yyyy');
}
