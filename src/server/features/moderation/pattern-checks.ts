import { performance } from 'node:perf_hooks';
import { adminMessages } from '#shared/schemas/admin.ts';
import { fieldError } from '../../http/errors.ts';
import { compileLinearPattern, findFirstMatch, PatternError, type PatternProblem } from './linear-patterns.ts';

// What a new pattern must pass before it is saved. The linear engine already bounds what any pattern can cost; these
// checks keep out the patterns that would still cost too much per character, or that would refuse ordinary messages.

/** The longest text a pattern reads (a chat message at most): every probe is this long. */
const PROBE_LENGTH = 10_000;
/**
 * How long one probe may take. The bound is wall time, so a probe over it is tried once more with the longer one: a
 * busy machine does not refuse a harmless pattern, one that is slow per character fails both.
 */
const PROBE_BUDGET_MS = 40;
const PROBE_RETRY_BUDGET_MS = 200;

/** Everyday messages of several kinds: a pattern that matches half of them would refuse ordinary conversation. */
const ORDINARY_MESSAGES = [
  'Hello! Could you help me with my homework tonight?',
  'Sure, I am free on Saturday afternoon after 2 pm.',
  'Solve for x: 3x + 7 = 22, then check the answer.',
  'The essay is about the causes of the First World War.',
  'Thanks a lot, that explanation really helped me understand it.',
  'Can we go over chapter 4 of the chemistry book again?',
  'I uploaded the assignment as a PDF, please have a look.',
  'What is the derivative of sin(x) * e^x?',
  'My deadline is next Friday, the report needs 1500 words.',
  'Ok',
  'Bonjour, je cherche de l’aide en mathématiques.',
  'Guten Tag, ich brauche Hilfe bei der Statistik.',
  'Let me know when you are online 🙂',
  'for (let i = 0; i < n; i++) { total += values[i]; }',
  'The price you offered is fine for me, let us start.',
  'See you tomorrow, have a nice evening!',
];

/** Letters of both cases, digits, punctuation, spaces, accents and an emoji, in a fixed pseudo-random order. */
function mixedText(length: number) {
  const alphabet = 'aZ9 .-x!é_@=y\n,Q0?ß🙂(]+*/\\';
  const characters = [...alphabet];
  let state = 2_463_534_242;
  let text = '';
  while (text.length < length) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    text += characters[(state >>> 0) % characters.length];
  }
  return text.slice(0, length);
}

const MIXED_PROBE = mixedText(PROBE_LENGTH);
const ORDINARY_PROBE = ORDINARY_MESSAGES.join(' ').repeat(20).slice(0, PROBE_LENGTH);
/** Letters and spaces only: a pattern waiting for a symbol reads all of it. */
const WORDS_PROBE = ORDINARY_PROBE.replace(/[^\p{L} ]/gu, '');

/**
 * Long texts that do not depend on the admin's sample: the mixed text, ordinary conversation (with and without its
 * digits and symbols), and a long run of each character the pattern names, ending in one that breaks it (where
 * backtracking engines blow up, and where a linear one works hardest).
 */
function probesFor(pattern: string) {
  const named = [...new Set(pattern.replace(/\\[a-z]/gi, '').match(/[\p{L}\p{N}\p{P}\p{S} ]/gu) ?? [])].slice(0, 12);
  return [
    MIXED_PROBE,
    ORDINARY_PROBE,
    WORDS_PROBE,
    ...named.map((character) => `${character.repeat(PROBE_LENGTH - 1)}\u0000`),
  ];
}

function isWithin(budgetMs: number, run: () => unknown) {
  const started = performance.now();
  run();
  return performance.now() - started <= budgetMs;
}

const problemMessages: Record<PatternProblem, string> = {
  invalid: adminMessages.patternInvalid,
  'not-linear': adminMessages.patternNotLinear,
  'too-large': adminMessages.patternUnsafe,
};

/** Refuses (400, on the field at fault) a pattern that cannot run, costs too much, blocks (almost) everything or misses the sample. */
export function assertUsablePattern(pattern: string, sample: string) {
  let regex;
  try {
    regex = compileLinearPattern(pattern);
  } catch (error) {
    if (error instanceof PatternError) throw fieldError('pattern', problemMessages[error.problem]);
    throw error;
  }
  const findMatch = (text: string) => findFirstMatch(regex, text);
  const matched = ORDINARY_MESSAGES.filter((text) => regex.test(text)).length;
  if (regex.test('') || matched * 2 >= ORDINARY_MESSAGES.length) {
    throw fieldError('pattern', adminMessages.patternMatchesEverything);
  }
  for (const probe of probesFor(pattern)) {
    const isFast =
      isWithin(PROBE_BUDGET_MS, () => findMatch(probe)) || isWithin(PROBE_RETRY_BUDGET_MS, () => findMatch(probe));
    if (!isFast) throw fieldError('pattern', adminMessages.patternUnsafe);
  }
  if (!findMatch(sample)) throw fieldError('sample', adminMessages.sampleNotMatched);
}
