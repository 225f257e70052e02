import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from './api.ts';

/**
 * Shows a refusal's field messages (a 400 `{ code, message, fields }`) next to the form's own fields, focusing the
 * first. A server path such as "specializations.0" belongs to its root field; `rename` maps a server field name to
 * the form's. Returns whether any message was placed, so the caller shows a notice only when none was.
 */
export function applyFieldErrors<T extends FieldValues>(
  setError: UseFormSetError<T>,
  error: unknown,
  fieldNames: readonly Path<T>[],
  rename: Partial<Record<string, Path<T>>> = {},
): boolean {
  if (!(error instanceof ApiError) || error.status !== 400 || !error.fields) return false;
  let placed = false;
  for (const [path, message] of Object.entries(error.fields)) {
    const root = path.split('.')[0] ?? '';
    const field = rename[root] ?? fieldNames.find((name) => name === root);
    if (!field) continue;
    setError(field, { message }, { shouldFocus: !placed });
    placed = true;
  }
  return placed;
}
