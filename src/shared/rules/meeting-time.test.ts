import { describe, expect, it } from 'vitest';
import { meetingTimeLabel } from './meeting-time.ts';

describe('meeting times', () => {
  const start = '2026-11-27T17:00:00.000Z';
  it('names the reader’s zone with the time there', () => {
    expect(meetingTimeLabel(start, 'Europe/Berlin')).toBe('Fri 27 Nov, 18:00 CET');
    expect(meetingTimeLabel(start, 'UTC')).toBe('Fri 27 Nov, 17:00 UTC');
    expect(meetingTimeLabel(start, 'Asia/Kolkata')).toBe('Fri 27 Nov, 22:30 GMT+5:30');
    expect(meetingTimeLabel(start, 'America/New_York')).toBe('Fri 27 Nov, 12:00 GMT-5');
  });
});
