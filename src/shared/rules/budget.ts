import {
  ASSIGNMENT_BUDGET,
  FALLBACK_MAX_BUDGET,
  OPEN_ENDED_MAX_BUDGETS,
  TUTORING_BUDGET,
  WIZARD_SKIP_MAX_BUDGET,
  type RequestType,
} from '#shared/constants.ts';

// Budgets of SPEC.md §5 ("Standard request form", "Wizard budgets", "Bid"), in USD. Isomorphic: no I/O.

export const budgetMessages = {
  negative: 'Budget must be 0 or more',
  order: 'Maximum budget must be greater than or equal to minimum budget',
  range: 'Budget must be within allowed range for the selected request type',
} as const;

/** The range the standard form allows per request type. */
const BUDGET_RANGES: Record<RequestType, { min: number; max: number }> = {
  tutoring: { min: TUTORING_BUDGET.min, max: TUTORING_BUDGET.max },
  assignment: { min: ASSIGNMENT_BUDGET.min, max: ASSIGNMENT_BUDGET.max },
};

/** What the standard form resets the budget fields to when the request type changes. */
export function defaultBudget(type: RequestType) {
  return type === 'tutoring'
    ? { ...BUDGET_RANGES.tutoring }
    : { min: ASSIGNMENT_BUDGET.min, max: ASSIGNMENT_BUDGET.defaultMax };
}

/** A stored maximum that means "no maximum" (never displayed as a number). */
export const isOpenEndedMax = (max: number) => (OPEN_ENDED_MAX_BUDGETS as readonly number[]).includes(max);

/** The maximum stored when none was entered: the tutoring ceiling, or "no maximum" for assignments. */
export const fallbackMaxBudget = (type: RequestType) =>
  type === 'tutoring' ? TUTORING_BUDGET.max : FALLBACK_MAX_BUDGET;

/**
 * The budget the assistant wizard stores: the type's minimum, and the maximum entered, else the fallback.
 * Skipping the budget step stores 999 for assignments (open-ended) and 15 for tutoring.
 */
export function wizardBudget({
  type,
  enteredMax,
  skipped = false,
}: {
  type: RequestType;
  enteredMax?: number | null;
  skipped?: boolean;
}) {
  const min = BUDGET_RANGES[type].min;
  if (skipped) return { min, max: type === 'assignment' ? WIZARD_SKIP_MAX_BUDGET : TUTORING_BUDGET.max };
  return { min, max: enteredMax ?? fallbackMaxBudget(type) };
}

/**
 * Why a budget is refused (a budgetMessages text), or null. An assignment's open-ended maximum (999 or 9999)
 * is allowed beyond the 5000 ceiling: it means "no maximum".
 */
export function budgetProblem({ type, min, max }: { type: RequestType; min: number; max: number }) {
  if (min < 0 || max < 0) return budgetMessages.negative;
  if (max < min) return budgetMessages.order;
  const range = BUDGET_RANGES[type];
  const maxAllowed = max <= range.max || (type === 'assignment' && isOpenEndedMax(max));
  if (min < range.min || !maxAllowed) return budgetMessages.range;
  return null;
}

/** "$12" or "$12.50". */
export const formatAmount = (amount: number) => `$${Number.isInteger(amount) ? amount : amount.toFixed(2)}`;

/** "$8 - $15", "$10", or "$5+" for an open-ended maximum: never "undefined". */
export function formatBudget(min: number, max: number | null | undefined) {
  if (max === null || max === undefined || isOpenEndedMax(max)) return `${formatAmount(min)}+`;
  return min === max ? formatAmount(min) : `${formatAmount(min)} - ${formatAmount(max)}`;
}

/** Whether a bid fits the request's budget; an open-ended maximum bounds only from below. */
export function isBidInRange(amount: number, budget: { min: number; max: number }) {
  return amount >= budget.min && (isOpenEndedMax(budget.max) || amount <= budget.max);
}

/** The "Invalid Bid Amount" text of SPEC.md §5. */
export function bidRangeMessage(budget: { min: number; max: number }) {
  return isOpenEndedMax(budget.max)
    ? `Your bid must be at least ${budget.min}.`
    : `Your bid must be between ${budget.min} and ${budget.max}.`;
}
