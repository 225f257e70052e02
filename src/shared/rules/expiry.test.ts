import { describe, expect, it } from 'vitest';
import { closesIn, isClosedForDisplay, isRequestExpired } from './expiry.ts';

const HOUR = 60 * 60 * 1000;
const now = new Date('2026-11-21T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);

describe('request expiry', () => {
  it('expires an open request 48 hours after its creation', () => {
    expect(isRequestExpired(ago(47 * HOUR), now)).toBe(false);
    expect(isRequestExpired(ago(48 * HOUR - 1), now)).toBe(false);
    expect(isRequestExpired(ago(48 * HOUR), now)).toBe(true);
    expect(isRequestExpired(ago(49 * HOUR).toISOString(), now)).toBe(true);
  });

  it('counts down in hours, then minutes, then says Closed', () => {
    expect(closesIn(now, now)).toBe('Closes in 48 hours');
    expect(closesIn(ago(10.5 * HOUR), now)).toBe('Closes in 37 hours');
    expect(closesIn(ago(46.5 * HOUR), now)).toBe('Closes in 1 hour');
    expect(closesIn(ago(47 * HOUR), now)).toBe('Closes in 1 hour');
    expect(closesIn(ago(47 * HOUR + 1), now)).toBe('Closes in 60 minutes');
    expect(closesIn(ago(47.5 * HOUR), now)).toBe('Closes in 30 minutes');
    expect(closesIn(ago(48 * HOUR - 20_000), now)).toBe('Closes in 1 minute');
    expect(closesIn(ago(48 * HOUR), now)).toBe('Closed');
    expect(closesIn(ago(100 * HOUR), now)).toBe('Closed');
  });

  it('shows a request closed when older than 48 hours or completed or closed', () => {
    expect(isClosedForDisplay({ openSince: ago(HOUR), status: 'open' }, now)).toBe(false);
    expect(isClosedForDisplay({ openSince: ago(HOUR), status: 'accepted' }, now)).toBe(false);
    expect(isClosedForDisplay({ openSince: ago(HOUR), status: 'completed' }, now)).toBe(true);
    expect(isClosedForDisplay({ openSince: ago(HOUR), status: 'closed' }, now)).toBe(true);
    expect(isClosedForDisplay({ openSince: ago(49 * HOUR), status: 'open' }, now)).toBe(true);
    expect(isClosedForDisplay({ openSince: ago(49 * HOUR), status: 'accepted' }, now)).toBe(true);
  });
});
