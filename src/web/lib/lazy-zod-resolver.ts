import type { FieldValues, Resolver } from 'react-hook-form';
import type * as z4 from 'zod/v4/core';

/**
 * A react-hook-form resolver for a zod schema imported on first use: zod and the schema stay out of the page's
 * first download. `preload` (from the form's focus) fetches them as someone starts filling the form in; the first
 * check waits for them at the latest.
 */
export function lazyZodResolver<Input extends FieldValues, Output>(
  loadSchema: () => Promise<z4.$ZodType<Output, Input>>,
) {
  let loading: Promise<Resolver<Input, unknown, Output>> | undefined;
  const load = () =>
    (loading ??= Promise.all([import('@hookform/resolvers/zod'), loadSchema()]).then(([{ zodResolver }, schema]) =>
      zodResolver<Input, unknown, Output>(schema),
    ));
  const resolver: Resolver<Input, unknown, Output> = async (values, context, options) =>
    (await load())(values, context, options);
  return Object.assign(resolver, { preload: () => void load() });
}
