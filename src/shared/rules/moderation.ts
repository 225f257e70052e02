import type { ModerationCategory } from '../constants.ts';

// Message moderation (SPEC.md §5 "Message moderation", §8 "Moderation"). Pure and isomorphic: the server
// enforces it before a message is stored, the composer runs the same function for instant feedback and
// marks the offending parts (the `matches`, UTF-16 offsets into the text as given).
//
// Order of the checks, first category that matches wins: phone numbers, e-mail addresses, external links,
// then the database patterns by category (offensive, hate speech, harassment, other).

export const MODERATION_NOTICE_TITLE = 'Message Not Sent';

/** The text shown under "Message Not Sent" for each category (SPEC.md §8). */
export const moderationMessages: Record<ModerationCategory, string> = {
  phone: 'Phone numbers are not allowed for your safety.',
  email: 'Email addresses are not allowed for your safety.',
  link: 'External links are not allowed for your safety.',
  offensive: 'This message contains offensive language.',
  hate_speech: 'This message contains hate speech.',
  harassment: 'This message contains harassing content.',
  other: 'This message contains inappropriate content.',
};

export type ModerationPatternRule = { pattern: string; category: ModerationCategory };
export type ModerationMatch = { start: number; end: number };
type ModerationResult =
  { ok: true } | { ok: false; category: ModerationCategory; message: string; matches: ModerationMatch[] };

type ModerationOptions = {
  /** Active patterns from the database: case-insensitive regular expressions. */
  patterns: readonly ModerationPatternRule[];
  /** Our own origins (e.g. "https://virtualhelp.example"): links to them are allowed. */
  ownOrigins: readonly string[];
};

export function checkMessage(text: string, { patterns, ownOrigins }: ModerationOptions): ModerationResult {
  // "https://a.example@evil.com" is a link, "john@gmail.com" is an address and not also a link to gmail.com.
  const allLinks = findLinks(text);
  const emails = findEmails(text).filter(
    (email) =>
      !overlapsAny(
        email,
        allLinks.filter((link) => link.explicit),
      ),
  );
  const links = allLinks.filter((link) => link.explicit || !overlapsAny(link, emails));
  const ownHosts = hostsOf(ownOrigins);
  const externalLinks = links.filter((link) => !ownHosts.has(link.host));
  // Digits inside addresses (ids in our own file links, ports, paths) are not phone numbers.
  const phones = findPhoneNumbers(text, [...emails, ...links]);

  const found: Array<[ModerationCategory, ModerationMatch[]]> = [
    ['phone', phones],
    ['email', emails],
    ['link', externalLinks.map(({ start, end }) => ({ start, end }))],
    ...[...regexesByCategory(patterns)].map(([category, regexes]): [ModerationCategory, ModerationMatch[]] => [
      category,
      findPatternMatches(text, regexes),
    ]),
  ];
  for (const [category, matches] of found) {
    if (matches.length > 0) return { ok: false, category, message: moderationMessages[category], matches };
  }
  return { ok: true };
}

const PATTERN_CATEGORY_ORDER: ModerationCategory[] = ['offensive', 'hate_speech', 'harassment', 'other'];

const overlapsAny = (span: ModerationMatch, others: readonly ModerationMatch[]) =>
  others.some((other) => span.start < other.end && other.start < span.end);

const NO_MATCHES: readonly RegExpExecArray[] = Object.freeze([]);

/**
 * Every match of a global regex. A message usually matches none of the rules, and then nothing is allocated: the
 * quick test comes first, because matchAll copies the regex and builds an iterator on every call.
 */
function allMatches(text: string, regex: RegExp): readonly RegExpExecArray[] {
  regex.lastIndex = 0;
  const found = regex.test(text);
  regex.lastIndex = 0;
  return found ? [...text.matchAll(regex)] : NO_MATCHES;
}

function matchesOf(text: string, regex: RegExp): ModerationMatch[] {
  return allMatches(text, regex).map((match) => ({ start: match.index, end: match.index + match[0].length }));
}

// ---------------------------------------------------------------------------------------------------------------
// Phone numbers
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

function findPhoneNumbers(text: string, ignore: readonly ModerationMatch[]): ModerationMatch[] {
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

// ---------------------------------------------------------------------------------------------------------------
// E-mail addresses: plain (john@gmail.com) and spelled out ("john at gmail dot com", "john(at)gmail(dot)com",
// "john [at] gmail [dot] com"). A plain " at " counts only with a spelled or bracketed dot, or with a well-known
// mail provider, because "look at google.com" is a link (caught below), not an address.

/** Starts where a word starts and is at most 64 long (the RFC limit), so a long text is read in linear time. */
const LOCAL_PART = String.raw`(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]{1,64}`;
const LABEL = String.raw`[\p{L}\p{N}-]+`;
const BRACKETED_AT = String.raw`\s*(?:\(\s*at\s*\)|\[\s*at\s*\]|\{\s*at\s*\}|<\s*at\s*>|@)\s*`;
const SPELLED_DOT = String.raw`(?:\s*(?:\(\s*(?:dot|\.)\s*\)|\[\s*(?:dot|\.)\s*\]|\{\s*(?:dot|\.)\s*\})\s*|\s+dot\s+)`;
const ANY_DOT = String.raw`(?:${SPELLED_DOT}|\s?\.\s?)`;
/** Top-level domains that are not also English words ("it", "in", "at", "me"…), for spelled-out forms. */
const MAIL_TLD = 'com|net|org|edu|gov|info|biz|io|co|ch|de|uk|fr|es|nl|ru|ca|au|mail';
const MAIL_PROVIDER =
  'gmail|googlemail|yahoo|hotmail|outlook|live|msn|icloud|aol|gmx|proton|protonmail|yandex|bluewin|hispeed|web|zoho';
const END_OF_WORD = String.raw`(?![\p{L}\p{N}])`;

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

function findEmails(text: string): ModerationMatch[] {
  return mergeSpans(EMAIL_PATTERNS.flatMap((regex) => matchesOf(text, regex)));
}

function mergeSpans(spans: ModerationMatch[]): ModerationMatch[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: ModerationMatch[] = [];
  for (const span of sorted) {
    const last = merged.at(-1);
    if (last && span.start < last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}

// ---------------------------------------------------------------------------------------------------------------
// Links: anything with a scheme (https://…), anything starting with www., a bare domain whose last label is a
// top-level domain people link to ("example.com", "bit.ly/x"), and spelled-out domains ("example dot com").
// A file name is not a link: the top-level domains below leave out the ones that are common file extensions
// (zip, mov, md, py, rs, sh, pl, cc, ai…), so "essay.docx", "notes.md" and "main.py" pass, and the ones that are
// English words (to, in, it, at, be, me, us), so a missing space ("ok.to be fair") is not a domain; for the same
// reason the top-level domain must be lower case ("…done it.Me too"). Those domains are still caught with a
// scheme or www.

const LINK_TLD = [
  'com',
  'net',
  'org',
  'edu',
  'gov',
  'info',
  'biz',
  'io',
  'co',
  'app',
  'dev',
  'xyz',
  'online',
  'site',
  'store',
  'tech',
  'blog',
  'shop',
  'live',
  'club',
  'top',
  'link',
  'page',
  'ly',
  'gl',
  'gg',
  'tk',
  'ws',
  'tv',
  'ch',
  'de',
  'uk',
  'fr',
  'es',
  'nl',
  'li',
  'ca',
  'au',
  'ru',
  'cn',
  'jp',
  'br',
  'eu',
].join('|');
/** Technology names written like domains. */
const NOT_A_LINK = new Set(['asp.net', 'ado.net', 'vb.net']);
const TRAILING_PUNCTUATION = /[.,;:!?)\]}'"»]+$/;

/** The first two of LINK_PATTERNS: scheme and www. */
const EXPLICIT_LINK_PATTERNS = 2;
const LINK_PATTERNS = [
  /(?<![\p{L}\p{N}])[a-z][a-z0-9+.-]{1,15}:\/\/[^\s<>"']+/giu,
  /(?<![\p{L}\p{N}.@-])www\d{0,3}\.[^\s<>"']+/giu,
  new RegExp(
    String.raw`(?<![\p{L}\p{N}._%+@/-])(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+(?:${LINK_TLD})(?![\p{L}\p{N}-])(?::\d{1,5})?(?:[/?#][^\s<>"']*)?`,
    'gu',
  ),
  new RegExp(
    String.raw`(?<![\p{L}\p{N}])[A-Za-z0-9-]{2,63}${SPELLED_DOT}(?:com|net|org|io|co|ly|ch|de|uk)${END_OF_WORD}`,
    'giu',
  ),
];

/** `explicit`: written with a scheme or www., so unmistakably a link. */
type Link = ModerationMatch & { host: string; explicit: boolean };

function findLinks(text: string): Link[] {
  const links: Link[] = [];
  LINK_PATTERNS.forEach((regex, index) => {
    for (const match of allMatches(text, regex)) {
      const value = match[0].replace(TRAILING_PUNCTUATION, '');
      if (NOT_A_LINK.has(value.toLowerCase())) continue;
      const span = { start: match.index, end: match.index + value.length };
      if (!overlapsAny(span, links))
        links.push({ ...span, host: hostOf(value), explicit: index < EXPLICIT_LINK_PATTERNS });
    }
  });
  return links.sort((a, b) => a.start - b.start);
}

/** The hosts of our own origins, parsed once per list (the server passes the same one with every message). */
const ownHostSets = new WeakMap<readonly string[], ReadonlySet<string>>();
function hostsOf(origins: readonly string[]) {
  let hosts = ownHostSets.get(origins);
  if (!hosts) {
    hosts = new Set(origins.map(hostOf));
    ownHostSets.set(origins, hosts);
  }
  return hosts;
}

/** The host (with port) of a URL, "www.…" or bare domain, lower case; "" when there is none. */
function hostOf(value: string) {
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`).host.toLowerCase();
  } catch {
    return '';
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Database patterns: case-insensitive regular expressions kept by the admins. A pattern that does not compile
// is skipped rather than stopping every message.

const compiledPatterns = new Map<string, RegExp | null>();

function compile(pattern: string): RegExp | null {
  const known = compiledPatterns.get(pattern);
  if (known !== undefined) return known;
  let regex: RegExp | null;
  try {
    regex = new RegExp(pattern, 'gi');
  } catch {
    regex = null;
  }
  compiledPatterns.set(pattern, regex);
  return regex;
}

/**
 * The compiled patterns of each category, in PATTERN_CATEGORY_ORDER, once per list of rules (the server reuses its
 * list for every message until the patterns change).
 */
const regexesOfRules = new WeakMap<readonly ModerationPatternRule[], Map<ModerationCategory, RegExp[]>>();
function regexesByCategory(rules: readonly ModerationPatternRule[]) {
  let byCategory = regexesOfRules.get(rules);
  if (!byCategory) {
    byCategory = new Map(
      PATTERN_CATEGORY_ORDER.map((category) => [
        category,
        rules.flatMap((rule) => (rule.category === category ? (compile(rule.pattern) ?? []) : [])),
      ]),
    );
    regexesOfRules.set(rules, byCategory);
  }
  return byCategory;
}

function findPatternMatches(text: string, regexes: readonly RegExp[]): ModerationMatch[] {
  const spans: ModerationMatch[] = [];
  for (const regex of regexes) {
    for (const span of matchesOf(text, regex)) if (span.end > span.start) spans.push(span);
  }
  return spans.length === 0 ? spans : mergeSpans(spans);
}
