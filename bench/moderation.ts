// Chat moderation on adversarial 10,000-character messages (the longest a message may be), against an ordinary
// message of the same length timed in the same run: a ratio near 1 means the checks stay linear in the text. Then the
// worst admin patterns the pattern checks accept, on the texts that make each work hardest: how long one check holds
// the event loop, against an ordinary message checked with the same patterns active.
import { performance } from 'node:perf_hooks';
import { checkMessage } from '../src/shared/rules/moderation.ts';
import { DEFAULT_MODERATION_PATTERNS } from '../src/server/db/seed-data.ts';
import { toPatternMatchers } from '../src/server/features/moderation/linear-patterns.ts';
import { assertUsablePattern } from '../src/server/features/moderation/service.ts';

const ADVERSARIAL: Array<[name: string, text: string]> = [
  ['long words around an @', `${'a'.repeat(9000)}@${'b'.repeat(999)}`],
  ['dotted words', 'a.'.repeat(5000)],
  ['spaces before a number', `${' '.repeat(9990)}1234567`],
  ['spaced digits', '1 '.repeat(5000)],
  ['a long www', `www.${'a.'.repeat(4998)}`],
  ['spelled digits and ats', `${'five '.repeat(1000)}${'john at '.repeat(600)}`],
];
const ORDINARY = 'Could you explain how to factor a quadratic like x^2 + 5x + 6 step by step? '
  .repeat(130)
  .slice(0, 10_000);
/** The ratio above which a text counts as slow: well clear of noise, far below any super-linear blow-up. */
const BUDGET_RATIO = 20;
const options = { patterns: [], ownOrigins: ['https://virtualhelp.example'] };

/** Milliseconds per check: the median of three runs of 20 checks each. */
function msPerCheck(text: string) {
  const runs = [0, 1, 2].map(() => {
    const start = performance.now();
    for (let i = 0; i < 20; i++) checkMessage(text, options);
    return (performance.now() - start) / 20;
  });
  return runs.sort((a, b) => a - b)[1]!;
}

/**
 * Shapes that freeze a backtracking engine, lookbehinds and wide repetitions (the costliest things the linear engine
 * runs), with the sample each is added with.
 */
const HARD_PATTERNS: Array<[pattern: string, sample: string]> = [
  ['(x|x)*qz', 'qz'],
  ['[a-z]*[a-z]*[a-z]*[a-z]*!', 'wow!'],
  ['.*.*.*.*.*=', 'a=b'],
  ['(?:.*a){12}q', 'aaaaaaaaaaaaq'],
  ['(?<=a.*)bq', 'abq'],
  ['(?<=(?:a|b){60})cq', `${'a'.repeat(60)}cq`],
  ['.{1,150}==', 'a=='],
  ['(?:\\w*\\W*){20}zq', 'zq'],
  ['(?:\\w+\\s?){1,40}!!', 'ab!!'],
];
const HARD_TEXTS: Array<[name: string, text: string]> = [
  ['x', 'x'.repeat(10_000)],
  ['a', 'a'.repeat(10_000)],
  ['a b', 'a b '.repeat(2_500)],
  ['plain words', 'hello world this is a message '.repeat(400).slice(0, 10_000)],
  ['mixed', Array.from({ length: 10_000 }, (_, i) => 'aZ9 .-x!é_@=y'[(i * 7919) % 13]).join('')],
  ...ADVERSARIAL,
];

/** The longest of 5 checks: the event loop is held for exactly as long as one check runs. */
function msHeld(text: string, patternOptions: Parameters<typeof checkMessage>[1]) {
  checkMessage(text, patternOptions); // warm-up
  let longest = 0;
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    checkMessage(text, patternOptions);
    longest = Math.max(longest, performance.now() - start);
  }
  return longest;
}

const isAccepted = (pattern: string, sample: string) => {
  try {
    assertUsablePattern(pattern, sample);
    return true;
  } catch {
    return false;
  }
};

/** Each hard pattern the checks accept, active beside the default ones, on the text where it costs most. */
function benchHardPatterns() {
  const accepted = HARD_PATTERNS.filter(([pattern, sample]) => isAccepted(pattern, sample));
  const defaults = toPatternMatchers(DEFAULT_MODERATION_PATTERNS);
  const withAll = {
    ...options,
    patterns: [
      ...defaults,
      ...toPatternMatchers(accepted.map(([pattern]) => ({ pattern, category: 'other' as const }))),
    ],
  };
  const ordinaryMs = msHeld(ORDINARY, withAll);
  const rows = HARD_PATTERNS.map(([pattern]) => {
    if (!accepted.some(([kept]) => kept === pattern))
      return { pattern, text: '-', 'ms held': '-', 'x ordinary': '-', budget: 'refused by the checks' };
    const only = { ...options, patterns: [...defaults, ...toPatternMatchers([{ pattern, category: 'other' }])] };
    const [text, ms] = HARD_TEXTS.map(([name, text]) => [name, msHeld(text, only)] as const).reduce((worst, next) =>
      next[1] > worst[1] ? next : worst,
    );
    const ratio = ms / ordinaryMs;
    return {
      pattern,
      text,
      'ms held': Number(ms.toFixed(2)),
      'x ordinary': Number(ratio.toFixed(1)),
      budget: ratio <= BUDGET_RATIO ? 'ok' : `over ${BUDGET_RATIO}x`,
    };
  });
  return { ordinaryMs, rows };
}

export function benchModeration() {
  for (const text of [ORDINARY, ...ADVERSARIAL.map(([, text]) => text)]) checkMessage(text, options); // warm-up
  const baseline = msPerCheck(ORDINARY);
  const rows = [['ordinary text', ORDINARY] as const, ...ADVERSARIAL].map(([name, text]) => {
    const ms = msPerCheck(text);
    const ratio = ms / baseline;
    return {
      message: name,
      'ms per check': Number(ms.toFixed(3)),
      'x ordinary': Number(ratio.toFixed(1)),
      budget: ratio <= BUDGET_RATIO ? 'ok' : `over ${BUDGET_RATIO}x`,
    };
  });
  const patterns = benchHardPatterns();
  return {
    rows,
    patterns,
    withinBudget: [...rows, ...patterns.rows].every(
      (row) => row.budget === 'ok' || row.budget === 'refused by the checks',
    ),
  };
}
