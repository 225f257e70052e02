import { describe, expect, it } from 'vitest';
import { DECLINED_CASES, SOLVED_CASES } from './offline-math-cases.ts';
import { solveMathQuestion } from './offline-math.ts';

describe('solveMathQuestion', () => {
  it('covers at least 40 questions and 10 declines', () => {
    expect(SOLVED_CASES.length).toBeGreaterThanOrEqual(40);
    expect(DECLINED_CASES.length).toBeGreaterThanOrEqual(10);
  });

  it.each(SOLVED_CASES)('%s → %s', (question, answer) => {
    const result = solveMathQuestion(question);
    expect(result.solved && result.answer).toBe(answer);
    expect(result.solved && result.steps.length).toBeGreaterThanOrEqual(2);
  });

  it.each(DECLINED_CASES)('declines %s', (question) => {
    expect(solveMathQuestion(question)).toEqual({ solved: false });
  });

  it('writes exact forms in LaTeX for KaTeX', () => {
    const result = solveMathQuestion('x^2 - 2x - 1 = 0');
    expect(result.solved && result.latex).toBe('x = 1 \\pm \\sqrt{2}');
  });

  it('explains a quadratic through its discriminant', () => {
    const result = solveMathQuestion('x^2 + 1 = 0');
    expect(result.solved && result.steps.join(' ')).toContain('negative, so two complex roots');
  });
});
