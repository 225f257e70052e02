import type { ComponentProps } from 'react';
import { useHydrated } from '#web/lib/use-hydrated.ts';

/**
 * A <form> whose fields and buttons stay disabled until a prerendered page is hydrated: text typed before would
 * be lost to React, and a press would send the form natively (a GET, the password in the address).
 */
export function Form({ children, ...props }: ComponentProps<'form'>) {
  const hydrated = useHydrated();
  return (
    <form {...props}>
      <fieldset disabled={!hydrated} className="contents">
        {children}
      </fieldset>
    </form>
  );
}
