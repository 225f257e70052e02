import { describe, expect, it } from 'vitest';
import {
  bidRangeMessage,
  budgetMessages,
  budgetProblem,
  defaultBudget,
  fallbackMaxBudget,
  formatAmount,
  formatBudget,
  isBidInRange,
  isOpenEndedMax,
  wizardBudget,
} from './budget.ts';

describe('budget rules', () => {
  it('resets to the defaults of each type when the form switches type', () => {
    expect(defaultBudget('tutoring')).toEqual({ min: 8, max: 15 });
    expect(defaultBudget('assignment')).toEqual({ min: 5, max: 100 });
  });

  it.each([
    ['tutoring', 8, 15, null],
    ['tutoring', 10, 12, null],
    ['tutoring', 7, 15, budgetMessages.range],
    ['tutoring', 8, 16, budgetMessages.range],
    ['tutoring', 8, 9999, budgetMessages.range],
    ['assignment', 5, 5000, null],
    ['assignment', 4, 100, budgetMessages.range],
    ['assignment', 5, 5001, budgetMessages.range],
    ['assignment', 5, 9999, null],
    ['assignment', 5, 999, null],
    ['assignment', 50, 20, budgetMessages.order],
    ['tutoring', 12, 10, budgetMessages.order],
    ['assignment', -1, 10, budgetMessages.negative],
  ] as const)('%s %d to %d: %s', (type, min, max, problem) => {
    expect(budgetProblem({ type, min, max })).toBe(problem);
  });

  it('stores the wizard budgets of SPEC.md §5', () => {
    expect(wizardBudget({ type: 'tutoring' })).toEqual({ min: 8, max: 15 });
    expect(wizardBudget({ type: 'tutoring', enteredMax: 12 })).toEqual({ min: 8, max: 12 });
    expect(wizardBudget({ type: 'assignment' })).toEqual({ min: 5, max: 9999 });
    expect(wizardBudget({ type: 'assignment', enteredMax: null })).toEqual({ min: 5, max: 9999 });
    expect(wizardBudget({ type: 'assignment', enteredMax: 250 })).toEqual({ min: 5, max: 250 });
    expect(wizardBudget({ type: 'assignment', enteredMax: 250, skipped: true })).toEqual({ min: 5, max: 999 });
    expect(wizardBudget({ type: 'tutoring', skipped: true })).toEqual({ min: 8, max: 15 });
    expect(fallbackMaxBudget('assignment')).toBe(9999);
    expect(fallbackMaxBudget('tutoring')).toBe(15);
  });

  it('never shows "undefined": an open maximum reads "$5+"', () => {
    expect(formatBudget(8, 15)).toBe('$8 - $15');
    expect(formatBudget(5, 9999)).toBe('$5+');
    expect(formatBudget(5, 999)).toBe('$5+');
    expect(formatBudget(5, null)).toBe('$5+');
    expect(formatBudget(5, undefined)).toBe('$5+');
    expect(formatBudget(10, 10)).toBe('$10');
    expect(formatBudget(7.5, 12.25)).toBe('$7.50 - $12.25');
    expect(formatAmount(12)).toBe('$12');
    for (const max of [999, 9999]) expect(isOpenEndedMax(max)).toBe(true);
    expect(isOpenEndedMax(5000)).toBe(false);
  });

  it('keeps bids inside the budget, bounded only from below when the maximum is open', () => {
    expect(isBidInRange(8, { min: 8, max: 15 })).toBe(true);
    expect(isBidInRange(15, { min: 8, max: 15 })).toBe(true);
    expect(isBidInRange(7.99, { min: 8, max: 15 })).toBe(false);
    expect(isBidInRange(16, { min: 8, max: 15 })).toBe(false);
    expect(isBidInRange(50_000, { min: 5, max: 9999 })).toBe(true);
    expect(isBidInRange(4, { min: 5, max: 999 })).toBe(false);
    expect(bidRangeMessage({ min: 8, max: 15 })).toBe('Your bid must be between 8 and 15.');
    expect(bidRangeMessage({ min: 5, max: 9999 })).toBe('Your bid must be at least 5.');
  });
});
