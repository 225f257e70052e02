// Durations and instants relative to now, for the tests' dates.

export const MINUTE_MS = 60 * 1000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** The instant `ms` from now (negative: in the past). */
export const fromNow = (ms: number) => new Date(Date.now() + ms);
