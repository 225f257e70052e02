import { matchesOf, mergeSpans, type ModerationMatch } from './spans.ts';

// E-mail addresses: plain (john@gmail.com) and spelled out ("john at gmail dot com", "john(at)gmail(dot)com",
// "john [at] gmail [dot] com"). A plain " at " counts only with a spelled or bracketed dot, or with a well-known
// mail provider, because "look at google.com" is a link (caught below), not an address.

/** Starts where a word starts and is at most 64 long (the RFC limit), so a long text is read in linear time. */
const LOCAL_PART = String.raw`(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]{1,64}`;
const LABEL = String.raw`[\p{L}\p{N}-]+`;
const BRACKETED_AT = String.raw`\s*(?:\(\s*at\s*\)|\[\s*at\s*\]|\{\s*at\s*\}|<\s*at\s*>|@)\s*`;
export const SPELLED_DOT = String.raw`(?:\s*(?:\(\s*(?:dot|\.)\s*\)|\[\s*(?:dot|\.)\s*\]|\{\s*(?:dot|\.)\s*\})\s*|\s+dot\s+)`;
const ANY_DOT = String.raw`(?:${SPELLED_DOT}|\s?\.\s?)`;
/** Top-level domains that are not also English words ("it", "in", "at", "me"…), for spelled-out forms. */
const MAIL_TLD = 'com|net|org|edu|gov|info|biz|io|co|ch|de|uk|fr|es|nl|ru|ca|au|mail';
const MAIL_PROVIDER =
  'gmail|googlemail|yahoo|hotmail|outlook|live|msn|icloud|aol|gmx|proton|protonmail|yandex|bluewin|hispeed|web|zoho';
export const END_OF_WORD = String.raw`(?![\p{L}\p{N}])`;

const EMAIL_PATTERNS = [
  // john@gmail.com, john @ gmail . com, john(at)gmail.com, john[at]gmail[dot]com
  new RegExp(
    String.raw`${LOCAL_PART}${BRACKETED_AT}${LABEL}(?:${ANY_DOT}${LABEL})*?${ANY_DOT}\p{L}{2,24}${END_OF_WORD}`,
    'giu',
  ),
  // john at gmail dot com, john at mail dot school dot edu
  new RegExp(
    String.raw`${LOCAL_PART}\s+at\s+${LABEL}(?:${SPELLED_DOT}${LABEL})*?${SPELLED_DOT}(?:${MAIL_TLD})${END_OF_WORD}`,
    'giu',
  ),
  // john at gmail.com
  new RegExp(String.raw`${LOCAL_PART}\s+at\s+(?:${MAIL_PROVIDER})${ANY_DOT}(?:${MAIL_TLD})${END_OF_WORD}`, 'giu'),
];

export function findEmails(text: string): ModerationMatch[] {
  return mergeSpans(EMAIL_PATTERNS.flatMap((regex) => matchesOf(text, regex)));
}
