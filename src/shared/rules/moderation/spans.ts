// Spans of text the moderation rules mark, and the regex helpers every rule shares.

/** A marked part of a text: UTF-16 offsets into the text as given. */
export type ModerationMatch = { start: number; end: number };

export const overlapsAny = (span: ModerationMatch, others: readonly ModerationMatch[]) =>
  others.some((other) => span.start < other.end && other.start < span.end);

const NO_MATCHES: readonly RegExpExecArray[] = Object.freeze([]);

/**
 * Every match of a global regex. A message usually matches none of the rules, and then nothing is allocated: the
 * quick test comes first, because matchAll copies the regex and builds an iterator on every call.
 */
export function allMatches(text: string, regex: RegExp): readonly RegExpExecArray[] {
  regex.lastIndex = 0;
  const found = regex.test(text);
  regex.lastIndex = 0;
  return found ? [...text.matchAll(regex)] : NO_MATCHES;
}

export function matchesOf(text: string, regex: RegExp): ModerationMatch[] {
  return allMatches(text, regex).map((match) => ({ start: match.index, end: match.index + match[0].length }));
}

export function mergeSpans(spans: ModerationMatch[]): ModerationMatch[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: ModerationMatch[] = [];
  for (const span of sorted) {
    const last = merged.at(-1);
    if (last && span.start < last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}
