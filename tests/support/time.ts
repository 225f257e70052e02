// Durations and instants relative to now, for the tests' dates.

export const MINUTE_MS = 60 * 1000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** The instant `ms` from now (negative: in the past). */
export const fromNow = (ms: number) => new Date(Date.now() + ms);

/** Waits until `done` holds (the app's background work brought it about), looking every 25 ms for up to 15 s. */
export async function eventually(done: () => boolean | Promise<boolean>) {
  for (const start = Date.now(); !(await done());) {
    if (Date.now() - start > 15_000) throw new Error('the condition never held');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
