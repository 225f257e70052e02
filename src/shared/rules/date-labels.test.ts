import { describe, expect, it } from 'vitest';
import { dateSeparatorLabel, messageTimeLabel } from './date-labels.ts';

const now = new Date(2026, 10, 21, 12, 0, 0); // Saturday 21 November 2026, 12:00 local time
const ago = (ms: number) => new Date(now.getTime() - ms);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('messageTimeLabel', () => {
  it('is relative under 24 hours', () => {
    expect(messageTimeLabel(ago(10_000), now)).toBe('just now');
    expect(messageTimeLabel(ago(5 * MINUTE), now)).toBe('5 minutes ago');
    expect(messageTimeLabel(ago(3 * HOUR), now)).toBe('3 hours ago');
    expect(messageTimeLabel(ago(23 * HOUR + 59 * MINUTE), now)).toBe('24 hours ago');
  });

  it('is the weekday and time from 24 hours to 7 days', () => {
    expect(messageTimeLabel(new Date(2026, 10, 20, 9, 5), now)).toBe('Friday 09:05');
    expect(messageTimeLabel(new Date(2026, 10, 15, 18, 30), now)).toBe('Sunday 18:30');
  });

  it('is the full date from 7 days on', () => {
    expect(messageTimeLabel(new Date(2026, 10, 14, 11, 0), now)).toBe('14 November 2026, 11:00');
    expect(messageTimeLabel(new Date(2024, 2, 18, 14, 5), now)).toBe('18 March 2024, 14:05');
  });

  it('accepts ISO strings', () => {
    expect(messageTimeLabel(ago(2 * HOUR).toISOString(), now)).toBe('2 hours ago');
  });
});

describe('dateSeparatorLabel', () => {
  it('names today, yesterday, recent weekdays and older dates', () => {
    expect(dateSeparatorLabel(new Date(2026, 10, 21, 0, 1), now)).toBe('Today');
    expect(dateSeparatorLabel(new Date(2026, 10, 20, 23, 59), now)).toBe('Yesterday');
    expect(dateSeparatorLabel(new Date(2026, 10, 17, 8, 0), now)).toBe('Tuesday, 17 November');
    expect(dateSeparatorLabel(new Date(2025, 0, 2), now)).toBe('2 January 2025');
  });
});
