import { describe, expect, it } from 'vitest';
import {
  bidRangeMessage,
  budgetMessages,
  budgetProblem,
  defaultBudget,
  fallbackMaxBudget,
  formatBudget,
  isBidInRange,
  isOpenEndedMax,
  wizardBudget,
} from './budget.ts';

describe('budget rules, in cents', () => {
  it('resets to the defaults of each type when the form switches type', () => {
    expect(defaultBudget('tutoring')).toEqual({ minCents: 800, maxCents: 1500 });
    expect(defaultBudget('assignment')).toEqual({ minCents: 500, maxCents: 10_000 });
  });

  it.each([
    ['tutoring', 800, 1500, null],
    ['tutoring', 1000, 1250, null],
    ['tutoring', 799, 1500, budgetMessages.range],
    ['tutoring', 800, 1501, budgetMessages.range],
    ['tutoring', 800, 999_900, budgetMessages.range],
    ['assignment', 500, 500_000, null],
    ['assignment', 499, 10_000, budgetMessages.range],
    ['assignment', 500, 500_001, budgetMessages.range],
    ['assignment', 500, 999_900, null],
    ['assignment', 500, 99_900, null],
    ['assignment', 500, 999_901, budgetMessages.range],
    ['assignment', 5000, 2000, budgetMessages.order],
    ['tutoring', 1200, 1000, budgetMessages.order],
    ['assignment', -1, 1000, budgetMessages.negative],
  ] as const)('%s %d to %d cents: %s', (type, minCents, maxCents, problem) => {
    expect(budgetProblem({ type, minCents, maxCents })).toBe(problem);
  });

  it('stores the wizard budgets of SPEC.md §5', () => {
    expect(wizardBudget({ type: 'tutoring' })).toEqual({ minCents: 800, maxCents: 1500 });
    expect(wizardBudget({ type: 'tutoring', enteredMaxCents: 1200 })).toEqual({ minCents: 800, maxCents: 1200 });
    expect(wizardBudget({ type: 'assignment' })).toEqual({ minCents: 500, maxCents: 999_900 });
    expect(wizardBudget({ type: 'assignment', enteredMaxCents: null })).toEqual({ minCents: 500, maxCents: 999_900 });
    expect(wizardBudget({ type: 'assignment', enteredMaxCents: 25_050 })).toEqual({ minCents: 500, maxCents: 25_050 });
    expect(wizardBudget({ type: 'assignment', enteredMaxCents: 25_000, skipped: true })).toEqual({
      minCents: 500,
      maxCents: 99_900,
    });
    expect(wizardBudget({ type: 'tutoring', skipped: true })).toEqual({ minCents: 800, maxCents: 1500 });
    expect(fallbackMaxBudget('assignment')).toBe(999_900);
    expect(fallbackMaxBudget('tutoring')).toBe(1500);
  });

  it('never shows "undefined": an open maximum reads "$5+"', () => {
    expect(formatBudget({ minCents: 800, maxCents: 1500 })).toBe('$8 - $15');
    expect(formatBudget({ minCents: 500, maxCents: 999_900 })).toBe('$5+');
    expect(formatBudget({ minCents: 500, maxCents: 99_900 })).toBe('$5+');
    expect(formatBudget({ minCents: 500, maxCents: null })).toBe('$5+');
    expect(formatBudget({ minCents: 500, maxCents: undefined })).toBe('$5+');
    expect(formatBudget({ minCents: 1000, maxCents: 1000 })).toBe('$10');
    expect(formatBudget({ minCents: 750, maxCents: 1225 })).toBe('$7.50 - $12.25');
    for (const maxCents of [99_900, 999_900]) expect(isOpenEndedMax(maxCents)).toBe(true);
    expect(isOpenEndedMax(500_000)).toBe(false);
  });

  it('keeps bids inside the budget, cent for cent, bounded only from below when the maximum is open', () => {
    expect(isBidInRange(800, { minCents: 800, maxCents: 1500 })).toBe(true);
    expect(isBidInRange(1500, { minCents: 800, maxCents: 1500 })).toBe(true);
    expect(isBidInRange(799, { minCents: 800, maxCents: 1500 })).toBe(false);
    expect(isBidInRange(1501, { minCents: 800, maxCents: 1500 })).toBe(false);
    expect(isBidInRange(5_000_000, { minCents: 500, maxCents: 999_900 })).toBe(true);
    expect(isBidInRange(499, { minCents: 500, maxCents: 99_900 })).toBe(false);
    expect(bidRangeMessage({ minCents: 800, maxCents: 1500 })).toBe('Your bid must be between 8 and 15.');
    expect(bidRangeMessage({ minCents: 800, maxCents: 1250 })).toBe('Your bid must be between 8 and 12.50.');
    expect(bidRangeMessage({ minCents: 500, maxCents: 999_900 })).toBe('Your bid must be at least 5.');
  });
});
