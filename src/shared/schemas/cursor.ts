import { z } from 'zod';
import { UUID_PATTERN } from '../constants.ts';

export const INVALID_CURSOR_MESSAGE = 'Invalid page cursor';

/**
 * Opaque keyset cursor of a page (chat rooms, messages, requests, jobs, admin tables): the position after which
 * the next page starts, as microseconds since the epoch and the row id (`<micros>_<uuid>`), so rows created in
 * the same millisecond are neither skipped nor repeated. Anything else is a 400, never a database error.
 */
export const cursorSchema = z.string().regex(new RegExp(`^\\d{1,17}_${UUID_PATTERN}$`), INVALID_CURSOR_MESSAGE);
