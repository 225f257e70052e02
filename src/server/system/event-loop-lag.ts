// How late this process's event loop runs: a timer that should fire every TICK_MS notes how late it fired. A loop
// held by one long task shows as lag only once the task ends, so `lagMs()` also counts the lateness of the tick
// still pending at the moment it is asked.

const TICK_MS = 100;
/** Lag is the worst of the last one or two windows of this length: a past hold is forgotten within 10 s. */
const WINDOW_MS = 5_000;

export type EventLoopLag = { lagMs(): number; stop(): void };

export function watchEventLoopLag(): EventLoopLag {
  let expected = performance.now() + TICK_MS;
  let windowMax = 0;
  let previousMax = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    windowMax = Math.max(windowMax, now - expected);
    expected = now + TICK_MS;
  }, TICK_MS);
  const rotate = setInterval(() => {
    previousMax = windowMax;
    windowMax = 0;
  }, WINDOW_MS);
  // Neither keeps the process alive.
  tick.unref();
  rotate.unref();
  return {
    lagMs: () => Math.round(Math.max(previousMax, windowMax, performance.now() - expected, 0)),
    stop() {
      clearInterval(tick);
      clearInterval(rotate);
    },
  };
}
