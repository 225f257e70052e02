// Chat moderation on adversarial 10,000-character messages (the longest a message may be), against an ordinary
// message of the same length timed in the same run: a ratio near 1 means the checks stay linear in the text.
import { performance } from 'node:perf_hooks';
import { checkMessage } from '../src/shared/rules/moderation.ts';

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
  return { rows, withinBudget: rows.every((row) => row.budget === 'ok') };
}
