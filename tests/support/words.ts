import { randomBytes } from 'node:crypto';

/**
 * A word no other test sends, of letters only: text with a run of digits (a hex id such as "04840331") can be refused
 * as a phone number by the moderation rules every message passes.
 */
export const uniqueWord = () =>
  randomBytes(6)
    .toString('hex')
    .replace(/\d/g, (digit) => 'ghijklmnop'[Number(digit)]!);
