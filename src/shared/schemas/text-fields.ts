import { z } from 'zod';

/**
 * Text the user must write: trimmed, then refused with `required` when it is missing, not text or only spaces, and
 * with `tooLong` beyond `max` characters (zod would otherwise say `required` then too).
 */
export function requiredText(required: string, max: number, tooLong: string) {
  return z.string({ error: required }).trim().min(1, required).max(max, tooLong);
}
