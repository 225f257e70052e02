import { describe, expect, it } from 'vitest';
import { MEETING_START_GRACE_MS } from '../constants.ts';
import { isFutureStart, meetingStatus, meetingTimeLabel } from './meeting-time.ts';

describe('meeting times', () => {
  const start = '2026-11-27T17:00:00.000Z';
  it('names the reader’s zone with the time there', () => {
    expect(meetingTimeLabel(start, 'Europe/Berlin')).toBe('Fri 27 Nov, 18:00 CET');
    expect(meetingTimeLabel(start, 'UTC')).toBe('Fri 27 Nov, 17:00 UTC');
    expect(meetingTimeLabel(start, 'Asia/Kolkata')).toBe('Fri 27 Nov, 22:30 GMT+5:30');
    expect(meetingTimeLabel(start, 'America/New_York')).toBe('Fri 27 Nov, 12:00 GMT-5');
  });
});

describe('meeting status', () => {
  const now = Date.parse('2026-11-27T17:00:00.000Z');
  it('is scheduled while the start is ahead, completed after it, cancelled once cancelled', () => {
    expect(meetingStatus({ startTime: '2026-11-27T17:00:01.000Z', cancelledAt: null }, now)).toBe('scheduled');
    expect(meetingStatus({ startTime: '2026-11-27T17:00:00.000Z', cancelledAt: null }, now)).toBe('completed');
    expect(meetingStatus({ startTime: '2026-11-28T17:00:00.000Z', cancelledAt: '2026-11-27T16:00:00.000Z' }, now)).toBe(
      'cancelled',
    );
  });

  it('takes a start as still ahead within the grace for the trip, not before it', () => {
    expect(isFutureStart(new Date(now - MEETING_START_GRACE_MS + 1), now)).toBe(true);
    expect(isFutureStart(new Date(now - MEETING_START_GRACE_MS), now)).toBe(false);
  });
});
