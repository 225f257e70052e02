import { MATHEMATICS_CATEGORY } from '#shared/constants.ts';

// Specializations (SPEC.md §2 Register): several subjects in Mathematics, exactly one anywhere else.
export const specializationMessages = {
  required: 'Please choose at least one subject',
  unknown: 'Unknown subject',
  oneOutsideMathematics: `Only ${MATHEMATICS_CATEGORY} allows several subjects; choose one subject in other categories`,
} as const;

/** Why a teacher's choice of subjects (given by their categories) is refused, or null when it is fine. */
export function specializationProblem(categories: readonly string[]): string | null {
  if (categories.length === 0) return specializationMessages.required;
  const [first] = categories;
  const oneCategory = categories.every((category) => category === first);
  if (!oneCategory || (first !== MATHEMATICS_CATEGORY && categories.length > 1))
    return specializationMessages.oneOutsideMathematics;
  return null;
}
