import { REQUEST_EXPIRY_MS, type RequestStatus } from '#shared/constants.ts';

// Request expiry (SPEC.md §4, ARCHITECTURE.md rule 6): one rule, used by the server's bid and accept paths,
// its periodic expiry job (through the same constant) and the web's countdowns and tabs.

/** A direct request not answered in this time may be opened to all tutors of its subject by its student. */
export const DIRECT_ANSWER_HOURS = 24;

const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;

const timeOf = (value: Date | string | number) => new Date(value).getTime();

/** An open request expires 48 hours after it was created, or after a direct request was opened to all (`openSince`). */
export function isRequestExpired(openSince: Date | string | number, now: Date | number = Date.now()) {
  return timeOf(now) - timeOf(openSince) >= REQUEST_EXPIRY_MS;
}

/** The countdown of an open request: "Closes in N hours", "Closes in N minutes" (a started minute counts), "Closed". */
export function closesIn(openSince: Date | string | number, now: Date | number = Date.now()) {
  const left = timeOf(openSince) + REQUEST_EXPIRY_MS - timeOf(now);
  if (left <= 0) return 'Closed';
  if (left >= HOUR_MS) {
    const hours = Math.floor(left / HOUR_MS);
    return `Closes in ${hours} ${hours === 1 ? 'hour' : 'hours'}`;
  }
  const minutes = Math.ceil(left / MINUTE_MS);
  return `Closes in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
}

/** Shown as closed (Expired tab, no countdown) when older than 48 hours or completed or closed. */
export function isClosedForDisplay(
  request: { openSince: Date | string | number; status: RequestStatus },
  now: Date | number = Date.now(),
) {
  return request.status === 'completed' || request.status === 'closed' || isRequestExpired(request.openSince, now);
}
