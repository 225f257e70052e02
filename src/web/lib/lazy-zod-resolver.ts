import type { FieldErrors, FieldValues, Resolver, ResolverError } from 'react-hook-form';
import type * as z4 from 'zod/v4/core';
import { CONNECTION_ERROR_MESSAGE } from '#web/page-contract/connection-error.ts';
import { loadOnce } from './load-once.ts';
import { toastMessage } from './toast-message.ts';

/**
 * A react-hook-form resolver for a zod schema imported on first use: zod and the schema stay out of the page's
 * first download. `preload` (from the form's focus) fetches them as someone starts filling the form in; the first
 * check waits for them at the latest. If they cannot be fetched, nothing is sent, the connection error is shown,
 * and the next check tries again.
 */
export function lazyZodResolver<Input extends FieldValues, Output>(
  loadSchema: () => Promise<z4.$ZodType<Output, Input>>,
) {
  const load = loadOnce(async () => {
    const [{ zodResolver }, schema] = await Promise.all([import('@hookform/resolvers/zod'), loadSchema()]);
    return zodResolver<Input, unknown, Output>(schema);
  });
  const resolver: Resolver<Input, unknown, Output> = async (values, context, options) => {
    const check = await load().catch(() => null);
    if (check) return check(values, context, options);
    toastMessage(CONNECTION_ERROR_MESSAGE);
    const errors: FieldErrors = { root: { load: { type: 'load', message: CONNECTION_ERROR_MESSAGE } } };
    // A form-wide error: TypeScript cannot see that `root` is free in every form's own field map.
    const failure: ResolverError<Input> = { values: {}, errors: errors as FieldErrors<Input> };
    return failure;
  };
  return Object.assign(resolver, { preload: () => void load().catch(() => undefined) });
}
