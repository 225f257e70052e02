import { RE2JS } from 're2js';
import type { ModerationCategory } from '#shared/constants.ts';
import type { ModerationMatch, PatternMatcher } from '#shared/rules/moderation.ts';

// The admins' patterns run in RE2JS, a linear-time regular-expression engine (docs/decisions/0024): a match costs at
// most the text's length times the compiled pattern's size, whatever the two are, so no pattern can freeze the
// server. The syntax is JavaScript's, case-insensitive, without lookarounds and backreferences: no linear engine
// runs lookaheads and backreferences, and RE2JS runs lookbehinds only on its slow path (40 ms for a 10,000-character
// text, against well under one on its DFA).

const FLAGS = RE2JS.CASE_INSENSITIVE;
/**
 * The largest compiled pattern accepted (instructions; a 200-character word list is about 200). The cost of each
 * character of a text grows with it: counted repetitions such as `\w{1,999}` compile to thousands.
 */
export const MAX_PROGRAM_SIZE = 400;

export type PatternProblem = 'invalid' | 'not-linear' | 'too-large';

export class PatternError extends Error {
  constructor(readonly problem: PatternProblem) {
    super(`Unusable moderation pattern: ${problem}`);
  }
}

/** Compiles an admin's pattern for the linear engine, or says why it cannot run there. */
export function compileLinearPattern(pattern: string): RE2JS {
  let regex: RE2JS;
  try {
    regex = RE2JS.compile(RE2JS.translateRegExp(pattern), FLAGS);
  } catch {
    throw new PatternError(isJavaScriptRegex(pattern) ? 'not-linear' : 'invalid');
  }
  if (regex.programSize() > MAX_PROGRAM_SIZE) throw new PatternError('too-large');
  return regex;
}

function isJavaScriptRegex(pattern: string) {
  try {
    new RegExp(pattern, 'i');
    return true;
  } catch {
    return false;
  }
}

/**
 * The first match of the pattern in the text, or null. The usual answer, no match, comes from the engine's lazy DFA;
 * only a text that matches pays for finding where.
 */
export function findFirstMatch(regex: RE2JS, text: string): ModerationMatch | null {
  if (!regex.test(text)) return null;
  const match = regex.exec(text) as RegExpExecArray | null;
  return match && match[0].length > 0 ? { start: match.index, end: match.index + match[0].length } : null;
}

const compiled = new Map<string, RE2JS | null>();

/**
 * The active patterns as the shared filter reads them, each compiled once per process. A stored pattern the engine
 * refuses (saved before it was the engine) is skipped rather than stopping every message.
 */
export function toPatternMatchers(rules: ReadonlyArray<{ pattern: string; category: ModerationCategory }>) {
  return rules.flatMap(({ pattern, category }): PatternMatcher[] => {
    if (!compiled.has(pattern)) {
      try {
        compiled.set(pattern, compileLinearPattern(pattern));
      } catch {
        compiled.set(pattern, null);
      }
    }
    const regex = compiled.get(pattern);
    return regex ? [{ category, findMatch: (text) => findFirstMatch(regex, text) }] : [];
  });
}
