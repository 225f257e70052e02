import { describe, expect, it } from 'vitest';
import { SOLVED_CASES } from './offline-math-cases.ts';
import { exceedsEngineBounds } from './math-size.ts';

describe('the size of a question, before the engine sees it', () => {
  it.each([
    '(10^10)!',
    '9^9^9',
    '10^10^10',
    '2^(10^10)',
    'x^(10^10)',
    'derivative of x^(10^10)',
    'e^(10*10)',
    '2^(6+7)',
    '2^13',
    '2^1e10',
    '(5!)!',
    '101!',
    'x!',
    '1.5!',
    'solve: (10^10)! = x',
    '((9^12)^12)^12',
    '2^4!',
  ])('refuses %s', (question) => {
    expect(exceedsEngineBounds(question)).toBe(true);
  });

  it.each([
    ...SOLVED_CASES.map(([question]) => question),
    '10!',
    '100!/98!',
    '2^12',
    '2^-12',
    '99999^12',
    'expand (x+1)^12',
    'derivative of e^(2x)',
    'x^(1/2)',
    '2^3!',
    '5% of 200',
    'sqrt(16) + sin(pi)',
    '(1 + 2))(',
  ])('lets %s through', (question) => {
    expect(exceedsEngineBounds(question)).toBe(false);
  });
});
