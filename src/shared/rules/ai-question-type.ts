type AiQuestionType = 'math' | 'general';

const MATH_WORDS = ['solve', 'math', 'equation'];
// Digits and the operators students type; three in a row ("240", "2+3", "x^2=4" has "2=4") mark a calculation.
const DIGIT_OR_OPERATOR_RUN = /[0-9+\-*/=^]{3,}/;

/**
 * SPEC.md §5: math when the text contains solve, math or equation (anywhere, any case, so "Solved" and
 * "mathematics" count too), or a run of 3+ digits or operator characters; otherwise general.
 */
export function aiQuestionType(text: string): AiQuestionType {
  const lower = text.toLowerCase();
  if (MATH_WORDS.some((word) => lower.includes(word))) return 'math';
  return DIGIT_OR_OPERATOR_RUN.test(text) ? 'math' : 'general';
}
