import { MODERATION_CATEGORIES, type ModerationCategory } from '../constants.ts';
import { findEmails } from './moderation/email-addresses.ts';
import { findLinks, hostsOf } from './moderation/links.ts';
import { findPhoneNumbers } from './moderation/phone-numbers.ts';
import { mergeSpans, overlapsAny, type ModerationMatch } from './moderation/spans.ts';

// Message moderation (SPEC.md §5 "Message moderation", §8 "Moderation"). Pure and isomorphic: the server
// enforces it before a message is stored, the composer runs the same function for instant feedback and
// marks the offending parts (the `matches`, UTF-16 offsets into the text as given).
//
// Order of the checks, first category that matches wins: phone numbers, e-mail addresses, external links
// (each in its own file beside this one), then the database patterns by category.

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

export type { ModerationMatch };
type ModerationResult =
  { ok: true } | { ok: false; category: ModerationCategory; message: string; matches: ModerationMatch[] };

/**
 * An admin's pattern, compiled by the server (in a linear-time engine, which the browser does not load): its first
 * match in a text, or null.
 */
export type PatternMatcher = { category: ModerationCategory; findMatch(text: string): ModerationMatch | null };

type ModerationOptions = {
  /** The active database patterns; the composer has none and leaves them to the server. */
  patterns?: readonly PatternMatcher[];
  /** Our own origins (e.g. "https://virtualhelp.example"): links to them are allowed. */
  ownOrigins: readonly string[];
};

const refusal = (category: ModerationCategory, matches: ModerationMatch[]): ModerationResult => ({
  ok: false,
  category,
  message: moderationMessages[category],
  matches,
});

export function checkMessage(text: string, { patterns = [], ownOrigins }: ModerationOptions): ModerationResult {
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

  const builtIn: Array<[ModerationCategory, ModerationMatch[]]> = [
    ['phone', phones],
    ['email', emails],
    ['link', externalLinks.map(({ start, end }) => ({ start, end }))],
  ];
  for (const [category, matches] of builtIn) if (matches.length > 0) return refusal(category, matches);

  // Only a text the built-in rules let through is read by the database patterns, in the order of the categories
  // (phone, e-mail and link patterns catch what the built-in rules miss).
  for (const category of MODERATION_CATEGORIES) {
    const matches = patterns.flatMap((pattern) =>
      pattern.category === category ? (pattern.findMatch(text) ?? []) : [],
    );
    if (matches.length > 0) return refusal(category, mergeSpans(matches));
  }
  return { ok: true };
}

/** What stands in a text for an external link taken out of it. */
export const LINK_REMOVED = '(external link removed)';

/**
 * The text with every external link replaced by LINK_REMOVED: the link rule for texts that are shown rather than
 * refused, such as Guru AI's answers written by a model.
 */
export function withoutExternalLinks(text: string, { ownOrigins }: Pick<ModerationOptions, 'ownOrigins'>): string {
  const ownHosts = hostsOf(ownOrigins);
  let kept = '';
  let at = 0;
  for (const link of findLinks(text)) {
    if (ownHosts.has(link.host)) continue;
    kept += text.slice(at, link.start) + LINK_REMOVED;
    at = link.end;
  }
  return kept + text.slice(at);
}
