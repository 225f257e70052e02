import {
  ASSIGNMENT_BUDGET_CENTS,
  FALLBACK_MAX_BUDGET_CENTS,
  OPEN_ENDED_MAX_BUDGETS_CENTS,
  TUTORING_BUDGET_CENTS,
  WIZARD_SKIP_MAX_BUDGET_CENTS,
  type RequestType,
} from '#shared/constants.ts';
import { formatCents, formatDollars } from './money.ts';

// Budgets of SPEC.md §5 ("Standard request form", "Wizard budgets", "Bid"), in USD cents. Isomorphic: no I/O.

export const budgetMessages = {
  negative: 'Budget must be 0 or more',
  order: 'Maximum budget must be greater than or equal to minimum budget',
  range: 'Budget must be within allowed range for the selected request type',
} as const;

/** A request's budget in cents; a maximum of OPEN_ENDED_MAX_BUDGETS_CENTS means "no maximum". */
export type BudgetCents = { minCents: number; maxCents: number };

/** The range the standard form allows per request type. */
const BUDGET_RANGES: Record<RequestType, BudgetCents> = {
  tutoring: { minCents: TUTORING_BUDGET_CENTS.min, maxCents: TUTORING_BUDGET_CENTS.max },
  assignment: { minCents: ASSIGNMENT_BUDGET_CENTS.min, maxCents: ASSIGNMENT_BUDGET_CENTS.max },
};

/** What the standard form resets the budget fields to when the request type changes. */
export function defaultBudget(type: RequestType): BudgetCents {
  return type === 'tutoring'
    ? { ...BUDGET_RANGES.tutoring }
    : { minCents: ASSIGNMENT_BUDGET_CENTS.min, maxCents: ASSIGNMENT_BUDGET_CENTS.defaultMax };
}

/** A stored maximum that means "no maximum" (never displayed as a number). */
export const isOpenEndedMax = (maxCents: number) =>
  (OPEN_ENDED_MAX_BUDGETS_CENTS as readonly number[]).includes(maxCents);

/** The maximum stored when none was entered: the tutoring ceiling, or "no maximum" for assignments. */
export const fallbackMaxBudget = (type: RequestType) =>
  type === 'tutoring' ? TUTORING_BUDGET_CENTS.max : FALLBACK_MAX_BUDGET_CENTS;

/**
 * The budget the assistant wizard stores: the type's minimum, and the maximum entered, else the fallback.
 * Skipping the budget step stores $999 for assignments (open-ended) and $15 for tutoring.
 */
export function wizardBudget({
  type,
  enteredMaxCents,
  skipped = false,
}: {
  type: RequestType;
  enteredMaxCents?: number | null;
  skipped?: boolean;
}): BudgetCents {
  const minCents = BUDGET_RANGES[type].minCents;
  if (skipped)
    return { minCents, maxCents: type === 'assignment' ? WIZARD_SKIP_MAX_BUDGET_CENTS : TUTORING_BUDGET_CENTS.max };
  return { minCents, maxCents: enteredMaxCents ?? fallbackMaxBudget(type) };
}

/**
 * Why a budget is refused (a budgetMessages text), or null. An assignment's open-ended maximum ($999 or $9999)
 * is allowed beyond the $5000 ceiling: it means "no maximum".
 */
export function budgetProblem({ type, minCents, maxCents }: BudgetCents & { type: RequestType }) {
  if (minCents < 0 || maxCents < 0) return budgetMessages.negative;
  if (maxCents < minCents) return budgetMessages.order;
  const range = BUDGET_RANGES[type];
  const maxAllowed = maxCents <= range.maxCents || (type === 'assignment' && isOpenEndedMax(maxCents));
  if (minCents < range.minCents || !maxAllowed) return budgetMessages.range;
  return null;
}

/** "$8 - $15", "$10", or "$5+" for an open-ended maximum: never "undefined". */
export function formatBudget({ minCents, maxCents }: { minCents: number; maxCents: number | null | undefined }) {
  if (maxCents === null || maxCents === undefined || isOpenEndedMax(maxCents)) return `${formatCents(minCents)}+`;
  return minCents === maxCents ? formatCents(minCents) : `${formatCents(minCents)} - ${formatCents(maxCents)}`;
}

/** Whether a bid fits the request's budget; an open-ended maximum bounds only from below. */
export function isBidInRange(amountCents: number, budget: BudgetCents) {
  return amountCents >= budget.minCents && (isOpenEndedMax(budget.maxCents) || amountCents <= budget.maxCents);
}

/** The "Invalid Bid Amount" text of SPEC.md §5, in dollars ("between 8 and 12.50"). */
export function bidRangeMessage(budget: BudgetCents) {
  return isOpenEndedMax(budget.maxCents)
    ? `Your bid must be at least ${formatDollars(budget.minCents)}.`
    : `Your bid must be between ${formatDollars(budget.minCents)} and ${formatDollars(budget.maxCents)}.`;
}
