import type { ModerationCategory } from '../constants.ts';
import { findEmails } from './moderation/email-addresses.ts';
import { findLinks, hostsOf } from './moderation/links.ts';
import { findPhoneNumbers } from './moderation/phone-numbers.ts';
import { matchesOf, mergeSpans, overlapsAny, type ModerationMatch } from './moderation/spans.ts';

// Message moderation (SPEC.md §5 "Message moderation", §8 "Moderation"). Pure and isomorphic: the server
// enforces it before a message is stored, the composer runs the same function for instant feedback and
// marks the offending parts (the `matches`, UTF-16 offsets into the text as given).
//
// Order of the checks, first category that matches wins: phone numbers, e-mail addresses, external links
// (each in its own file beside this one), then the database patterns by category (offensive, hate speech,
// harassment, other).

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
export type { ModerationMatch };
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
