import { allMatches, matchesOf, type ModerationMatch } from './spans.ts';

// Phone numbers.
//
// The text is read as digit tokens: a digit (any script) or a spelled digit ("five", "oh"). Tokens joined by at
// most 3 separator characters (spaces, dots, dashes, brackets, slashes…) form a run, so "(555) 123-4567",
// "5 5 5-1 2 3-4 5 6 7" and "five5five one two…" are each one run. A run is a phone number when:
//   - it has 7 or more digits, in groups ("079 123 45 67", "+41 79 123 45 67"), unless it has the shape of an
//     innocent number (a decimal, a fraction, thousands, or it was masked as a date, year range or ISBN first);
//   - it is one unbroken number of 7+ digits that looks dialled: starts with 0, has 10+ digits or a leading "+"
//     (so "1048576" as a math answer passes, "0791234567" does not) — and is not part of a calculation;
//   - it is 6+ digits spelled or spaced out one by one ("0 7 9 1 2 3", "five five five one two three");
//   - it is 6+ digits right after a contact cue ("call me at 079 123").

const DIGIT_WORD = 'zero|oh|one|two|three|four|five|six|seven|eight|nine';
/** A digit, or a spelled digit that is a whole word or touches digits ("five5five"), never part of "someone". */
const DIGIT_TOKEN = new RegExp(String.raw`\p{Nd}|(?<!\p{L})(?:${DIGIT_WORD})+(?!\p{L})`, 'giu');
const SPELLED_DIGIT = new RegExp(DIGIT_WORD, 'gi');
/** What may stand between the digits of one number: whitespace, dots, dashes, brackets, slashes, zero-width. */
const JOINING_GAP = /^[\s.\-‐-―()/\\_*|~\u200b-\u200d\u2060\ufeff]{0,3}$/u;
/** Words that announce a phone number: a shorter number after them still counts. */
const CONTACT_CUE =
  /(?<!\p{L})(?:call|text|phone|tel|telephone|mobile|cell|cellphone|whats\s?app|sms|dial|ring|signal|telegram|viber|wechat|my\s+number|number\s+is)(?!\p{L})[^\p{Nd}]{0,20}$/iu;
/** A run that continues a calculation: "= 1048576", "2^20 = …", "1048576 / 1024". */
const MATH_BEFORE = /(?:[=<>≈≠×÷^*]|[\p{L}\p{N})]\s*[+\-/])\s*$/u;
const MATH_AFTER = /^\s*[=<>≈≠×÷^*+/]/u;

// Innocent numbers, masked before runs are built so that their digits join nothing. A date or time that is part of
// a longer chain of digits and separators is not masked, so it cannot hide a phone number.
const NOT_AFTER_DIGITS = String.raw`(?<!\p{Nd}[-./]?)`;
const NOT_BEFORE_DIGITS = String.raw`(?![-./]?\p{Nd})`;
const DAY = String.raw`(?:0?[1-9]|[12]\d|3[01])`;
const MONTH = String.raw`(?:0?[1-9]|1[0-2])`;
const YEAR = String.raw`(?:19|20)\d{2}`;
/** 2024-03-18, 2024/3/18; 18.03.2024, 03/18/24, 18-3-2024 (day and month either way round). */
const DATE = String.raw`(?:${YEAR}[-./]${MONTH}[-./]${DAY}|${DAY}[-./]${DAY}[-./](?:${YEAR}|\d{2}))`;
/** 07.30, 9h15, 10:30 pm. */
const TIME = String.raw`(?:[01]?\d|2[0-3])[:.h][0-5]\d(?:\s?[ap]\.?m\.?)?`;
const RANGE = String.raw`\s?(?:[-/–—]|to|until|bis)\s?`;
const INNOCENT_NUMBERS = [
  /** A date or a date range: "2024-03-18", "2024-03-18/2024-03-25". */
  new RegExp(`${NOT_AFTER_DIGITS}${DATE}(?:${RANGE}${DATE})?${NOT_BEFORE_DIGITS}`, 'giu'),
  /** A time range written with dots: "07.30-09.45". */
  new RegExp(`${NOT_AFTER_DIGITS}${TIME}${RANGE}${TIME}${NOT_BEFORE_DIGITS}`, 'giu'),
  /** School years and periods: "2023-2024", "2023/24", "1990–1995". */
  new RegExp(`${NOT_AFTER_DIGITS}${YEAR}${RANGE}(?:${YEAR}|\\d{2})${NOT_BEFORE_DIGITS}`, 'giu'),
  /** ISBN 978-3-16-148410-0: a book, not a phone. */
  /isbn(?:-1[03])?:?\s*[\dxX][\d\s-]{8,16}[\dxX]/giu,
];

type Token = { start: number; end: number; digits: number };

export function findPhoneNumbers(text: string, ignore: readonly ModerationMatch[]): ModerationMatch[] {
  const masked = maskSpans(text, INNOCENT_NUMBERS.flatMap((regex) => matchesOf(text, regex)).concat(ignore));
  const tokens: Token[] = allMatches(masked, DIGIT_TOKEN).map((match) => ({
    start: match.index,
    end: match.index + match[0].length,
    digits: /\p{Nd}/u.test(match[0]) ? 1 : (match[0].match(SPELLED_DIGIT)?.length ?? 1),
  }));

  const runs: Token[][] = [];
  for (const token of tokens) {
    const run = runs.at(-1);
    const previous = run?.at(-1);
    if (run && previous && JOINING_GAP.test(masked.slice(previous.end, token.start))) run.push(token);
    else runs.push([token]);
  }
  return runs.filter((run) => isPhoneRun(masked, run)).map((run) => spanOfRun(masked, run));
}

/** Replaces the spans with a character that is neither digit nor separator, keeping every offset. */
function maskSpans(text: string, spans: readonly ModerationMatch[]) {
  if (spans.length === 0) return text;
  const chars = text.split(''); // UTF-16 units, like the offsets of matchAll
  for (const { start, end } of spans) chars.fill('#', start, end);
  return chars.join('');
}

function isPhoneRun(text: string, run: Token[]) {
  const digits = run.reduce((sum, token) => sum + token.digits, 0);
  if (digits < 6) return false;
  const first = run[0]!;
  const last = run.at(-1)!;
  const raw = text.slice(first.start, last.end);
  const gaps = run.slice(1).map((token, index) => text.slice(run[index]!.end, token.start));
  const groups = toGroups(text, run);
  const spelledOut =
    groups.length === run.length && run.every((token) => token.digits === 1) && gaps.every((gap) => gap !== '');
  const afterCue = CONTACT_CUE.test(text.slice(Math.max(0, first.start - 40), first.start));
  const hasPlus = /\+\s?$/.test(text.slice(Math.max(0, first.start - 2), first.start));

  if (spelledOut || afterCue) return true;
  if (digits < 7) return false;
  if (groups.length === 1) {
    // Only the neighbourhood is looked at, so a long message costs no more per number.
    const inCalculation =
      !hasPlus &&
      (MATH_BEFORE.test(text.slice(Math.max(0, first.start - 20), first.start)) ||
        MATH_AFTER.test(text.slice(last.end, last.end + 20)));
    return !inCalculation && (raw.startsWith('0') || digits >= 10 || hasPlus);
  }
  return !isInnocentNumber(groups, gaps);
}

/** Digit groups of a run: tokens that touch each other ("555", "five5five") form one group. */
function toGroups(text: string, run: Token[]) {
  const groups: string[] = [];
  run.forEach((token, index) => {
    const value = text.slice(token.start, token.end);
    if (index > 0 && run[index - 1]!.end === token.start) groups[groups.length - 1] += value;
    else groups.push(value);
  });
  return groups;
}

/** A decimal (3.14159265), a fraction (1048576/1024), thousands (1 000 000, 1.000.000) or years (1999 2000). */
function isInnocentNumber(groups: string[], gaps: string[]) {
  const separators = gaps.filter((gap) => gap !== '');
  const [head = ''] = groups;
  if (groups.every((group) => /^(?:19|20)\d{2}$/.test(group))) return true;
  const noLeadingZero = head === '0' || !head.startsWith('0');
  if (groups.length === 2 && separators.length === 1 && ['.', ',', '/'].includes(separators[0]!) && noLeadingZero)
    return true;
  const uniform =
    separators.every((gap) => gap === separators[0]) && [' ', '.', '\u202f', '\u00a0'].includes(separators[0]!);
  return uniform && /^[1-9]\d{0,2}$/.test(head) && groups.slice(1).every((group) => /^\d{3}$/.test(group));
}

/** The run's span, with a leading "+" or "(" so the whole number is marked. */
function spanOfRun(text: string, run: Token[]): ModerationMatch {
  let start = run[0]!.start;
  while (start > 0 && /[+(]/.test(text[start - 1]!)) start--;
  return { start, end: run.at(-1)!.end };
}
